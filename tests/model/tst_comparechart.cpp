// The charts of a study: its variants compared side by side, and its scaling curves, by
// hand-worked runs.
#include "charts/builders.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

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

    void benchmarksSideBySidePastFortyBars()
    {
        // The seed study's shape: 12 variants of 4 benchmarks are 48 bars. Each variant becomes a
        // group with a bar per benchmark, its total relative to the benchmark's first variant.
        std::vector<RunPoint> runs;
        for (const char *b : {"A", "B", "C", "D"})
            for (int i = 0; i < 12; ++i)
                if (std::string(b) != "D" || i != 5) // D lacks v5
                    runs.push_back(
                        point("s", ("v" + std::to_string(i)).c_str(), b, {2.0 * (i + 1), 1, 1, 0}));
        const ChartData c = compareChart(runs);
        QCOMPARE(c.kind, ChartKind::Compare);
        QVERIFY(!c.stacked);
        QCOMPARE(c.categories.size(), std::size_t(12));
        QCOMPARE(c.categories[11], std::string("v11"));
        QCOMPARE(c.series.size(), std::size_t(4));
        QCOMPARE(c.series[3].name, std::string("D"));
        // v3: 8 + 2 = 10 min against v0's 2 + 2 = 4 min.
        QCOMPARE(c.series[0].values[3], 2.5);
        QCOMPARE(c.series[3].values[0], 1.0);
        QVERIFY(std::isnan(c.series[3].values[5]));
        QVERIFY(c.horizontal);
        QVERIFY(!c.notes.empty()
                && c.notes.front().find("4 benchmarks x 12 variants") != std::string::npos);
        // A point that differs only in what runs do not record (the software stack) keeps its
        // own bar.
        runs.push_back(point("s", "v0", "A", {8, 0, 0, 0}));
        const ChartData twice = compareChart(runs);
        // A's two v0 points say their batch and precision, and the second is numbered.
        QCOMPARE(twice.categories.size(), std::size_t(14));
        const auto second = std::find(twice.categories.begin(), twice.categories.end(),
                                      std::string("v0 (batch ?, ) #2"));
        QVERIFY(second != twice.categories.end());
        QCOMPARE(twice.series[0].values[std::size_t(second - twice.categories.begin())],
                 2.0); // 8 min against v0's 4
    }

    void oneBenchmarkInMinutesAndWholeBenchmarksLeftOut()
    {
        // 41 variants of A and 11 of B: not even the variants fit one axis, so B is left out.
        std::vector<RunPoint> runs;
        for (int i = 0; i < 30; ++i)
            runs.push_back(
                point("s", ("v" + std::to_string(i)).c_str(), "A", {double(i + 1), 0, 0, 0}));
        for (int i = 30; i < 41; ++i)
            runs.push_back(point("s", ("w" + std::to_string(i)).c_str(), "B", {1, 0, 0, 0}));
        const ChartData both = compareChart(runs);
        QCOMPARE(both.categories.size(), std::size_t(30)); // B would pass 40 bars
        QVERIFY(both.stacked);
        QVERIFY(!both.notes.empty()
                && both.notes.back().find("B (11 variants)") != std::string::npos);
        runs.resize(30);
        const ChartData one = compareChart(runs);
        QCOMPARE(one.y.label, std::string("time to train (min)"));
        QCOMPARE(one.series[0].values[29], 30.0); // minutes, not relative
        QVERIFY(one.horizontal);
        QVERIFY(one.notes.empty());
    }

    void scalingKeepsStudyVariantsApart()
    {
        // A study's local and pooled variants are separate curves over the GPU count, not one
        // mean per count; "x 2 nodes" counts into the GPUs, not into the variant.
        std::vector<RunPoint> runs;
        const auto add = [&runs](const char *system, int gpus, double minutes) {
            RunPoint r = point("s", system, "A", {minutes, 0, 0, 0});
            r.gpus = gpus;
            r.value = minutes;
            runs.push_back(r);
        };
        add("local 1x G", 1, 80);
        add("local 2x G", 2, 40);
        add("pooled 1x G, 1 uplink", 1, 82);
        add("pooled 2x G, 1 uplink", 2, 44);
        add("pooled 4x G, 1 uplink x 2 nodes", 8, 12);
        RunPoint measured = runs.front();
        measured.measured = true;
        measured.study.clear();
        measured.value = 90;
        runs.push_back(measured);
        // An older study's points stay out of it.
        RunPoint older = point("old", "local 16x G", "A", {5, 0, 0, 0});
        older.gpus = 16;
        older.value = 5;
        runs.insert(runs.begin(), older);
        const ChartData c = scalingChart(runs);
        QVERIFY(!c.notes.empty()
                && c.notes.back().find("1 points of older studies left out") != std::string::npos);
        QCOMPARE(c.series.size(), std::size_t(4));
        QCOMPARE(c.series[0].name, std::string("measured"));
        QCOMPARE(c.series[1].name, std::string("local predicted")); // G goes to the title
        QVERIFY(c.title.find(", all G") != std::string::npos);
        QCOMPARE(c.series[1].values, (std::vector<double>{80, 40}));
        QCOMPARE(c.series[2].name, std::string("pooled, 1 uplink predicted"));
        QCOMPARE(c.series[2].x, (std::vector<double>{1, 2, 8}));
        QCOMPARE(c.series[2].values, (std::vector<double>{82, 44, 12}));
        QCOMPARE(c.series[3].kind, SeriesKind::Ideal); // from the measured 90 min on 1 GPU
        QCOMPARE(c.series[3].values, (std::vector<double>{90, 45, 11.25}));
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
