// The compare chart: a study's variants side by side, by hand-worked runs.
#include "charts/builders.h"

#include <QtTest>

using namespace clab::charts;

namespace {

RunPoint point(const char *study, const char *system, const char *benchmark,
               std::array<double, 4> parts, bool epoch = false)
{
    RunPoint r;
    r.system = system;
    r.benchmark = benchmark;
    r.metric = epoch ? "throughput" : "time_to_train";
    r.measured = false;
    r.study = study;
    r.breakdownMin = parts;
    r.breakdownOfEpoch = epoch;
    return r;
}

} // namespace

class TestCompareChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void variantsRelativeToTheFirst()
    {
        std::vector<RunPoint> runs = {
            point("old", "local 1x G", "A", {1, 0, 0, 0}),
            point("s", "local 1x G", "A", {8, 1, 1, 0}),
            point("s", "pooled 2x G, 1 uplink", "A", {4, 0.5, 0.5, 0}),
            point("s", "local 1x G", "B", {2, 0, 0, 0}, true),
            point("s", "pooled 2x G, 1 uplink", "B", {1, 0, 1, 0}, true),
        };
        RunPoint measured = runs[1];
        measured.measured = true;
        runs.push_back(measured);
        const ChartData c = compareChart(runs);
        QCOMPARE(c.kind, ChartKind::Compare);
        QVERIFY(c.stacked);
        // The shared word G goes to the title; the comma it carried stays.
        QCOMPARE(c.categories,
                 (std::vector<std::string>{"local 1x / A", "pooled 2x, 1 uplink / A",
                                           "local 1x / B", "pooled 2x, 1 uplink / B"}));
        QVERIFY(c.title.find("all G") != std::string::npos);
        QVERIFY(c.title.rfind("s: ", 0) == 0);
        // Relative to each benchmark's first variant: A 10 min and 5 min, B 2 and 2 min/epoch.
        QCOMPARE(c.series.size(), std::size_t(4));
        QCOMPARE(c.series[0].values, (std::vector<double>{0.8, 0.4, 1.0, 0.5}));
        QCOMPARE(c.series[2].values, (std::vector<double>{0.1, 0.05, 0.0, 0.5}));
        QCOMPARE(c.annotations.size(), std::size_t(4));
        QCOMPARE(c.annotations[0].text, std::string("10.0 min"));
        QCOMPARE(c.annotations[1].text, std::string("5.00 min"));
        QCOMPARE(c.annotations[3].text, std::string("2.00 min/epoch"));
        QCOMPARE(c.annotations[3].y, 1.0);
        QCOMPARE(c.notes.size(), std::size_t(1)); // two studies: the newest is shown
        QVERIFY(c.notes[0].find("2 studies") != std::string::npos);
    }

    void oneBenchmarkInMinutesAndWholeBenchmarksLeftOut()
    {
        std::vector<RunPoint> runs;
        for (int i = 0; i < 30; ++i)
            runs.push_back(
                point("s", ("v" + std::to_string(i)).c_str(), "A", {double(i + 1), 0, 0, 0}));
        for (int i = 0; i < 11; ++i)
            runs.push_back(point("s", ("v" + std::to_string(i)).c_str(), "B", {1, 0, 0, 0}));
        const ChartData both = compareChart(runs);
        QCOMPARE(both.categories.size(), std::size_t(30)); // B would pass 40 bars
        QVERIFY(!both.notes.empty()
                && both.notes.back().find("B (11 variants)") != std::string::npos);
        runs.resize(30);
        const ChartData one = compareChart(runs);
        QCOMPARE(one.y.label, std::string("time to train (min)"));
        QCOMPARE(one.series[0].values[29], 30.0); // minutes, not relative
        QVERIFY(one.horizontal);
        QVERIFY(one.notes.empty());
    }

    void noStudy()
    {
        const ChartData c = compareChart({});
        QVERIFY(c.categories.empty());
        QVERIFY(c.notes.front().find("composelab study") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCompareChart)
#include "tst_comparechart.moc"
