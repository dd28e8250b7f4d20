// Scale-out topologies (model/cluster): hand-counted structure of every generator, max-flow
// against closed-form bisection, the HammingMesh paper's reference sizes and formulas, and
// placement.
#include "cluster/allreduce.h"
#include "cluster/cost.h"
#include "cluster/generators.h"
#include "cluster/metrics.h"
#include "cluster/placement.h"
#include "cluster/placementstudy.h"
#include "cluster/report.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <numeric>

using namespace clab;
using namespace clab::cluster;

namespace {

using Build = std::function<Topology()>;

long long links(const Structure &s, LinkKind k)
{
    return s.links[std::size_t(k)];
}

} // namespace

Q_DECLARE_METATYPE(Build)

class TestCluster : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void smallShapes_data();
    void smallShapes();
    void diameterFromSourcesMatchesAllPairs_data();
    void diameterFromSourcesMatchesAllPairs();
    void referenceSizes_data();
    void referenceSizes();
    void globalBandwidthFractions_data();
    void globalBandwidthFractions();
    void allreduceFormulas();
    void allreduceLimits();
    void hierarchicalMatchesRingOnNonblockingTree();
    void badParameters_data();
    void badParameters();
    void priceTable();
    void placementByHand();
    void placementWithFaults();
    void sortedBeatsGreedy();
    void placementStudy();
    void benchBodiesRun();
};

void TestCluster::smallShapes_data()
{
    QTest::addColumn<Build>("build");
    QTest::addColumn<int>("accelerators");
    QTest::addColumn<int>("switches"); // all planes
    QTest::addColumn<int>("board");
    QTest::addColumn<int>("copper");
    QTest::addColumn<int>("optical");
    QTest::addColumn<int>("diameter");
    QTest::addColumn<int>("bisectionLinks"); // one plane, the closed form; max-flow must agree

    // Fat tree N=8, R=4: leaves of 2 down/2 up, 4 leaves, ⌈4·2/4⌉ = 2 spines; ×4 planes.
    QTest::newRow("fattree 8 r4") << Build([] {
        return fatTree({8, 4, 1, 0});
    }) << 8 << 24 << 0 << 32 << 32 << 4
                                  << 4;
    // One switch joins 4; the cut is the smaller side's 2 links.
    QTest::newRow("fattree 4 r4") << Build([] {
        return fatTree({4, 4, 1, 0});
    }) << 4 << 4 << 0 << 16 << 0 << 2
                                  << 2;
    // N=16 > R·d = 8: three levels. 8 leaves, 4 pods × 2 aggregation, 2 core groups × 2 = 20.
    QTest::newRow("fattree 16 r4") << Build([] {
        return fatTree({16, 4, 1, 0});
    }) << 16 << 80 << 0 << 64 << 128
                                   << 6 << 8;
    // Taper 2 on radix 6: u = 2, d = 4; 4 leaves, ⌈4·2/6⌉ = 2 spines; cut = 2 leaves × 2 up.
    QTest::newRow("fattree 16 r6 t2") << Build([] {
        return fatTree({16, 6, 2, 0});
    }) << 16 << 24 << 0 << 64 << 32 << 4
                                      << 4;
    // Rail: 4 servers of 2, radix 4: 2 leaves a rail (2 servers each), 4 leaves, 2 spines.
    QTest::newRow("rail 4x2 r4") << Build([] {
        return railFatTree({4, 2, 4});
    }) << 8 << 24 << 0 << 32 << 32
                                 << 4 << 4;
    // 4×4 torus: 2 links a node, diameter 2+2, 4 rings cut twice.
    QTest::newRow("torus 4x4") << Build([] {
        return torus({4, 4});
    }) << 16 << 0 << 0 << 32 << 0
                               << 4 << 8;
    QTest::newRow("torus 3x4") << Build([] {
        return torus({3, 4});
    }) << 12 << 0 << 0 << 24 << 0
                               << 3 << 6;
    // 3×3×3: 3 links a node, diameter 1+1+1, 9 rings of 3 cut twice.
    QTest::newRow("torus 3x3x3") << Build([] {
        return torus({3, 3, 3});
    }) << 27 << 0 << 0 << 81 << 0 << 3
                                 << 18;
    // HyperX 3×3: 9 routers ×4 planes; 3 rows and 3 columns of 3 links; acc-r-r-r-acc.
    QTest::newRow("hyperx 3x3") << Build([] {
        return hyperX({3, 3});
    }) << 9 << 36 << 0 << 36 << 72
                                << 4 << 3;
    QTest::newRow("hyperx 4x4") << Build([] {
        return hyperX({4, 4});
    }) << 16 << 64 << 0 << 64 << 4 * 48
                                << 4 << 8;
    // Dragonfly p=1 a=2 h=1: 3 groups, 6 routers, 3 local and 3 global links; diameter 5.
    QTest::newRow("dragonfly 1,2,1") << Build([] {
        return dragonfly({1, 2, 1, 0});
    }) << 6 << 24 << 0 << 4 * 9 << 4 * 3
                                     << 5 << 2;
    // p=2 a=4 h=2: 9 groups, 36 routers; copper 72 + 9·6, optical C(9,2) = 36; 4 groups × 5.
    QTest::newRow("dragonfly 2,4,2") << Build([] {
        return dragonfly({2, 4, 2, 0});
    }) << 72 << 144 << 0 << 4 * 126 << 4 * 36
                                     << 5 << 20;
    // Hx2Mesh 2×2 boards: 4 board links a board; 4 row + 4 column trees of 4 ports, 1 switch
    // each; two tree hops reach anything.
    QTest::newRow("hx2 2x2") << Build([] {
        return hammingMesh({2, 2, 2, 2, 64});
    }) << 16 << 8 << 16 << 32 << 0
                             << 4 << 8;
    // Hx4Mesh 2×2 boards: 24 board links a board, 8 row and 8 column trees of 4 ports. Worst:
    // an inner accelerator to an inner one on the diagonal board: 1 to an edge, a row tree (2),
    // ≤ 2 across the middle board to a column edge, a column tree (2), 1 in: 8.
    QTest::newRow("hx4 2x2") << Build([] {
        return hammingMesh({4, 4, 2, 2, 64});
    }) << 64 << 16 << 96 << 64
                             << 0 << 8 << 16;
    // 1×3 boards in a 3×2 grid: odd x, so the cut is across the 2 board columns: a·x row trees
    // (1·3) each cut at its 2 of 4 ports.
    QTest::newRow("hm 1x3 3x2") << Build([] {
        return hammingMesh({1, 3, 3, 2, 64});
    }) << 18 << 9 << 12 << 48 << 0
                                << 6 << 6;
    // Row trees of 2y = 8 ports on radix-4 switches: 4 edges + 2 cores each.
    QTest::newRow("hx2 2x4 r4") << Build([] {
        return hammingMesh({2, 2, 2, 4, 4});
    }) << 32 << 4 * 6 + 8 << 32 << 4 * 8 + 8 * 4
                                << 4 * 8 << 6 << 16;
}

void TestCluster::smallShapes()
{
    QFETCH(Build, build);
    const Topology t = build();
    const Structure s = structureOf(t);
    QFETCH(int, accelerators);
    QFETCH(int, switches);
    QFETCH(int, board);
    QFETCH(int, copper);
    QFETCH(int, optical);
    QFETCH(int, diameter);
    QFETCH(int, bisectionLinks);
    QCOMPARE(s.accelerators, (long long)accelerators);
    QCOMPARE(s.switches, (long long)switches);
    QCOMPARE(links(s, LinkKind::BoardTrace), (long long)board);
    QCOMPARE(links(s, LinkKind::Copper), (long long)copper);
    QCOMPARE(links(s, LinkKind::Optical), (long long)optical);
    QCOMPARE(cluster::diameter(t), diameter);
    QCOMPARE(t.bisectionLinksClosedForm, double(bisectionLinks));
    QCOMPARE(maxFlowCutLinks(t), double(bisectionLinks));
    QVERIFY(s.switchPortsUsed <= s.switchPortsTotal);
}

void TestCluster::diameterFromSourcesMatchesAllPairs_data()
{
    QTest::addColumn<Build>("build");
    QTest::newRow("fattree 3-level") << Build([] { return fatTree({64, 8, 1, 0}); });
    QTest::newRow("fattree tapered") << Build([] { return fatTree({60, 8, 3, 0}); });
    QTest::newRow("torus 5x6x3") << Build([] { return torus({5, 6, 3}); });
    QTest::newRow("hyperx 5x4") << Build([] { return hyperX({5, 4}); });
    QTest::newRow("dragonfly") << Build([] { return dragonfly({2, 4, 2, 0}); });
    QTest::newRow("dragonfly g=5") << Build([] { return dragonfly({2, 4, 2, 5}); });
    QTest::newRow("hx4 3x5") << Build([] { return hammingMesh({4, 4, 3, 5, 64}); });
    QTest::newRow("hx2 4x4 r4") << Build([] { return hammingMesh({2, 2, 4, 4, 4}); });
}

// What the large instances rely on: BFS from the symmetry classes' representatives gives the
// same diameter as BFS from every accelerator.
void TestCluster::diameterFromSourcesMatchesAllPairs()
{
    QFETCH(Build, build);
    const Topology t = build();
    QCOMPARE(diameter(t, 0), diameter(t, 1 << 30));
}

void TestCluster::referenceSizes_data()
{
    QTest::addColumn<int>("a");
    QTest::addColumn<int>("x");
    QTest::addColumn<int>("accelerators");
    QTest::addColumn<int>("switches");
    QTest::addColumn<int>("board");
    QTest::addColumn<int>("copper");
    QTest::addColumn<int>("optical");
    QTest::addColumn<double>("bisectionLinks");
    // The HammingMesh paper's rule with radix 64. Hx2 16×16: 32 row + 32 column trees of 32 ports,
    // one switch each; 256 boards × 4 board links.
    QTest::newRow("Hx2 16x16") << 2 << 16 << 1024 << 64 << 1024 << 2048 << 0 << 512.0;
    // Hx2 64×64: 256 trees of 128 ports: 4 edge + ⌈4·32/64⌉ = 2 core switches each.
    QTest::newRow("Hx2 64x64") << 2 << 64 << 16384 << 1536 << 16384 << 32768 << 32768 << 8192.0;
    // Hx4 8×8: 64 trees of 16 ports; 64 boards × 24 board links.
    QTest::newRow("Hx4 8x8") << 4 << 8 << 1024 << 64 << 1536 << 1024 << 0 << 256.0;
    // Hx4 32×32: 256 trees of exactly 64 ports, still one switch each.
    QTest::newRow("Hx4 32x32") << 4 << 32 << 16384 << 256 << 24576 << 16384 << 0 << 4096.0;
}

void TestCluster::referenceSizes()
{
    QFETCH(int, a);
    QFETCH(int, x);
    const Topology t = hammingMesh({a, a, x, x, 64});
    const Structure s = structureOf(t);
    QTEST(int(s.accelerators), "accelerators");
    QTEST(int(s.switches), "switches");
    QTEST(int(links(s, LinkKind::BoardTrace)), "board");
    QTEST(int(links(s, LinkKind::Copper)), "copper");
    QTEST(int(links(s, LinkKind::Optical)), "optical");
    // b·y column trees cut at x ports each (a = b, x = y).
    QTEST(t.bisectionLinksClosedForm, "bisectionLinks");
    QCOMPARE(s.switchPortsUsed, links(s, LinkKind::Copper) + 2 * links(s, LinkKind::Optical));
    if (t.accelerators <= 1024)
        QCOMPARE(maxFlowCutLinks(t), t.bisectionLinksClosedForm);
}

void TestCluster::globalBandwidthFractions_data()
{
    QTest::addColumn<Build>("build");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<QString>("limit");
    // HammingMesh, SC22: (a+b)·B/(a·b) of 4B injection: Hx2 25 %, Hx4 12.5 %.
    QTest::newRow("Hx2 16x16") << Build([] {
        return hammingMesh({2, 2, 16, 16, 64});
    }) << 0.25 << QStringLiteral("off-board links");
    QTest::newRow("Hx4 8x8") << Build([] {
        return hammingMesh({4, 4, 8, 8, 64});
    }) << 0.125 << QStringLiteral("off-board links");
    QTest::newRow("Hx2 64x64") << Build([] {
        return hammingMesh({2, 2, 64, 64, 64});
    }) << 0.25 << QStringLiteral("off-board links");
    QTest::newRow("Hx4 32x32") << Build([] {
        return hammingMesh({4, 4, 32, 32, 64});
    }) << 0.125 << QStringLiteral("off-board links");
    // k×k torus: 8B/k of 4B, i.e. 2/k.
    QTest::newRow("torus 32x32") << Build([] {
        return torus({32, 32});
    }) << 2.0 / 32 << QStringLiteral("bisection");
    QTest::newRow("torus 8x8") << Build([] {
        return torus({8, 8});
    }) << 2.0 / 8 << QStringLiteral("bisection");
    QTest::newRow("torus 128x128") << Build([] {
        return torus({128, 128});
    }) << 2.0 / 128 << QStringLiteral("bisection");
    // Nonblocking fat tree: full injection.
    QTest::newRow("fattree 1024") << Build([] {
        return fatTree({1024, 64, 1, 0});
    }) << 1.0 << QStringLiteral("injection");
    // 2:1 at the leaf (42 down, 21 up): half, a little more as a leaf's own traffic stays.
    QTest::newRow("fattree 1024 t2") << Build([] {
        return fatTree({1024, 64, 2, 0});
    }) << 0.5 * 1023 / (1024 - 42) << QStringLiteral("leaf up-links");
}

void TestCluster::globalBandwidthFractions()
{
    QFETCH(Build, build);
    QFETCH(double, fraction);
    QFETCH(QString, limit);
    const Topology t = build();
    const Alltoall a = alltoall(t, bisection(t));
    QCOMPARE(a.GBps / t.injectionGBps(), fraction);
    QCOMPARE(QString::fromStdString(a.limit), limit);
}

void TestCluster::allreduceFormulas()
{
    const double B = 50e9; // 400 Gb/s
    QCOMPARE(alphaSeconds(1), 80e-9);
    // Torus algorithm, 32×32, 1 MiB: 4·31·80 ns + (31/32)·2^20 B / 50 GB/s.
    const double S = 1048576;
    QCOMPARE(torusAllreduceSeconds(S, 32, B), 4 * 31 * 80e-9 + 31.0 / 32 * S / B);
    QCOMPARE(torusAllreduceSeconds(S, 32, B), 9.92e-6 + 20.31616e-6);
    // Two rings, N = 1024, 1 MiB: 2·1023·80 ns + (1023/1024)·(S/2)/B = 163.68 + 10.47552 us.
    QCOMPARE(twoRingsAllreduceSeconds(S, 1024, B), 163.68e-6 + 10.475520e-6);
    // The model picks the faster: on a 32×32 torus the torus algorithm at 1 MiB, two rings at
    // 1 GiB (their bandwidth terms are S·31/32/B against S/2·1023/1024/B).
    const Topology t = torus({32, 32});
    QCOMPARE(QString::fromStdString(allreduce(t, S).algorithm), QStringLiteral("torus"));
    QCOMPARE(QString::fromStdString(allreduce(t, 1 << 30).algorithm), QStringLiteral("two rings"));
    const Topology hm = hammingMesh({2, 2, 16, 16, 64});
    QCOMPARE(allreduce(hm, S).seconds, twoRingsAllreduceSeconds(S, 1024, B));
}

void TestCluster::allreduceLimits()
{
    const double B = 50e9;
    // Large messages: the torus algorithm tends to one link (B·k/(k−1)), two rings to two links.
    const double huge = 1e15;
    QVERIFY(std::abs(huge / torusAllreduceSeconds(huge, 32, B) / (B * 32 / 31) - 1) < 1e-6);
    QVERIFY(std::abs(huge / twoRingsAllreduceSeconds(huge, 1024, B) / (2 * B * 1024 / 1023) - 1)
            < 1e-6);
    // Tiny messages: latency only, 4(k−1)α and 2(N−1)α.
    QVERIFY(std::abs(torusAllreduceSeconds(1, 32, B) / (4 * 31 * 80e-9) - 1) < 1e-3);
    QVERIFY(std::abs(twoRingsAllreduceSeconds(1, 1024, B) / (2 * 1023 * 80e-9) - 1) < 1e-3);
}

void TestCluster::hierarchicalMatchesRingOnNonblockingTree()
{
    // Bandwidth terms: (d−1)/d + (E−1)/(E·d) = (N−1)/N, so a nonblocking tree's hierarchical
    // all-reduce moves data like one ring per plane: 2(N−1)/N·S/(4B), the two-ring rate.
    const Topology t = fatTree({1024, 64, 1, 0});
    const double S = 1e12;
    const double bw = 2.0 * 1023 / 1024 * S / t.injectionGBps() / 1e9;
    QVERIFY(std::abs(allreduce(t, S).seconds / bw - 1) < 1e-4);
    // 2:1 taper: the inter-leaf shards go at half rate: (d−1)/d + 2·(E−1)/(E·d) with d = 42.
    const Topology tapered = fatTree({1024, 64, 2, 0});
    const double d = 42, E = 25; // ⌈1024/42⌉ leaves
    const double expect = 2 * ((d - 1) / d + 2 * (E - 1) / (E * d)) * S / 200e9;
    QVERIFY(std::abs(allreduce(tapered, S).seconds / expect - 1) < 1e-4);
}

void TestCluster::badParameters_data()
{
    QTest::addColumn<Build>("build");
    QTest::addColumn<QString>("place");
    QTest::newRow("fattree too big") << Build([] {
        return fatTree({100000, 16, 1, 0});
    }) << QStringLiteral("endpoints");
    QTest::newRow("fattree levels") << Build([] {
        return fatTree({100, 16, 1, 1});
    }) << QStringLiteral("levels");
    QTest::newRow("fattree odd radix") << Build([] {
        return fatTree({10, 15, 1, 0});
    }) << QStringLiteral("radix");
    QTest::newRow("fattree taper") << Build([] {
        return fatTree({10, 16, 0, 0});
    }) << QStringLiteral("taper");
    QTest::newRow("torus 2") << Build([] { return torus({2, 8}); }) << QStringLiteral("dims");
    QTest::newRow("torus 4D") << Build([] {
        return torus({3, 3, 3, 3});
    }) << QStringLiteral("dims");
    QTest::newRow("hyperx 1D") << Build([] { return hyperX({8}); }) << QStringLiteral("dims");
    QTest::newRow("dragonfly groups") << Build([] {
        return dragonfly({2, 4, 2, 10});
    }) << QStringLiteral("groups");
    QTest::newRow("hm board") << Build([] {
        return hammingMesh({0, 2, 4, 4, 64});
    }) << QStringLiteral("board");
    // 2y = 4096 ports: more than the 64·32 two levels of radix 64 reach.
    QTest::newRow("hm grid") << Build([] {
        return hammingMesh({2, 2, 4, 2048, 64});
    }) << QStringLiteral("grid");
    QTest::newRow("rail servers") << Build([] {
        return railFatTree({1024, 8, 64});
    }) << QStringLiteral("servers");
    QTest::newRow("dims text") << Build([] { return torus(parseDims("4by4", "torus", "dims")); })
                               << QStringLiteral("dims");
}

void TestCluster::badParameters()
{
    QFETCH(Build, build);
    QFETCH(QString, place);
    try {
        build();
        QFAIL("no error");
    } catch (const InputError &e) {
        QCOMPARE(QString::fromStdString(e.place()), place);
        QVERIFY2(e.message().find("expected") != std::string::npos
                     || e.message().find("at most") != std::string::npos,
                 e.what());
    }
}

void TestCluster::priceTable()
{
    // The shipped table reads, and every price names its source.
    const PriceTable &p = defaultPriceTable();
    QVERIFY(!p.switchPort.source.empty() && !p.opticalCable.source.empty());
    // Cost of the Hx2 16×16 by hand: 64 switches × 64 ports, 2048 copper, 1024 board links.
    const PriceTable t = readPriceTable(
        R"({"prices": {"switch_port": {"usd": 1, "source": "s"},
                       "copper_cable": {"usd": 10, "source": "s"},
                       "optical_cable": {"usd": 100, "source": "s"},
                       "board_link": {"usd": 1000, "source": "s"}}})",
        "p.json");
    const Cost c = costOf(structureOf(hammingMesh({2, 2, 16, 16, 64})), t);
    QCOMPARE(c.total(), 64.0 * 64 + 2048 * 10 + 0 * 100 + 1024 * 1000);
    // A missing source and an unknown key are refused with the JSON pointer.
    try {
        readPriceTable(R"({"prices": {"switch_port": {"usd": 1}}})", "p.json");
        QFAIL("no error");
    } catch (const InputError &e) {
        QCOMPARE(QString::fromStdString(e.place()), QStringLiteral("at /prices/switch_port"));
        QVERIFY2(e.message().find("source") != std::string::npos, e.what());
    }
    try {
        readPriceTable(R"({"prices": {"switch_port": {"usd": 1, "source": "s", "usd2": 3}}})",
                       "p.json");
        QFAIL("no error");
    } catch (const InputError &e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("usd2")), e.what());
    }
}

void TestCluster::placementByHand()
{
    // 4×4 grid: four 4-board jobs are four 2×2 blocks; 3-board jobs also take 2×2 (1×3 is longer
    // than 2:1), so four of them use 12 of 16 boards.
    QCOMPARE(placeJobs(4, 4, {4, 4, 4, 4}, PlacementPolicy::Greedy).utilisation(), 1.0);
    const auto three = placeJobs(4, 4, {3, 3, 3, 3}, PlacementPolicy::Greedy);
    QCOMPARE(three.placedJobs, 4);
    QCOMPARE(three.allocatedBoards, 16LL);
    QCOMPARE(three.utilisation(), 0.75);
    // FIFO greedy stops at the 16-board job after the 2-board one took a row; sorted places the
    // 16 first and nothing else fits.
    QCOMPARE(placeJobs(4, 4, {2, 16, 1}, PlacementPolicy::Greedy).utilisation(), 2.0 / 16);
    QCOMPARE(placeJobs(4, 4, {2, 16, 1}, PlacementPolicy::Sorted).utilisation(), 1.0);
    const auto shapes = blockShapes(6, 8, 8);
    QCOMPARE(shapes.front(), std::make_pair(2, 3));
}

void TestCluster::placementWithFaults()
{
    // Board (0,0) faulty: 2×2 blocks fit at (0,2), (2,0), (2,2) only; 12 of 15 healthy boards.
    std::vector<std::uint8_t> faulty(16, 0);
    faulty[0] = 1;
    for (auto policy : {PlacementPolicy::Greedy, PlacementPolicy::Sorted}) {
        const auto r = placeJobs(4, 4, {4, 4, 4, 4}, policy, faulty);
        QCOMPARE(r.healthyBoards, 15LL);
        QCOMPARE(r.placedJobs, 3);
        QCOMPARE(r.utilisation(), 12.0 / 15);
        for (const Block &b : r.blocks)
            QVERIFY(!(b.row == 0 && b.col == 0));
    }
}

void TestCluster::sortedBeatsGreedy()
{
    // Seeded trace-like queues as large as the grid, with and without 2 % faulty boards: the
    // sorted heuristic never places less than FIFO greedy here, and on average clearly more.
    double greedySum = 0, sortedSum = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const auto faults
            = seed % 2 ? std::vector<std::uint8_t>{} : randomFaults(16, 16, 0.02, seed);
        const auto jobs = traceJobSizes(256, 64, seed);
        const double g = placeJobs(16, 16, jobs, PlacementPolicy::Greedy, faults).utilisation();
        const double s = placeJobs(16, 16, jobs, PlacementPolicy::Sorted, faults).utilisation();
        QVERIFY2(
            s >= g,
            qPrintable(QStringLiteral("seed %1: sorted %2 < greedy %3").arg(seed).arg(s).arg(g)));
        greedySum += g;
        sortedSum += s;
    }
    QVERIFY(sortedSum > greedySum + 0.5); // 20 runs: ≥ 2.5 points better on average
    // Same seed, same queue.
    QCOMPARE(traceJobSizes(256, 64, 7), traceJobSizes(256, 64, 7));
}

void TestCluster::placementStudy()
{
    // A given queue, sorted only, no faults: one run. Five 4-board jobs on 4×4: four 2×2 blocks
    // fill the grid, the fifth and the 1-board job after it find no room.
    PlacementStudyParams p;
    p.x = p.y = 4;
    p.jobs = {4, 4, 4, 4, 4, 1};
    p.policies = {PlacementPolicy::Sorted};
    PlacementStudy s = studyPlacement(p);
    QCOMPARE(s.runs.size(), std::size_t(1));
    QCOMPARE(s.requestedBoards, 21LL);
    QCOMPARE(s.runs[0].result.placedJobs, 4);
    QCOMPARE(s.runs[0].result.utilisation(), 1.0);
    QVERIFY(!s.traceQueue);

    // A trace queue with faults: each policy twice, on the same queue; the fault runs lose
    // exactly the faulty boards.
    p = {};
    p.x = p.y = 16;
    p.faultyFraction = 0.1;
    p.seed = 5;
    s = studyPlacement(p);
    QVERIFY(s.traceQueue);
    QCOMPARE(s.maxJob, 64);
    QVERIFY(s.requestedBoards >= 256);
    QCOMPARE(s.runs.size(), std::size_t(4));
    QCOMPARE(s.faultyBoards, std::accumulate(s.faults.begin(), s.faults.end(), 0LL));
    QVERIFY(s.faultyBoards > 0);
    QCOMPARE(s.runs[0].policy, PlacementPolicy::Sorted);
    QCOMPARE(s.runs[1].withFaults, true);
    QCOMPARE(s.runs[1].result.healthyBoards, 256 - s.faultyBoards);
    QCOMPARE(s.runs[2].policy, PlacementPolicy::Greedy);
    QCOMPARE(s.runs[2].result.healthyBoards, 256LL);
    // Faults draw from a stream of their own, not from the queue's seed as it is.
    QVERIFY(s.faults != randomFaults(16, 16, 0.1, 5));

    p.faultyFraction = 1;
    try {
        studyPlacement(p);
        QFAIL("no error");
    } catch (const InputError &e) {
        QCOMPARE(QString::fromStdString(e.place()), QStringLiteral("faulty"));
    }
}

void TestCluster::benchBodiesRun()
{
    // The `composelab bench` bodies run to the end (their speed is measured there, not here).
    const auto benchmarks = clusterBenchmarks();
    QCOMPARE(benchmarks.size(), std::size_t(3));
    for (const auto &b : benchmarks)
        b.body();
}

QTEST_APPLESS_MAIN(TestCluster)

#include "tst_cluster.moc"
