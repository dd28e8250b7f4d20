#include "store/predictedruns.h"
#include "store/store.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace clab::store;

// A design's predictions kept as predicted runs: stored once, marked as predictions, with the
// system's design attached.
class TestPredictedRuns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savesOnce()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const PredictedSystem system{"A: 4 GPUs", R"({"host":"hostA"})",
                                     "{\"formatVersion\": 1}\n"};
        const std::vector<PredictedRun> runs = {
            {"resnet", "fp16", 1632, 67.7, 11070.4, R"({"step_time_s":0.147})"},
            {"gpt3", "bf16", 1536, std::nullopt, 12.5,
             "{}"}, // no convergence table: throughput only
        };
        QCOMPARE(savePredictions(s, "seed.clab", system, runs), 3);
        QCOMPARE(savePredictions(s, "seed.clab", system, runs), 0);
        QCOMPARE(s.count(Table::Runs), std::int64_t(3));
        QCOMPARE(s.count(Table::Sources), std::int64_t(1));
        const auto stored = s.runs("resnet");
        QCOMPARE(stored.size(), std::size_t(2));
        for (const StoredRun &r : stored) {
            QVERIFY(!r.run().measured);
            QCOMPARE(r.system, std::string("A: 4 GPUs"));
            QCOMPARE(r.sourcePath, std::string("seed.clab"));
            QCOMPARE(r.run().globalBatch.value_or(0), std::int64_t(1632));
        }
        const bool hasTtt = std::any_of(stored.begin(), stored.end(), [](const StoredRun &r) {
            return r.run().metric == "time_to_train" && r.run().value == 67.7
                   && r.run().unit == "min";
        });
        QVERIFY(hasTtt);

        // A different batch is a different prediction.
        auto other = runs;
        other[0].globalBatch = 3264;
        QCOMPARE(savePredictions(s, "seed.clab", system, other), 3);
        QCOMPARE(s.count(Table::Runs), std::int64_t(6));
    }
};

QTEST_APPLESS_MAIN(TestPredictedRuns)
#include "tst_predictedruns.moc"
