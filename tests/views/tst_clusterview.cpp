// The Cluster view (issue 6): pick a topology, see its metrics beside the other families' and
// the two charts; bad parameters give a message; a design's cluster can be shown.
#include "catalog/catalog.h"
#include "cluster/allreduce.h"
#include "cluster/cost.h"
#include "design/examples.h"
#include "fabric/analysis.h"
#include "views/charts/chartwidget.h"
#include "views/cluster/clusterview.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace clab;
using views::ClusterView;

namespace {

// The published bounds the model uses (HammingMesh, SC22, α = 80 ns, B = 50 GB/s a link):
// two rings T = 2(N−1)α + ((N−1)/N)(S/2)/B; torus algorithm T = 4(k−1)α + ((k−1)/k)S/B.
constexpr double kAlpha = 80e-9, kLink = 50e9;
double twoRingsGBps(double bytes, double n)
{
    return bytes / (2 * (n - 1) * kAlpha + (n - 1) / n * (bytes / 2) / kLink) / 1e9;
}
double torusGBps(double bytes, double k)
{
    return bytes / (4 * (k - 1) * kAlpha + (k - 1) / k * bytes / kLink) / 1e9;
}

QString cell(const ClusterView &v, int row, int column)
{
    const QTableWidgetItem *item = v.metricsTable()->item(row, column);
    return item ? item->text() : QString();
}

// Applies `change` and waits until the view shows its result (computed on a worker thread).
template<typename Change>
bool settle(ClusterView &v, Change change)
{
    QSignalSpy spy(&v, &ClusterView::updated);
    change();
    return QTest::qWaitFor([&] { return spy.count() > 0 && !v.busy(); }, 120'000);
}

} // namespace

class TestClusterView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultsToHx2Mesh1k();
    void changingTopologyChangesTableAndCharts();
    void largerTopologyComparesAt16k();
    void badParametersGiveAMessage_data();
    void badParametersGiveAMessage();
    void showsADesignsCluster();
    void exportsChartAndData();
    void placementTabForHammingMeshOnly();
};

void TestClusterView::defaultsToHx2Mesh1k()
{
    ClusterView v;
    QVERIFY(settle(v, [] {}));
    QVERIFY(v.report());
    // Hx2Mesh of 16×16 boards (hand-counted in tst_topocli): 1,024 accelerators, 64 switches,
    // 1,024 board traces, 2,048 copper links.
    QCOMPARE(cell(v, 0, 0), QStringLiteral("1,024"));
    QCOMPARE(cell(v, 1, 0), QStringLiteral("64"));
    QCOMPARE(cell(v, 2, 0), QStringLiteral("1,024"));
    QCOMPARE(cell(v, 3, 0), QStringLiteral("2,048"));
    // The chosen topology and seven families at ~1k; the charts draw the chosen one last.
    QCOMPARE(v.metricsTable()->columnCount(), 8);
    QCOMPARE(v.metricsTable()->horizontalHeaderItem(0)->text(),
             QStringLiteral("this: Hx2Mesh 16x16"));
    QCOMPARE(v.metricsTable()->horizontalHeaderItem(1)->text(), QStringLiteral("fat tree"));
    QCOMPARE(cell(v, 0, 3), QStringLiteral("1,056")); // Dragonfly: 33 groups of 8 routers × 4

    const charts::ChartData &a = v.allreduceChart()->chart();
    QCOMPARE(a.series.size(), std::size_t(8));
    QCOMPARE(a.series.back().name, std::string("this: Hx2Mesh 16x16"));
    QCOMPARE(a.series.back().x.size(), std::size_t(21)); // 1 KiB to 1 GiB
    QCOMPARE(a.series.back().x.back(), std::ldexp(1.0, 30));
    QVERIFY(std::abs(a.series.back().values.back() / twoRingsGBps(std::ldexp(1.0, 30), 1024) - 1)
            < 1e-12);
    QCOMPARE(v.allreduceChart()->graphCount(), 8);

    const charts::ChartData &c = v.costChart()->chart();
    QCOMPARE(c.series.size(), std::size_t(8));
    for (const auto &s : c.series)
        QCOMPARE(s.values.size(), std::size_t(1)); // one point per topology
    QCOMPARE(c.series.back().x[0], a.series.back().values.back());
    QCOMPARE(c.series.back().values[0], v.report()->costPerAccelerator);
}

void TestClusterView::changingTopologyChangesTableAndCharts()
{
    ClusterView v;
    QVERIFY(settle(v, [] {}));
    const double hammingMeshSmall = v.allreduceChart()->chart().series.back().values.front();
    auto *kind = v.findChild<QComboBox *>();
    QVERIFY(kind);
    QVERIFY(settle(v, [&] { kind->setCurrentIndex(kind->findData(QStringLiteral("torus"))); }));
    QVERIFY(v.report());
    QCOMPARE(v.report()->kind, std::string("torus"));
    QCOMPARE(cell(v, 0, 0), QStringLiteral("1,024"));
    QCOMPARE(cell(v, 1, 0), QStringLiteral("0"));  // the accelerators are the routers
    QCOMPARE(cell(v, 5, 0), QStringLiteral("32")); // diameter of a 32×32 torus: 16 + 16
    const charts::Series &s = v.allreduceChart()->chart().series.back();
    QCOMPARE(s.name, std::string("this: torus 32x32"));
    // At 1 KiB the torus algorithm's 124 steps beat two rings' 2,046; at 1 GiB two rings'
    // double bandwidth wins.
    const double small = std::max(torusGBps(1024, 32), twoRingsGBps(1024, 1024));
    QVERIFY(std::abs(s.values.front() / small - 1) < 1e-12);
    // 0.103 against the Hx2Mesh's two rings at 0.0063 GB/s (1,024 B over 2,046 steps of 80 ns).
    QVERIFY(s.values.front() > 10 * hammingMeshSmall);
    QVERIFY(std::abs(s.values.back() / twoRingsGBps(std::ldexp(1.0, 30), 1024) - 1) < 1e-12);
    // A torus has no switches: its cost is its 2 copper links per accelerator.
    QCOMPARE(v.costChart()->chart().series.back().values[0],
             2 * cluster::defaultPriceTable().copperCable.usd);
}

void TestClusterView::largerTopologyComparesAt16k()
{
    ClusterView v;
    cluster::TopologySpec s;
    s.kind = "hammingmesh";
    s.board = "4x4";
    s.grid = "32x32";
    QVERIFY(settle(v, [&] { v.setSpec(s); }));
    QCOMPARE(cell(v, 0, 0), QStringLiteral("16,384"));
    QCOMPARE(cell(v, 0, 1), QStringLiteral("16,384")); // the fat tree at the 16k scale
    QCOMPARE(cell(v, 0, 3), QStringLiteral("16,512")); // Dragonfly p=8 a=16 h=8, 129 groups
    QCOMPARE(v.metricsTable()->horizontalHeaderItem(0)->text(),
             QStringLiteral("this: Hx4Mesh 32x32"));
    QVERIFY(QString::fromStdString(v.allreduceChart()->chart().title)
                .contains(QLatin1String("16,384")));
}

void TestClusterView::badParametersGiveAMessage_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("grid");
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("levels");
    QTest::addColumn<QString>("message");
    QTest::newRow("odd radix") << "hammingmesh"
                               << "16x16" << 5 << 0
                               << "hammingmesh: radix: expected an even switch radix";
    QTest::newRow("zero grid") << "hammingmesh"
                               << "0x4" << 64 << 0 << "hammingmesh: grid: expected positive sizes";
    QTest::newRow("3d grid") << "hammingmesh"
                             << "4x4x4" << 64 << 0 << "hammingmesh: grid: expected XxY";
    QTest::newRow("too big") << "hammingmesh"
                             << "128x128" << 64 << 0
                             << "65,536 accelerators: this view draws networks of up to 20,000";
    QTest::newRow("one level") << "fattree"
                               << "16x16" << 64 << 1
                               << "fattree: levels: 1024 endpoints need more than 1 level(s)";
}

void TestClusterView::badParametersGiveAMessage()
{
    QFETCH(QString, kind);
    QFETCH(QString, grid);
    QFETCH(int, radix);
    QFETCH(int, levels);
    QFETCH(QString, message);
    ClusterView v;
    QVERIFY(settle(v, [] {}));
    cluster::TopologySpec s;
    s.kind = kind.toStdString();
    s.grid = grid.toStdString();
    s.radix = radix;
    s.levels = levels;
    QVERIFY(settle(v, [&] { v.setSpec(s); }));
    QVERIFY2(v.message().contains(message), qPrintable(v.message()));
    QVERIFY(!v.report());
    // The families stay for comparison; the chosen topology is gone from table and charts.
    QCOMPARE(v.metricsTable()->columnCount(), 7);
    QCOMPARE(v.allreduceChart()->chart().series.size(), std::size_t(7));
    // And good parameters bring it back.
    QVERIFY(settle(v, [&] { v.setSpec(cluster::TopologySpec{}); }));
    QVERIFY(v.report());
    QCOMPARE(v.metricsTable()->columnCount(), 8);
}

void TestClusterView::showsADesignsCluster()
{
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    for (const design::Example &e : design::bundledExamples()) {
        const design::Design d = design::readDesign(e.text, e.fileName);
        const fabric::Analysis a = fabric::analyze(d, cat);
        ClusterView v;
        QVERIFY(settle(v, [] {}));
        if (!d.cluster) {
            QVERIFY(!v.showDesignCluster(d, a));
            QVERIFY(v.message().contains(QLatin1String("no cluster")));
            continue;
        }
        // cluster-dgx-a100-fattree.clab: 64 nodes of 8 GPUs on a 2:1 fat tree.
        bool shown = false;
        QVERIFY(settle(v, [&] { shown = v.showDesignCluster(d, a); }));
        QVERIFY(shown);
        QCOMPARE(v.spec().kind, std::string("fattree"));
        QCOMPARE(v.spec().endpoints, 512);
        QCOMPARE(v.spec().taper, 2);
        QVERIFY(v.report());
        QCOMPARE(v.report()->structure.accelerators, 512LL);
        QCOMPARE(v.metricsTable()->horizontalHeaderItem(0)->text(),
                 QStringLiteral("this: fat tree 512 2:1"));
    }
}

void TestClusterView::exportsChartAndData()
{
    ClusterView v;
    v.resize(900, 700);
    QVERIFY(settle(v, [] {}));
    QTemporaryDir dir;
    QString error;
    const QString png = dir.filePath(QStringLiteral("c.png"));
    QVERIFY2(v.exportTo(png, 96, &error), qPrintable(error));
    QVERIFY(QImage(png).width() > 100);
    const QString svg = dir.filePath(QStringLiteral("c.svg"));
    QVERIFY2(v.exportTo(svg, 96, &error), qPrintable(error));
    QVERIFY(QFileInfo(svg).size() > 1000);
    const QString csv = dir.filePath(QStringLiteral("c.csv"));
    QVERIFY2(v.exportTo(csv, 96, &error), qPrintable(error));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.front(), QByteArray("series,kind,message size (bytes),all-reduce bandwidth S/T "
                                       "per accelerator (GB/s)"));
    QCOMPARE(lines.size(), 1 + 8 * 21);
    QVERIFY(!v.exportTo(dir.filePath(QStringLiteral("c.gif")), 96, &error));
    QVERIFY(error.contains(QLatin1String("unknown format")));
}

void TestClusterView::placementTabForHammingMeshOnly()
{
    // Hx4Mesh 32×32 is one of the paper's systems: the tab shows the three policies against
    // 0, 25, 50, 75, 100 faulty boards and the paper's three published points. A torus has no
    // boards to place jobs on: the tab hides.
    ClusterView v;
    cluster::TopologySpec s;
    s.kind = "hammingmesh";
    s.board = "4x4";
    s.grid = "32x32";
    QVERIFY(settle(v, [&] { v.setSpec(s); }));
    auto *tabs = v.findChild<QTabWidget *>();
    QVERIFY(tabs);
    const int tab = tabs->indexOf(v.placementChart());
    QVERIFY(tabs->isTabVisible(tab));
    const charts::ChartData &c = v.placementChart()->chart();
    QCOMPARE(c.kind, charts::ChartKind::Placement);
    QCOMPARE(c.series.size(), std::size_t(4));
    QCOMPARE(c.series[0].x, (std::vector<double>{0, 25, 50, 75, 100}));
    QCOMPARE(c.series[3].x, (std::vector<double>{0, 50, 100}));
    QCOMPARE(c.series[3].values[0], 99.97); // the paper's Hx4Mesh 32x32, sorted, no faults
    for (const charts::Series &series : c.series) {
        for (double u : series.values)
            QVERIFY(u > 0 && u <= 100);
    }
    // Sub-meshes place at least as much as contiguous blocks at every fault level here.
    for (std::size_t i = 0; i < c.series[0].values.size(); ++i)
        QVERIFY(c.series[0].values[i] >= c.series[1].values[i]);
    tabs->setCurrentIndex(tab);
    QCOMPARE(v.currentChart(), v.placementChart());

    s.kind = "torus";
    QVERIFY(settle(v, [&] { v.setSpec(s); }));
    QVERIFY(!tabs->isTabVisible(tab));
}

QTEST_MAIN(TestClusterView)

#include "tst_clusterview.moc"
