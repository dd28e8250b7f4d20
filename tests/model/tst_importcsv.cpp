#include "store/import.h"
#include "store/store.h"
#include "util/inputerror.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace clab;
using namespace clab::store;

namespace {

std::string fixture(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name;
}

std::string reference(const char *name)
{
    return std::string(CLAB_SHARED_DIR) + "/reference/" + name;
}

} // namespace

class TestImportCsv : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void generic()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport r = importPaths(s, {fixture("generic_runs.csv")});
        QCOMPARE(r.imported.size(), std::size_t(1));
        QCOMPARE(r.imported[0]["kind"].get<std::string>(), std::string("generic_csv"));
        const auto runs = s.runs();
        QCOMPARE(runs.size(), std::size_t(3));
        // Quotes and an SQL comment in a name are data, stored and read back verbatim.
        QCOMPARE(runs[0].system, std::string("rack \"A\" o'brien'); DROP TABLE runs; --"));
        QCOMPARE(runs[0].run().tags, std::string("[\"lab\",\"pcie\"]"));
        QCOMPARE(Json::parse(runs[0].run().details)["notes"].get<std::string>(),
                 std::string("first try, cold cache"));
        QCOMPARE(runs[0].run().place, std::string("line 2"));
        QCOMPARE(runs[1].run().unit, std::string("min"));
        QCOMPARE(runs[1].run().measured, false);
        QCOMPARE(runs[2].run().value, 23512.5);
        QCOMPARE(s.count(Table::Systems), 2);
    }

    void badLastRowLeavesStoreAsBefore()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        importPaths(s, {fixture("generic_runs.csv")});
        try {
            importPaths(s, {fixture("bandwidth_test.txt"), fixture("generic_bad_last_row.csv")});
            QFAIL("accepted a bad row");
        } catch (const InputError &e) {
            QVERIFY2(std::string(e.what()).find(
                         "generic_bad_last_row.csv: line 4: column \"value\": \"twenty\"")
                         != std::string::npos,
                     e.what());
        }
        QCOMPARE(s.count(Table::Runs), 3);
        QCOMPARE(s.count(Table::Bandwidth), 0);
        QCOMPARE(s.count(Table::Sources), 1);
    }

    void referenceTables_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("rows");
        // The repository's copies (datasets/, fewer columns) in every checkout; the shared
        // reference tables where they are.
        const QString datasets = QStringLiteral(COMPOSELAB_SOURCE_DIR "/datasets/");
        QTest::newRow("datasets mlperf") << datasets + QStringLiteral("mlperf_training_results.csv")
                                         << QStringLiteral("mlperf_csv") << 712;
        QTest::newRow("datasets throughput") << datasets + QStringLiteral("training_throughput.csv")
                                             << QStringLiteral("throughput_csv") << 361;
        const QString shared = QString::fromStdString(reference(""));
        QTest::newRow("mlperf") << shared + QStringLiteral("mlperf_training_calibration.csv")
                                << QStringLiteral("mlperf_csv") << 712;
        QTest::newRow("throughput") << shared + QStringLiteral("throughput_calibration.csv")
                                    << QStringLiteral("throughput_csv") << 361;
    }
    void referenceTables()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(int, rows);
        const std::string path = file.toStdString();
        if (!std::filesystem::exists(path))
            QSKIP("the shared reference folder is absent");
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport r = importPaths(s, {path});
        QCOMPARE(QString::fromStdString(r.imported.at(0)["kind"].get<std::string>()), kind);
        QCOMPARE(int(s.count(Table::Runs)) + int(r.skipped.size()), rows);
        QCOMPARE(int(s.count(Table::Runs)), rows);
        const auto runs = s.runs();
        if (kind == QStringLiteral("mlperf_csv")) {
            // First data row: v0.6 Fujitsu abci_2048xV100_mxnet resnet, 1.174 min.
            QCOMPARE(runs[0].run().value, 1.174);
            QCOMPARE(runs[0].system, std::string("abci_2048xV100_mxnet"));
            QCOMPARE(runs[0].run().round, std::string("0.6"));
        } else {
            // DeepLearningExamples give the per-GPU batch: 8 GPUs × 256 = 2048 global.
            QCOMPARE(runs[2].run().value, 7248.0);
            QCOMPARE(runs[2].run().globalBatch.value_or(0), 2048);
        }
        // Re-import: nothing new.
        importPaths(s, {path});
        QCOMPARE(int(s.count(Table::Runs)), rows);
    }

    // The bulk path imports 100,000 generated runs, every one of them (its speed is measured by
    // `composelab bench`: import_100k).
    void hundredThousandRuns()
    {
        QTemporaryDir dir;
        const std::string big = dir.filePath(QStringLiteral("runs.csv")).toStdString();
        {
            std::ofstream out(big);
            out << "system,benchmark,metric,value,unit,global_batch_size,precision,date,tags\n";
            for (int i = 0; i < 100000; ++i)
                out << "system " << i % 50 << ",resnet,time_to_train," << 20 + (i % 997) * 0.01
                    << ",min," << 256 * (1 + i % 8) << ",fp16,2024-01-0" << 1 + i % 9 << ",gen\n";
        }
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        importPaths(s, {big});
        QCOMPARE(s.count(Table::Runs), std::int64_t(100000));
        QCOMPARE(s.count(Table::Systems), std::int64_t(50));
    }
};

QTEST_APPLESS_MAIN(TestImportCsv)
#include "tst_importcsv.moc"
