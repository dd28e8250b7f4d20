// The Cluster view's numbers (model/cluster/comparison and topologyspec,
// model/charts/clustercharts): the reference families at the HammingMesh paper's two scales, the
// chart series built from reports, and topology specs.
#include "charts/clustercharts.h"
#include "cluster/comparison.h"
#include "cluster/generators.h"
#include "util/inputerror.h"

#include <QtTest>

#include <cmath>

using namespace clab;
using namespace clab::cluster;

class TestClusterCharts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void referenceScales();
    void referenceSizes_data();
    void referenceSizes();
    void labels();
    void allreduceSeries();
    void costPoints();
    void specs();
};

void TestClusterCharts::referenceScales()
{
    QCOMPARE(referenceScale(1), 1024);
    QCOMPARE(referenceScale(4096), 1024); // √(1024·16384): the boundary stays with 1k
    QCOMPARE(referenceScale(4097), 16384);
    QCOMPARE(referenceScale(16512), 16384);
}

void TestClusterCharts::referenceSizes_data()
{
    QTest::addColumn<int>("scale");
    QTest::addColumn<QList<qlonglong>>("accelerators");
    // Dragonfly: p·a·(a·h+1) = 4·8·33 = 1,056 and 8·16·129 = 16,512; the others exact.
    QTest::newRow("1k") << 1024 << QList<qlonglong>{1024, 1024, 1056, 1024, 1024, 1024, 1024};
    QTest::newRow("16k") << 16384
                         << QList<qlonglong>{16384, 16384, 16512, 16384, 16384, 16384, 16384};
}

void TestClusterCharts::referenceSizes()
{
    QFETCH(int, scale);
    QFETCH(QList<qlonglong>, accelerators);
    const auto specs = referenceTopologies(scale);
    QCOMPARE(specs.size(), std::size_t(7));
    for (std::size_t i = 0; i < specs.size(); ++i)
        QCOMPARE(qlonglong(acceleratorCount(specs[i].spec)), accelerators[qsizetype(i)]);
    QCOMPARE(specs[1].label, std::string("fat tree 2:1"));
    QCOMPARE(specs[1].spec.taper, 2);
}

void TestClusterCharts::labels()
{
    TopologySpec s;
    QCOMPARE(shortLabel(s), std::string("Hx2Mesh 16x16"));
    s.board = "2x4";
    QCOMPARE(shortLabel(s), std::string("HammingMesh 2x4 16x16"));
    s.kind = "fattree";
    s.endpoints = 512;
    s.taper = 4;
    QCOMPARE(shortLabel(s), std::string("fat tree 512 4:1"));
    s.kind = "hyperx";
    s.dims = "8x8";
    QCOMPARE(shortLabel(s), std::string("HyperX 8x8"));
}

void TestClusterCharts::allreduceSeries()
{
    // A 4×4 torus at two sizes: the series carry the report's points unchanged.
    const Topology t = torus({4, 4});
    const LabelledReport r{"t", reportOf(t, defaultPriceTable(), {1024, 1 << 20})};
    const charts::ChartData c = charts::allreduceChart({r, r}, "title");
    QCOMPARE(c.series.size(), std::size_t(2));
    QCOMPARE(c.series[0].name, std::string("t"));
    QCOMPARE(c.series[0].x, (std::vector<double>{1024, 1 << 20}));
    QCOMPARE(c.series[0].values[1], r.report.allreduce[1].GBps);
    QVERIFY(c.x.log && c.y.log);
    QCOMPARE(c.x.label, std::string("message size (bytes)"));
    // 1 MiB on a 4×4 torus: the torus algorithm, 12 steps of 80 ns and 3/4 of S over 50 GB/s,
    // beats two rings' 30 steps and 15/16 of S/2 (HammingMesh, SC22).
    const double S = 1 << 20;
    const double torusT = 4 * 3 * 80e-9 + 0.75 * S / 50e9;
    const double ringsT = 2 * 15 * 80e-9 + 15.0 / 16 * (S / 2) / 50e9;
    QVERIFY(std::abs(c.series[0].values[1] - S / std::min(torusT, ringsT) / 1e9) < 1e-9);
}

void TestClusterCharts::costPoints()
{
    const Topology t = torus({4, 4});
    const LabelledReport r{"torus", reportOf(t, defaultPriceTable(), chartMessageSizes())};
    LabelledReport empty{"none", {}};
    const charts::ChartData c = charts::costChart({r, empty}, "title", "USD");
    QCOMPARE(c.series.size(), std::size_t(1)); // a report without all-reduce points has none
    QCOMPARE(c.series[0].x, std::vector<double>{r.report.allreduce.back().GBps});
    // 32 copper links for 16 accelerators and no switches: two cables per accelerator.
    QCOMPARE(c.series[0].values, std::vector<double>{2 * defaultPriceTable().copperCable.usd});
    QCOMPARE(c.x.label, std::string("all-reduce bandwidth S/T per accelerator at 1 GiB (GB/s)"));
    QCOMPARE(c.y.label, std::string("network cost per accelerator (USD)"));
    QVERIFY(c.y.log && !c.x.log);
    QCOMPARE(chartMessageSizes().size(), std::size_t(21));
    QCOMPARE(chartMessageSizes().front(), 1024.0);
}

void TestClusterCharts::specs()
{
    TopologySpec s;
    s.board = "100000x100000";
    s.grid = "100000x100000";
    QCOMPARE(acceleratorCount(s), 1LL << 40); // held there: no overflow
    s.kind = "dragonfly";
    QCOMPARE(acceleratorCount(s), 4LL * 8 * 33);
    s.kind = "butterfly";
    QCOMPARE(acceleratorCount(s), 0LL);
    try {
        buildTopology(s);
        QFAIL("accepted");
    } catch (const InputError &e) {
        QCOMPARE(e.place(), std::string("kind"));
    }
    s.kind = "hammingmesh";
    s.board = "2x2x2";
    try {
        acceleratorCount(s);
        QFAIL("accepted");
    } catch (const InputError &e) {
        QCOMPARE(std::string(e.what()),
                 std::string("hammingmesh: board: expected AxB, got \"2x2x2\""));
    }
    s = TopologySpec{};
    QCOMPARE(buildTopology(s).accelerators, 1024);
}

QTEST_APPLESS_MAIN(TestClusterCharts)

#include "tst_clustercharts.moc"
