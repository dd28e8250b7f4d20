// The parity chart: predictions paired with the measurements they predict, by hand-worked runs.
#include "charts/builders.h"

#include <QtTest>

#include <cmath>

using namespace clab::charts;

namespace {

RunPoint run(const char *system, const char *benchmark, const char *metric, double value,
             bool measured, const char *round = "1.0")
{
    RunPoint r;
    r.system = system;
    r.benchmark = benchmark;
    r.metric = metric;
    r.value = value;
    r.unit = std::string(metric) == "throughput" ? "images/s" : "min";
    r.measured = measured;
    r.round = round;
    return r;
}

const Series *named(const ChartData &c, const std::string &prefix)
{
    for (const Series &s : c.series)
        if (s.name.rfind(prefix, 0) == 0)
            return &s;
    return nullptr;
}

} // namespace

class TestParity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void errorBoxes();
    // A: score 10, predicted 11 (+10 %); B: 20 against its newest prediction 16 (-20 %); C:
    // time_to_train runs of 28
    // and 32 (30) against 33 (+10 %). D has no measurement; A's round-2.0 prediction has none.
    void pairsAndErrors()
    {
        const std::vector<RunPoint> runs
            = {run("A", "resnet", "score", 10, true),
               run("A", "resnet", "time_to_train", 11, false),
               run("A", "resnet", "time_to_train", 9, false, "2.0"),
               run("B", "resnet", "score", 20, true),
               run("B", "resnet", "time_to_train", 40, false), // replaced by the newer one
               run("B", "resnet", "time_to_train", 16, false),
               run("C", "bert", "time_to_train", 28, true),
               run("C", "bert", "time_to_train", 32, true),
               run("C", "bert", "time_to_train", 33, false),
               run("D", "bert", "time_to_train", 5, false)};
        const ChartData c = parityChart(runs);
        QCOMPARE(c.kind, ChartKind::Parity);
        QVERIFY(c.x.log && c.y.log);
        QCOMPARE(c.x.label, std::string("measured time to train (min)"));
        QCOMPARE(c.title,
                 std::string("Predicted against measured: 3 matched runs, median error 10 %"));
        const Series *bert = named(c, "bert");
        QVERIFY(bert);
        QCOMPARE(bert->name, std::string("bert (1, median error 10 %)"));
        QCOMPARE(bert->x, std::vector<double>{30});
        QCOMPARE(bert->values, std::vector<double>{33});
        const Series *resnet = named(c, "resnet");
        QVERIFY(resnet);
        QCOMPARE(resnet->name, std::string("resnet (2, median error 15 %)"));
        QCOMPARE(resnet->x, (std::vector<double>{10, 20}));
        QCOMPARE(resnet->values, (std::vector<double>{11, 16}));
        QCOMPARE(c.notes.size(), std::size_t(1));
        QVERIFY2(c.notes[0].rfind("2 measured or predicted runs", 0) == 0, c.notes[0].c_str());
        // The bands span the points (10 to 33) with room, y = x first.
        const Series *diagonal = named(c, "predicted = measured");
        QVERIFY(diagonal);
        QCOMPARE(diagonal->kind, SeriesKind::Ideal);
        QVERIFY(diagonal->x.front() < 10 && diagonal->x.back() > 33);
        QCOMPARE(diagonal->values, diagonal->x);
        int bands = 0;
        for (const Series &s : c.series) {
            if (s.name == "±10 %" || s.name == "±25 %") {
                ++bands;
                const double ratio = s.values.front() / s.x.front();
                QVERIFY(std::abs(ratio - 1.1) < 1e-9 || std::abs(ratio - 1 / 1.1) < 1e-9
                        || std::abs(ratio - 1.25) < 1e-9 || std::abs(ratio - 0.8) < 1e-9);
            }
        }
        QCOMPARE(bands, 4);
    }

    // Throughput pairs when no time to train is paired; "AMP" and "fp16" are one precision,
    // TF32 another, and the batch tells apart the rows of one system.
    void throughputByPrecisionAndBatch()
    {
        std::vector<RunPoint> runs;
        auto add = [&](const char *precision, int batch, double value, bool measured) {
            RunPoint r = run("DGX A100", "ResNet-50", "throughput", value, measured, "");
            r.precision = precision;
            r.globalBatch = batch;
            runs.push_back(r);
        };
        add("AMP", 256, 1000, true);
        add("fp16", 256, 1100, false);
        add("TF32", 256, 500, true);
        add("fp16", 2048, 8000, false);
        const ChartData c = parityChart(runs);
        QCOMPARE(c.y.label, std::string("predicted throughput (samples/s)"));
        const Series *s = named(c, "ResNet-50");
        QVERIFY(s);
        QCOMPARE(s->x, std::vector<double>{1000});
        QCOMPARE(s->values, std::vector<double>{1100});
        QVERIFY2(c.notes.at(0).rfind("2 measured or predicted runs", 0) == 0, c.notes[0].c_str());
    }

    void nothingMatched()
    {
        const ChartData c = parityChart({run("A", "resnet", "score", 10, true)});
        QCOMPARE(c.title, std::string("Predicted against measured: 0 matched runs"));
        QVERIFY(c.series.empty());
        QCOMPARE(c.notes.size(), std::size_t(1));
    }
};

// Five resnet pairs with errors -20, -10, 0, +10 and +50 %: P10 -16, quartiles -10 and 10, median
// 0, P90 34 (linear interpolation between order statistics), -20 and +50 beyond the whiskers. One
// bert pair at +25 %; a prediction without its measurement is counted in the notes.
void TestParity::errorBoxes()
{
    const std::vector<RunPoint> runs = {
        run("A", "resnet", "score", 10, true),      run("A", "resnet", "time_to_train", 8, false),
        run("B", "resnet", "score", 10, true),      run("B", "resnet", "time_to_train", 9, false),
        run("C", "resnet", "score", 10, true),      run("C", "resnet", "time_to_train", 10, false),
        run("D", "resnet", "score", 10, true),      run("D", "resnet", "time_to_train", 11, false),
        run("E", "resnet", "score", 10, true),      run("E", "resnet", "time_to_train", 15, false),
        run("F", "bert", "score", 40, true),        run("F", "bert", "time_to_train", 50, false),
        run("G", "bert", "time_to_train", 5, false)};
    const ChartData c = errorChart(runs);
    QCOMPARE(c.kind, ChartKind::Error);
    QCOMPARE(c.categories, (std::vector<std::string>{"bert (1)", "resnet (5)"}));
    QCOMPARE(c.boxes.size(), std::size_t(2));
    const Box &r = c.boxes[1];
    QCOMPARE(r.count, std::size_t(5));
    QCOMPARE(r.p10, -16.0);
    QCOMPARE(r.q1, -10.0);
    QCOMPARE(r.median, 0.0);
    QCOMPARE(r.q3, 10.0);
    QCOMPARE(r.p90, 34.0);
    QCOMPARE(r.outliers, (std::vector<double>{-20.0, 50.0}));
    QCOMPARE(c.boxes[0].median, 25.0);
    QVERIFY(c.boxes[0].outliers.empty());
    QVERIFY2(c.title.find("6 matched runs") != std::string::npos, c.title.c_str());
    QCOMPARE(c.notes.size(), std::size_t(1));
    QVERIFY(!c.empty());
    const std::string csv = toCsv(c);
    QVERIFY2(csv.rfind("benchmark,count,p10,q1,median,q3,p90\nbert (1),1,25,25,25,25,25\n", 0) == 0,
             csv.c_str());
    QVERIFY(errorChart({run("A", "resnet", "score", 10, true)}).empty());
}

QTEST_APPLESS_MAIN(TestParity)
#include "tst_parity.moc"
