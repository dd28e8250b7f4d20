// Hostile numbers and text in the importers: NaN, infinities, negative and huge values where sizes,
// counts, batch sizes, times or bandwidths belong, device numbers beyond an int, a file over the
// size limit, deep JSON and Latin-1 bytes. Each is an InputError naming the file and line, and
// the store is left as it was.
#include "store/import.h"
#include "store/importmlperf.h"
#include "store/store.h"
#include "util/inputerror.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace clab;
using namespace clab::store;

namespace {

std::string fixture(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name;
}

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text with the `n`-th (1-based) line replaced.
std::string withLine(const std::string &text, int n, const std::string &line)
{
    std::istringstream in(text);
    std::string out, l;
    for (int i = 1; std::getline(in, l); ++i)
        out += (i == n ? line : l) + "\n";
    return out;
}

const char *kGenericHeader = "system,benchmark,metric,value,unit,global_batch_size\n";
const char *kMlperfHeader = "round,submitter,system,benchmark,minutes,global_batch_size\n";
const char *kThroughputHeader = "model,gpu,gpu_count,batch_size,throughput,unit\n";

} // namespace

class TestImportLimits : public QObject
{
    Q_OBJECT

    // Writes `text` as `name` in a fresh folder, imports it into a store that already holds the
    // generic fixture, and returns the InputError's message; the store must be unchanged.
    QString refused(const std::string &name, const std::string &text)
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        importPaths(s, {fixture("generic_runs.csv")});
        QString message = QStringLiteral("(accepted)");
        try {
            importPaths(s, {path});
        } catch (const InputError &e) {
            message = QString::fromStdString(e.what());
            if (!message.startsWith(QString::fromStdString(path + ": ")))
                message = QStringLiteral("(does not name the file) ") + message;
        } catch (const std::exception &e) {
            message = QStringLiteral("(not an InputError) ") + QString::fromUtf8(e.what());
        }
        if (s.count(Table::Sources) != 1 || s.count(Table::Runs) != 3
            || s.count(Table::Bandwidth) != 0)
            message = QStringLiteral("(the store changed) ") + message;
        return message;
    }

private Q_SLOTS:
    void csvNumbers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        auto generic = [](const char *row) {
            return QString::fromLatin1(kGenericHeader) + QString::fromLatin1(row);
        };
        QTest::newRow("value nan")
            << generic("a,resnet,time_to_train,nan,min,8")
            << QStringLiteral("line 2: column \"value\": \"nan\" is not a number");
        QTest::newRow("value inf")
            << generic("a,resnet,time_to_train,inf,min,8")
            << QStringLiteral("line 2: column \"value\": \"inf\" is not a number");
        QTest::newRow("value 1e999")
            << generic("a,resnet,time_to_train,1e999,min,8")
            << QStringLiteral("line 2: column \"value\": \"1e999\" is not a number");
        QTest::newRow("negative time")
            << generic("a,resnet,time_to_train,-3,min,8")
            << QStringLiteral("line 2: column \"value\": expected a value above 0 and up to 1e+15, "
                              "found -3");
        QTest::newRow("negative batch")
            << generic("a,resnet,time_to_train,3,min,-3")
            << QStringLiteral("line 2: column \"global_batch_size\": expected a batch size from 1 "
                              "to 1000000000, found -3");
        QTest::newRow("huge batch")
            << generic("a,resnet,time_to_train,3,min,1e300")
            << QStringLiteral("column \"global_batch_size\": expected a batch size from 1 to "
                              "1000000000, found 1e+300");
        QTest::newRow("fractional batch")
            << generic("a,resnet,time_to_train,3,min,2.5")
            << QStringLiteral("expected a batch size as a whole number, found 2.5");
        QTest::newRow("mlperf negative minutes")
            << QString::fromLatin1(kMlperfHeader) + QStringLiteral("v4.0,x,y,resnet,-3,8")
            << QStringLiteral("line 2: column \"minutes\": expected a time in minutes above 0");
        QTest::newRow("throughput inf")
            << QString::fromLatin1(kThroughputHeader)
                   + QStringLiteral("resnet50,A100,8,256,inf,img/s")
            << QStringLiteral("line 2: column \"throughput\": \"inf\" is not a number");
        QTest::newRow("throughput huge")
            << QString::fromLatin1(kThroughputHeader)
                   + QStringLiteral("resnet50,A100,8,256,1e300,img/s")
            << QStringLiteral("line 2: column \"throughput\": expected a throughput above 0");
        QTest::newRow("gpu count huge")
            << QString::fromLatin1(kThroughputHeader)
                   + QStringLiteral("resnet50,A100,1e300,256,10,img/s")
            << QStringLiteral(
                   "line 2: column \"gpu_count\": expected a GPU count from 1 to 1000000");
        QTest::newRow("batch with words, negative")
            << QString::fromLatin1(kThroughputHeader)
                   + QStringLiteral("bert,A100,8,-5 tokens,10,seq/s")
            << QStringLiteral("line 2: column \"batch_size\": expected a batch size from 1");
    }

    void csvNumbers()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QString message = refused("t.csv", text.toStdString() + "\n");
        QVERIFY2(message.contains(expected) && !message.startsWith(QLatin1Char('(')),
                 qPrintable(message));
    }

    void toolNumbers_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nccl negative busbw")
            << QStringLiteral("nccl_all_reduce.txt") << 18
            << QStringLiteral("           8             2     float     sum      -1    35.21    "
                              "0.00   -5.00      0    34.87    0.00    0.00      0")
            << QStringLiteral("line 18: column \"busbw\": expected a bandwidth in GB/s from 0");
        QTest::newRow("nccl huge size")
            << QStringLiteral("nccl_all_reduce.txt") << 18
            << QStringLiteral("       1e300             2     float     sum      -1    35.21    "
                              "0.00    0.00      0    34.87    0.00    0.00      0")
            << QStringLiteral("line 18: column \"size\": expected a size in bytes from 0 to 1e+15");
        QTest::newRow("nccl nan time")
            << QStringLiteral("nccl_all_reduce.txt") << 18
            << QStringLiteral("           8             2     float     sum      -1      nan    "
                              "0.00    0.00      0    34.87    0.00    0.00      0")
            << QStringLiteral("line 18: column \"time\": \"nan\" is not a number");
        // std::stoi threw std::out_of_range here, which escaped as "import: stoi".
        QTest::newRow("p2p device beyond int")
            << QStringLiteral("p2p_bandwidth_latency.txt") << 21
            << QStringLiteral("   D\\D     0      1      99999999999")
            << QStringLiteral(
                   "line 21: expected a device number from 0 to 4095, found 99999999999");
        QTest::newRow("p2p negative bandwidth")
            << QStringLiteral("p2p_bandwidth_latency.txt") << 22
            << QStringLiteral("     0 -1153.21  17.63  17.02")
            << QStringLiteral(
                   "line 22: expected a bandwidth in GB/s from 0 to 1000000, found -1153.21");
        QTest::newRow("bandwidthTest huge size")
            << QStringLiteral("bandwidth_test.txt") << 10 << QStringLiteral("   1e300\t\t\t25.6")
            << QStringLiteral("line 10: expected a size in bytes from 0 to 1e+15, found 1e+300");
        QTest::newRow("bandwidthTest negative")
            << QStringLiteral("bandwidth_test.txt") << 10
            << QStringLiteral("   32000000\t\t\t-25.6")
            << QStringLiteral(
                   "line 10: expected a bandwidth in GB/s from 0 to 1000000, found -25.6");
    }

    void toolNumbers()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, replacement);
        QFETCH(QString, expected);
        const std::string text = readAll(fixture(file.toUtf8().constData()));
        QVERIFY(!text.empty());
        const QString message
            = refused(file.toStdString(), withLine(text, line, replacement.toStdString()));
        QVERIFY2(message.contains(expected) && !message.startsWith(QLatin1Char('(')),
                 qPrintable(message));
    }

    void mlperfLogNumbers_data()
    {
        QTest::addColumn<QString>("record");
        QTest::addColumn<QString>("failure");
        QTest::newRow("epoch 1e300")
            << QStringLiteral("{\"key\": \"epoch_stop\", \"time_ms\": 5, \"value\": null, "
                              "\"metadata\": {\"epoch_num\": 1e300}}")
            << QStringLiteral("line 2: epoch_num 1e+300 is not an epoch number");
        QTest::newRow("negative batch")
            << QStringLiteral("{\"key\": \"global_batch_size\", \"time_ms\": 5, \"value\": -8}")
            << QStringLiteral("line 2: global_batch_size: expected a batch size from 1");
        QTest::newRow("huge batch")
            << QStringLiteral("{\"key\": \"global_batch_size\", \"time_ms\": 5, \"value\": 1e300}")
            << QStringLiteral("line 2: global_batch_size: expected a batch size");
        QTest::newRow("negative throughput")
            << QStringLiteral("{\"key\": \"throughput\", \"time_ms\": 5, \"value\": -1}")
            << QStringLiteral("line 2: throughput: expected a throughput above 0");
        QTest::newRow("deep metadata")
            << QStringLiteral("{\"key\": \"x\", \"time_ms\": 5, \"metadata\": ")
                   + QString(100000, QLatin1Char('[')) + QString(100000, QLatin1Char(']'))
                   + QLatin1Char('}')
            << QStringLiteral("line 2: malformed log record (not JSON)");
        QTest::newRow("a stop 10^9 years later")
            << QStringLiteral("{\"key\": \"y\", \"time_ms\": 5}")
            << QStringLiteral("run_stop - run_start: expected a time in minutes above 0 and up to "
                              "10000000, found 525960000000000");
    }

    void mlperfLogNumbers()
    {
        QFETCH(QString, record);
        QFETCH(QString, failure);
        const bool farStop = failure.startsWith(QStringLiteral("run_stop"));
        // 5.2596e+14 minutes = 3.15576e19 ms: 10^9 Julian years.
        const std::string stop = farStop ? "3.15576e19" : "60000";
        const std::string log
            = ":::MLLOG {\"key\": \"run_start\", \"time_ms\": 0, \"value\": null}\n:::MLLOG "
              + record.toStdString() + "\n:::MLLOG {\"key\": \"run_stop\", \"time_ms\": " + stop
              + ", \"value\": null, \"metadata\": {\"status\": \"success\"}}\n";
        const MlperfRun run = parseMlperfLog(log, "result_0.txt");
        QCOMPARE(QString::fromStdString(run.failure).left(failure.size()), failure);
    }

    void mlperfSystemFileTooDeep()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("systems")));
        const std::string path = dir.filePath(QStringLiteral("systems/deep.json")).toStdString();
        std::ofstream(path) << "{\"system_name\": " << std::string(100000, '[')
                            << std::string(100000, ']') << "}";
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        try {
            importPaths(s, {path});
            QFAIL("accepted");
        } catch (const InputError &e) {
            QVERIFY2(QString::fromStdString(e.what()).startsWith(
                         QString::fromStdString(path + ": line 1, column 80: nested more than 64")),
                     e.what());
        }
        QCOMPARE(s.count(Table::Systems), 0);
    }

    void scalingFactorRange()
    {
        QTemporaryDir dir;
        const QString bench = dir.filePath(QStringLiteral("results/box/resnet"));
        QVERIFY(QDir().mkpath(bench));
        const std::string from = fixture("mlperf/v9.9/Acme/results/box_8xA100/resnet/");
        for (const char *f : {"result_0.txt", "result_1.txt"})
            std::ofstream((bench + QLatin1Char('/') + QLatin1String(f)).toStdString())
                << readAll(from + f);
        std::ofstream((bench + QStringLiteral("/scaling.json")).toStdString())
            << "{\"scaling_factor\": 1e300}";
        // Inside a folder a bad submission is skipped with its reason, not thrown.
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport r = importPaths(s, {bench.toStdString()});
        QCOMPARE(r.skipped.size(), std::size_t(1));
        QVERIFY2(
            QString::fromStdString(r.skipped[0].reason)
                .endsWith(QStringLiteral("scaling.json: at /scaling_factor: expected a scaling "
                                         "factor above 0 and up to 100, found 1e+300")),
            r.skipped[0].reason.c_str());
        QCOMPARE(s.count(Table::Runs), 0);
    }

    void fileOverTheLimit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.csv"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.write(kGenericHeader) > 0);
            QVERIFY(f.resize(qint64(300) << 20)); // sparse: no disk used, refused before reading
        }
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        try {
            importPaths(s, {path.toStdString()});
            QFAIL("accepted");
        } catch (const InputError &e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     path
                         + QStringLiteral(": is 300 MB; a file read by ComposeLab may be at most "
                                          "256 MB"));
        }
        QCOMPARE(s.count(Table::Sources), 0);
    }

    void latin1IsRefusedWithItsPlace()
    {
        // Before the check, nlohmann's dump() threw type_error 316 ("invalid UTF-8 byte") from the
        // middle of the import, with no file or line.
        const QString message
            = refused("latin1.csv", std::string(kMlperfHeader)
                                        + "v4.0,x,y,resnet,3,8\nv4.0,Soci\xE9t\xE9,y,bert,4,8\n");
        QVERIFY2(message.endsWith(QStringLiteral(
                     "latin1.csv: line 3, column 10: not UTF-8 text (byte 0xE9); save the file as "
                     "UTF-8 and import it again")),
                 qPrintable(message));
    }
};

QTEST_APPLESS_MAIN(TestImportLimits)
#include "tst_importlimits.moc"
