#include "charts/builders.h"
#include "charts/storequery.h"
#include "store/import.h"
#include "store/sqlite.h"
#include "store/store.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace clab;
using namespace clab::charts;

// Series computed from a small store filled through the generic CSV importer; the expected
// numbers (means, errors, ideal line) are worked out by hand beside the rows.
class TestChartData : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void errorLabels_data();
    void errorLabels();
    void tttPairsAndErrors();
    void tttFoldsManyPairs();
    void filters();
    void scalingIdealLine();
    void breakdownFromStore();
    void breakdownFromPrediction();
    void heatmapAndBandwidth();
    void collectiveSeries();
    void csvExport();
    void refusesMissingStore();

private:
    QTemporaryDir m_dir;
    std::string m_db;
};

// Rack A resnet: measured 30 and 34 (mean 32), predicted 33.6: +5 %.
// Rack B resnet: measured 20, predicted 17: -15 %; its breakdown 10 + 4 + 2 + 1 = 17 min.
// Rack B bert: measured only, so no error label.
static const char runsCsv[]
    = "system,benchmark,metric,value,unit,kind,gpus,compute_min,communication_min,input_min,"
      "evaluation_min\n"
      "Rack A,resnet,time_to_train,30,min,measured,8,,,,\n"
      "Rack A,resnet,time_to_train,34,min,measured,8,,,,\n"
      "Rack A,resnet,time_to_train,33.6,min,predicted,8,,,,\n"
      "Rack B,resnet,time_to_train,20,min,measured,16,,,,\n"
      "Rack B,resnet,time_to_train,17,min,predicted,16,10,4,2,1\n"
      "Rack B,bert,time_to_train,50,min,measured,16,,,,\n"
      "Rack A,resnet,throughput,1000,images/s,measured,8,,,,\n";

void TestChartData::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const std::string csv = m_dir.filePath(QStringLiteral("runs.csv")).toStdString();
    std::ofstream(csv) << runsCsv;
    m_db = m_dir.filePath(QStringLiteral("store.sqlite")).toStdString();
    store::Store s(m_db);
    store::importPaths(s, {csv, CLAB_TEST_DATA "/import/p2p_bandwidth_latency.txt",
                           CLAB_TEST_DATA "/import/nccl_all_reduce.txt"});
}

void TestChartData::errorLabels_data()
{
    QTest::addColumn<double>("predicted");
    QTest::addColumn<double>("measured");
    QTest::addColumn<QString>("label");
    QTest::newRow("over") << 33.6 << 32.0 << QStringLiteral("+5 %");
    QTest::newRow("under") << 17.0 << 20.0 << QStringLiteral("-15 %");
    QTest::newRow("exact") << 10.0 << 10.0 << QStringLiteral("0 %");
    QTest::newRow("rounds") << 11.26 << 10.0 << QStringLiteral("+13 %");
    QTest::newRow("no measurement") << 10.0 << 0.0 << QString();
}

void TestChartData::errorLabels()
{
    QFETCH(double, predicted);
    QFETCH(double, measured);
    QFETCH(QString, label);
    QCOMPARE(QString::fromStdString(errorLabel(predicted, measured)), label);
}

void TestChartData::tttPairsAndErrors()
{
    StoreQuery q(m_db);
    const ChartData c = chartFromStore(q, ChartKind::Ttt, {});
    QCOMPARE(c.y.label, std::string("time to train (min)"));
    // Grouped by benchmark, the fastest first.
    QCOMPARE(c.categories,
             (std::vector<std::string>{"Rack B / bert", "Rack B / resnet", "Rack A / resnet"}));
    QVERIFY(!c.horizontal); // three short labels stand upright
    QCOMPARE(c.series.size(), std::size_t(2));
    QCOMPARE(c.series[0].kind, SeriesKind::Measured);
    QCOMPARE(c.series[0].values[0], 50.0);
    QCOMPARE(c.series[0].values[1], 20.0);
    QCOMPARE(c.series[0].values[2], 32.0);
    QVERIFY(std::isnan(c.series[1].values[0]));
    QCOMPARE(c.series[1].values[1], 17.0);
    QCOMPARE(c.series[1].values[2], 33.6);
    QCOMPARE(c.annotations.size(), std::size_t(2));
    QCOMPARE(c.annotations[0].text, std::string("-15 %"));
    QCOMPARE(c.annotations[1].text, std::string("+5 %"));
    QCOMPARE(c.annotations[1].x, 2.0);
    QCOMPARE(c.annotations[1].y, 33.6); // beyond the longer bar of the pair
    QVERIFY(!c.y.log);                  // 17 to 40 min: a linear axis
}

// 90 pairs in three benchmarks: each keeps its 12 fastest and one "others" bar at the medians of
// the other 18 (40 labels at most), and the bars lie flat.
void TestChartData::tttFoldsManyPairs()
{
    std::vector<RunPoint> runs;
    for (const char *benchmark : {"bert", "resnet", "ssd"}) {
        for (int i = 1; i <= 30; ++i) {
            RunPoint r;
            r.system = "system" + std::to_string(i);
            r.benchmark = benchmark;
            r.metric = "score";
            r.value = i;
            runs.push_back(r);
            r.measured = false;
            r.metric = "time_to_train";
            r.value = 2.0 * i;
            runs.push_back(r);
        }
    }
    const ChartData c = tttChart(runs);
    QCOMPARE(c.categories.size(), std::size_t(39));
    QVERIFY(c.categories.size() <= kMaxCategories);
    QVERIFY(c.horizontal);
    QCOMPARE(c.categories[0], std::string("system1 / bert"));
    QCOMPARE(c.categories[11], std::string("system12 / bert"));
    QCOMPARE(c.categories[12], std::string("others (18, median) / bert"));
    QCOMPARE(c.series[0].values[12], 21.5); // the median of 13..30
    QCOMPARE(c.series[1].values[12], 43.0);
    QCOMPARE(c.categories[25], std::string("others (18, median) / resnet"));
    QCOMPARE(c.notes.size(), std::size_t(1));
    QVERIFY(c.y.log); // 1 to 60 min: more than 30x, a log axis
}

void TestChartData::filters()
{
    StoreQuery q(m_db);
    store::RunFilter f;
    f.system = "rack a"; // a case-insensitive substring
    ChartData c = chartFromStore(q, ChartKind::Ttt, f);
    QCOMPARE(c.categories, std::vector<std::string>{"Rack A / resnet"});
    f = {};
    f.benchmark = "bert";
    QCOMPARE(chartFromStore(q, ChartKind::Ttt, f).categories.size(), std::size_t(1));
    f = {};
    f.kind = store::RunKind::Predicted;
    c = chartFromStore(q, ChartKind::Ttt, f);
    QCOMPARE(c.categories.size(), std::size_t(2));
    QVERIFY(std::isnan(c.series[0].values[0]));
    QVERIFY(c.annotations.empty());
    // Text that would break pasted SQL is only ever a bound value.
    f = {};
    f.system = "x' OR 1=1; --";
    QVERIFY(q.runs(f).empty());
}

void TestChartData::scalingIdealLine()
{
    StoreQuery q(m_db);
    store::RunFilter f;
    f.benchmark = "resnet";
    const ChartData c = scalingChart(q.runs(f));
    QCOMPARE(c.x.label, std::string("GPUs"));
    QVERIFY(c.x.log && c.y.log);
    QCOMPARE(c.series.size(), std::size_t(3));
    QCOMPARE(c.series[0].name, std::string("measured"));
    QCOMPARE(c.series[0].x, (std::vector<double>{8, 16}));
    QCOMPARE(c.series[0].values, (std::vector<double>{32, 20}));
    QCOMPARE(c.series[1].values, (std::vector<double>{33.6, 17}));
    // Linear speed-up from 32 min on 8 GPUs: 16 min on 16.
    QCOMPARE(c.series[2].kind, SeriesKind::Ideal);
    QCOMPARE(c.series[2].values, (std::vector<double>{32, 16}));
}

void TestChartData::breakdownFromStore()
{
    StoreQuery q(m_db);
    const ChartData c = chartFromStore(q, ChartKind::Breakdown, {});
    QVERIFY(c.stacked);
    QCOMPARE(c.categories, std::vector<std::string>{"Rack B / resnet"});
    QCOMPARE(c.series.size(), std::size_t(4));
    QCOMPARE(c.series[1].name, std::string("exposed communication"));
    QCOMPARE(c.series[0].values[0] + c.series[1].values[0] + c.series[2].values[0]
                 + c.series[3].values[0],
             17.0);
    QCOMPARE(c.annotations[0].text, std::string("17.0 min"));
}

void TestChartData::breakdownFromPrediction()
{
    perf::Prediction p;
    p.breakdownMin.compute = 20;
    p.breakdownMin.communication = 5;
    p.breakdownMin.input = 1.5;
    p.breakdownMin.evaluation = 0.5;
    p.timeToTrainMin = 27;
    perf::Prediction none; // no convergence table: no time to train
    const ChartData c = breakdownChart(std::vector<LabelledPrediction>{{"A", p}, {"B", none}});
    QCOMPARE(c.categories, std::vector<std::string>{"A"});
    QCOMPARE(c.series[2].values[0], 1.5);
    QCOMPARE(c.annotations[0].text, std::string("27.0 min"));
    QCOMPARE(c.notes.size(), std::size_t(1));
}

void TestChartData::heatmapAndBandwidth()
{
    StoreQuery q(m_db);
    const ChartData h = chartFromStore(q, ChartKind::Heatmap, {});
    QCOMPARE(h.matrix.rows, (std::vector<std::string>{"GPU0", "GPU1", "GPU2"}));
    // Unidirectional P2P=Enabled matrix of the file; the diagonal (local copies) is blank.
    QVERIFY(QString::fromStdString(h.title).contains(QStringLiteral("P2P=Enabled")));
    QCOMPARE(h.matrix.at(0, 1), 25.98);
    QCOMPARE(h.matrix.at(2, 0), 20.37);
    QVERIFY(std::isnan(h.matrix.at(1, 1)));

    const ChartData b = chartFromStore(q, ChartKind::Bandwidth, {});
    QCOMPARE(b.categories.size(), std::size_t(6)); // 3 x 2 directed pairs
    QCOMPARE(b.categories[0], std::string("GPU0->GPU1"));
    QCOMPARE(b.series[0].values[0], 25.98); // the enabled one-way peak, not bidirectional
    const std::vector<BandwidthPoint> model = {{"", "", "", "p2p", "GPU0", "GPU1", {}, 26.0}};
    const ChartData bm = bandwidthChart(q.bandwidth({}), model);
    QCOMPARE(bm.series.size(), std::size_t(2));
    QCOMPARE(bm.annotations.size(), std::size_t(1));
    QCOMPARE(bm.annotations[0].text, std::string("0 %"));
    // Only the filter's system counts for bandwidth: these tool outputs have none.
    store::RunFilter f;
    f.benchmark = "no such benchmark";
    QCOMPARE(q.bandwidth(f).size(), q.bandwidth({}).size());
    f.system = "rack";
    QVERIFY(q.bandwidth(f).empty());
}

void TestChartData::collectiveSeries()
{
    StoreQuery q(m_db);
    const ChartData c = chartFromStore(q, ChartKind::Collective, {});
    QVERIFY(c.x.log);
    QVERIFY(!c.series.empty());
    for (const Series &s : c.series) {
        QVERIFY(s.x.size() > 5);
        QVERIFY(std::is_sorted(s.x.begin(), s.x.end()));
    }
}

void TestChartData::csvExport()
{
    StoreQuery q(m_db);
    QCOMPARE(toCsv(chartFromStore(q, ChartKind::Ttt, {})),
             std::string("system / benchmark,measured [time to train (min)],"
                         "predicted [time to train (min)]\n"
                         "Rack B / bert,50,\n"
                         "Rack B / resnet,20,17\n"
                         "Rack A / resnet,32,33.6\n"));
    store::RunFilter f;
    f.benchmark = "resnet";
    QCOMPARE(toCsv(scalingChart(q.runs(f))),
             std::string("series,kind,GPUs,time to train (min)\n"
                         "measured,measured,8,32\nmeasured,measured,16,20\n"
                         "predicted,predicted,8,33.6\npredicted,predicted,16,17\n"
                         "ideal (linear),ideal,8,32\nideal (linear),ideal,16,16\n"));
    const std::string heat = toCsv(chartFromStore(q, ChartKind::Heatmap, {}));
    QVERIFY(heat.starts_with("from,to,bandwidth (GB/s)\nGPU0,GPU0,\nGPU0,GPU1,25.98\n"));
    ChartData quoted;
    quoted.categories = {"a, \"b\""};
    quoted.series = {{"s", SeriesKind::Measured, {0}, {1}}};
    QCOMPARE(toCsv(quoted), std::string("category,s []\n\"a, \"\"b\"\"\",1\n"));
}

void TestChartData::refusesMissingStore()
{
    const std::string missing = m_dir.filePath(QStringLiteral("missing.sqlite")).toStdString();
    QVERIFY_THROWS_EXCEPTION(store::StoreError, StoreQuery q(missing));
    QVERIFY(!QFile::exists(QString::fromStdString(missing))); // not created
    const std::string junk = m_dir.filePath(QStringLiteral("junk.sqlite")).toStdString();
    std::ofstream(junk) << "not a database at all, just some text that is long enough";
    QVERIFY_THROWS_EXCEPTION(store::StoreError, StoreQuery q(junk));
}

QTEST_APPLESS_MAIN(TestChartData)
#include "tst_chartdata.moc"
