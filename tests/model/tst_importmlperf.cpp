#include "store/import.h"
#include "store/importmlperf.h"
#include "store/store.h"

#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace clab;
using namespace clab::store;

namespace {

std::string fixture(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name;
}

const OrderedJson *entryFor(const ImportReport &r, const std::string &system,
                            const std::string &benchmark)
{
    for (const auto &e : r.imported) {
        if (e.value("system", "") == system && e.value("benchmark", "") == benchmark)
            return &e;
    }
    return nullptr;
}

} // namespace

class TestImportMlperf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void olympic_data()
    {
        QTest::addColumn<QVector<double>>("minutes");
        QTest::addColumn<int>("failed");
        QTest::addColumn<int>("dropped");
        QTest::addColumn<double>("score"); // -1: no score
        QTest::newRow("five converged") << QVector<double>{14, 10, 12, 11, 13} << 0 << 1 << 12.0;
        // A failed run is the slowest: only the fastest converged one is dropped.
        QTest::newRow("one failed") << QVector<double>{10, 12, 11, 13} << 1 << 1 << 12.0;
        QTest::newRow("two failed") << QVector<double>{10, 12, 11} << 2 << 1 << -1.0;
        // 3D U-Net: 40 runs, four dropped each side.
        QVector<double> unet;
        for (int i = 1; i <= 40; ++i)
            unet.push_back(i);
        QTest::newRow("unet3d") << unet << 0 << 4 << 20.5;
        QTest::newRow("unet3d three failed") << unet.mid(0, 37) << 3 << 4 << 20.5; // 5..36
    }
    void olympic()
    {
        QFETCH(QVector<double>, minutes);
        QFETCH(int, failed);
        QFETCH(int, dropped);
        QFETCH(double, score);
        const auto got
            = olympicScore(std::vector<double>(minutes.begin(), minutes.end()), failed, dropped);
        if (score < 0)
            QVERIFY(!got);
        else
            QCOMPARE(got.value_or(-1), score);
    }

    void fixtureTree()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport r = importPaths(s, {fixture("mlperf")});
        QCOMPARE(r.imported.size(), std::size_t(2));
        const OrderedJson *resnet = entryFor(r, "box_8xA100", "resnet");
        QVERIFY(resnet);
        // Converged 10, 12, 11, 13 and one aborted: (11 + 12 + 13) / 3 × scaling 1.5.
        QCOMPARE((*resnet)["score_minutes"].get<double>(), 18.0);
        QCOMPARE((*resnet)["runs"].get<int>(), 5);
        QCOMPARE((*resnet)["converged"].get<int>(), 4);
        QCOMPARE((*resnet)["round"].get<std::string>(), std::string("9.9"));
        // v0.6-style :::MLL logs in seconds: 20, 24, 21, 23, 22 → 22.
        const OrderedJson *ssd = entryFor(r, "box_8xA100", "ssd");
        QVERIFY(ssd);
        QVERIFY(std::abs((*ssd)["score_minutes"].get<double>() - 22.0) < 1e-6);
        QCOMPARE(r.skipped.size(), std::size_t(1)); // the aborted run
        QVERIFY(r.skipped[0].reason.find("aborted") != std::string::npos);

        const auto runs = s.runs("resnet");
        QCOMPARE(runs.size(), std::size_t(5)); // four runs and the score
        QCOMPARE(runs[0].run().globalBatch.value_or(0), 3264);
        QCOMPARE(runs[0].system, std::string("box_8xA100"));
        QCOMPARE(runs[0].run().framework, std::string("MXNet NVIDIA Release 22.04"));
        const Json details = Json::parse(runs[0].run().details);
        QCOMPARE(details["epochs"].get<int>(), 32);
        QCOMPARE(details["throughput_lines"].get<int>(), 4);
        QCOMPARE(runs[0].sourceSha256.size(), std::size_t(64));
        QCOMPARE(s.count(Table::Systems), 1);

        // Idempotent: the same tree again adds nothing, and a folder inside it neither.
        const auto before = s.count(Table::Runs);
        const ImportReport again = importPaths(
            s, {fixture("mlperf"), fixture("mlperf/v9.9/Acme/results/box_8xA100/ssd")});
        QCOMPARE(again.imported.size(), std::size_t(0));
        QCOMPARE(s.count(Table::Runs), before);
    }

    // A run belongs to the first round published on or after its day.
    void roundFromRunDate()
    {
        const auto ms = [](int y, int m, int d) {
            return double(QDateTime(QDate(y, m, d), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch());
        };
        QCOMPARE(roundOfRunDate(ms(2019, 6, 8)), std::string("0.6"));
        QCOMPARE(roundOfRunDate(ms(2023, 5, 9)), std::string("3.0"));
        QCOMPARE(roundOfRunDate(ms(2023, 6, 28)), std::string("3.1")); // after v3.0 was out
        QCOMPARE(roundOfRunDate(ms(2024, 10, 1)), std::string("4.1"));
        QCOMPARE(roundOfRunDate(0), std::string());
        QCOMPARE(roundOfRunDate(ms(1970, 1, 2)), std::string()); // a clock that was not set
        QCOMPARE(roundOfRunDate(ms(2031, 1, 1)), std::string()); // beyond the rounds known
    }

    // Every real log of the shared sample dates to the round its folder names.
    void realRoundsFromLogs()
    {
        namespace fs = std::filesystem;
        const fs::path root = fs::path(CLAB_SHARED_DIR) / "reference/mlperf_results_sample";
        if (!fs::exists(root))
            QSKIP("the shared reference folder is absent");
        int checked = 0;
        for (const auto &entry : fs::recursive_directory_iterator(root)) {
            if (entry.path().filename().string().rfind("result_", 0) != 0)
                continue;
            fs::path round = entry.path();
            while (!round.empty() && round.filename().string().rfind('v', 0) != 0)
                round = round.parent_path();
            std::ifstream in(entry.path());
            const std::string text((std::istreambuf_iterator<char>(in)), {});
            const MlperfRun run = parseMlperfLog(text, entry.path().string());
            if (!run.ok())
                continue;
            QCOMPARE(roundOfRunDate(run.startMs), round.filename().string().substr(1));
            ++checked;
        }
        QVERIFY(checked >= 30); // 6 submissions of 5 to 10 runs
    }

    // A submitter folder taken out of its round folder: the round comes from the logs' dates,
    // and a result log inside the training code (benchmarks/.../implementations/) is not a system.
    void roundFromLogsAndCodeTreesPassedOver()
    {
        namespace fs = std::filesystem;
        QTemporaryDir dir;
        const fs::path acme = fs::path(dir.path().toStdString()) / "Acme";
        fs::copy(fixture("mlperf/v9.9/Acme"), acme, fs::copy_options::recursive);
        const fs::path sample = acme / "benchmarks/ssd/implementations/pytorch/sample";
        fs::create_directories(sample);
        fs::copy_file(acme / "results/box_8xA100/ssd/result_0.txt", sample / "result_0.txt");
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport r = importPaths(s, {acme.string()});
        QCOMPARE(r.imported.size(), std::size_t(2));
        const OrderedJson *ssd = entryFor(r, "box_8xA100", "ssd");
        QVERIFY(ssd);
        QCOMPARE((*ssd)["round"].get<std::string>(), std::string("0.6")); // logs of June 2019
        QVERIFY(!entryFor(r, "implementations", "ssd") && !entryFor(r, "sample", "ssd"));
        QCOMPARE(s.count(Table::Systems), 1);
        // The code tree is one summary line, not a line per file.
        int codeLines = 0;
        for (const auto &k : r.skipped)
            codeLines += k.reason.find("passed over") != std::string::npos ? 1 : 0;
        QCOMPARE(codeLines, 1);
    }

    void garbledLogsFailRuns()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport r = importPaths(s, {fixture("mlperf_garbled")});
        QCOMPARE(r.imported.size(), std::size_t(1));
        QVERIFY(r.imported[0]["score_minutes"].is_null());
        QString reasons;
        for (const auto &k : r.skipped)
            reasons += QString::fromStdString(k.path + ": " + k.reason) + QLatin1Char('\n');
        QVERIFY2(reasons.contains(QStringLiteral("result_1.txt: run counted as failed: line 2")),
                 qPrintable(reasons));
        QVERIFY2(reasons.contains(QStringLiteral("run_stop not recorded")), qPrintable(reasons));
        QVERIFY2(reasons.contains(QStringLiteral("no score: 2 of 5 runs failed")),
                 qPrintable(reasons));
    }

    // The six real submissions of the shared reference folder, against the scores its README gives.
    void realSubmissions_data()
    {
        QTest::addColumn<QString>("system");
        QTest::addColumn<QString>("benchmark");
        QTest::addColumn<double>("expected");
        QTest::newRow("v1.0 NVIDIA mxnet")
            << QStringLiteral("dgxa100_ngc21.05_mxnet") << QStringLiteral("resnet") << 28.771;
        QTest::newRow("v1.0 NVIDIA bert")
            << QStringLiteral("dgxa100_ngc21.05_pytorch") << QStringLiteral("bert") << 21.693;
        QTest::newRow("v2.0 Lenovo")
            << QStringLiteral("SR670v2_8xA100-PCIe-80GB") << QStringLiteral("resnet") << 32.703;
        QTest::newRow("v3.0 NVIDIA")
            << QStringLiteral("dgxh100_n8_ngc23.04_mxnet") << QStringLiteral("resnet") << 2.664;
        QTest::newRow("v3.0 Dell")
            << QStringLiteral("R760xax4H100-PCIE-80GB") << QStringLiteral("resnet") << 39.918;
        QTest::newRow("v0.6 NVIDIA")
            << QStringLiteral("dgx2_ngc19.05_mxnet") << QStringLiteral("resnet") << 57.873;
    }
    void realSubmissions()
    {
        QFETCH(QString, system);
        QFETCH(QString, benchmark);
        QFETCH(double, expected);
        const std::string root = std::string(CLAB_SHARED_DIR) + "/reference/mlperf_results_sample";
        if (!std::filesystem::exists(root))
            QSKIP("the shared reference folder is absent");
        static ImportReport report;
        static QTemporaryDir dir;
        if (report.imported.empty()) {
            Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
            report = importPaths(s, {root});
            QVERIFY2(s.count(Table::Systems) == 6, report.toJson().dump(1).c_str());
        }
        const OrderedJson *e = entryFor(report, system.toStdString(), benchmark.toStdString());
        QVERIFY2(e, report.toJson().dump(1).c_str());
        const double got = (*e)["score_minutes"].get<double>();
        qInfo("%s %s: %.4f min (expected %.3f)", qPrintable(system), qPrintable(benchmark), got,
              expected);
        QVERIFY2(std::abs(got - expected) / expected <= 0.001, qPrintable(QString::number(got)));
    }
};

QTEST_APPLESS_MAIN(TestImportMlperf)
#include "tst_importmlperf.moc"
