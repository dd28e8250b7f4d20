// A design's cluster (issue 6): the `cluster` object of .clab files, its design rules and the
// performance model's prediction of the system scaled to the cluster's nodes.
#include "catalog/catalog.h"
#include "cluster/allreduce.h"
#include "cluster/clusterspec.h"
#include "design/design.h"
#include "design/designindex.h"
#include "design/examples.h"
#include "design/rules.h"
#include "fabric/analysis.h"
#include "perf/clusterplatform.h"
#include "perf/model.h"
#include "util/inputerror.h"

#include <QtTest>

using namespace clab;
using namespace clab::design;

namespace {

const catalog::Catalog &cat()
{
    return catalog::Catalog::builtin();
}

const char *const kExample = "cluster-dgx-a100-fattree.clab";

Design example(const std::string &name)
{
    for (const Example &e : bundledExamples()) {
        if (e.fileName == name)
            return readDesign(e.text, e.fileName);
    }
    throw std::logic_error("no example " + name);
}

// The smallest file with a cluster object: `cluster` is spliced in as JSON text.
std::string withCluster(const std::string &cluster)
{
    return R"({"formatVersion": 1, "appVersion": "0.1.0", "cluster": )" + cluster + "}";
}

std::vector<std::string> errors(const Design &d)
{
    std::vector<std::string> out;
    for (const Finding &f : fabric::findingsOf(d, cat())) {
        if (f.severity == Severity::Error)
            out.push_back(f.message);
    }
    return out;
}

} // namespace

class TestClusterDesign : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readWriteRoundTrip();
    void noClusterWritesNoKey();
    void badClusterObjects_data();
    void badClusterObjects();
    void rules_data();
    void rules();
    void exampleHasNoErrors();
    void predictionScalesTheSystem();
    void brokenClusterThrows();
};

void TestClusterDesign::readWriteRoundTrip()
{
    Design d = example(kExample);
    QVERIFY(d.cluster.has_value());
    QCOMPARE(d.cluster->system, std::string("DGX A100"));
    QCOMPARE(d.cluster->nodes, 64);
    QCOMPARE(d.cluster->topology, std::string("fattree:taper=2,radix=64"));
    const std::string once = writeDesign(d);
    const Design again = readDesign(once, "again.clab");
    QVERIFY(again == d);
    QCOMPARE(writeDesign(again), once);
    // The cluster comes after the systems and before the layout, keys in a fixed order.
    d.layout["node"] = {1, 2};
    const std::string text = writeDesign(d);
    const auto systems = text.find("\"systems\"");
    const auto cluster = text.find("\"cluster\": {\n    \"system\": \"DGX A100\",\n    \"nodes\": "
                                   "64,\n    \"topology\": \"fattree:taper=2,radix=64\"\n  }");
    const auto layout = text.find("\"layout\"");
    QVERIFY2(cluster != std::string::npos, text.c_str());
    QVERIFY(systems < cluster && cluster < layout);
}

void TestClusterDesign::noClusterWritesNoKey()
{
    Design d = example(kExample);
    d.cluster.reset();
    const std::string text = writeDesign(d);
    QVERIFY(text.find("\"cluster\"") == std::string::npos);
    QVERIFY(!readDesign(text, "x.clab").cluster);
}

void TestClusterDesign::badClusterObjects_data()
{
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<QString>("message");
    QTest::newRow("not an object") << "[]"
                                   << "at /cluster: expected an object, found an array";
    QTest::newRow("unknown key") << R"({"system": "s", "nodes": 2, "topology": "fattree",
                                        "nodez": 3})"
                                 << "at /cluster/nodez: unknown key";
    QTest::newRow("no system") << R"({"nodes": 2, "topology": "fattree"})"
                               << "at /cluster: missing required key \"system\"";
    QTest::newRow("empty system") << R"({"system": "", "nodes": 2, "topology": "fattree"})"
                                  << "at /cluster/system: expected the name of a composed system";
    QTest::newRow("zero nodes") << R"({"system": "s", "nodes": 0, "topology": "fattree"})"
                                << "at /cluster/nodes: expected an integer of at least 1";
    QTest::newRow("too many nodes") << R"({"system": "s", "nodes": 2049, "topology": "fattree"})"
                                    << "at /cluster/nodes: expected 1 to 2048 nodes, found 2049";
    QTest::newRow("nodes as text") << R"({"system": "s", "nodes": "2", "topology": "fattree"})"
                                   << "at /cluster/nodes: expected an integer";
    QTest::newRow("no topology") << R"({"system": "s", "nodes": 2})"
                                 << "at /cluster: missing required key \"topology\"";
    QTest::newRow("empty topology") << R"({"system": "s", "nodes": 2, "topology": ""})"
                                    << "at /cluster/topology: expected a topology";
}

void TestClusterDesign::badClusterObjects()
{
    QFETCH(QString, cluster);
    QFETCH(QString, message);
    try {
        readDesign(withCluster(cluster.toStdString()), "c.clab");
        QFAIL("accepted");
    } catch (const InputError &e) {
        QCOMPARE(e.file(), std::string("c.clab"));
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
    }
}

void TestClusterDesign::rules_data()
{
    QTest::addColumn<QString>("system");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<QString>("topology");
    QTest::addColumn<QString>("error"); // empty: none
    QTest::newRow("fine") << "DGX A100" << 64 << "fattree:taper=2,radix=64"
                          << "";
    QTest::newRow("rail") << "DGX A100" << 64 << "rail:radix=64"
                          << "";
    QTest::newRow("unknown system")
        << "DGX B200" << 64 << "fattree"
        << "the cluster joins system \"DGX B200\", which is not in the design";
    QTest::newRow("unknown kind") << "DGX A100" << 64 << "torus"
                                  << "\"torus\" does not fit 64 nodes of 8 GPUs: torus: expected "
                                     "fattree or rail";
    QTest::newRow("unknown parameter") << "DGX A100" << 64 << "fattree:taper=2,spine=3"
                                       << "spine: not a parameter of fattree";
    QTest::newRow("odd radix") << "DGX A100" << 64 << "fattree:radix=7"
                               << "radix: expected an even switch radix";
    QTest::newRow("not a number") << "DGX A100" << 64 << "fattree:radix=big"
                                  << "radix=big: expected key=non-negative integer";
    // One level of radix 64 joins 64 endpoints, not 512.
    QTest::newRow("too few levels") << "DGX A100" << 64 << "fattree:levels=1"
                                    << "levels: 512 endpoints need more than 1 level(s)";
    // Rail: 8 rails of ⌈300/32⌉ = 10 leaves are 80 leaves, more than a radix-64 spine joins.
    QTest::newRow("rail too big") << "DGX A100" << 300 << "rail"
                                  << "servers: expected at most 64 rail leaves";
    QTest::newRow("nodes out of range") << "DGX A100" << 0 << "fattree"
                                        << "the cluster has 0 nodes; expected 1 to 2048";
}

void TestClusterDesign::rules()
{
    QFETCH(QString, system);
    QFETCH(int, nodes);
    QFETCH(QString, topology);
    QFETCH(QString, error);
    Design d = example(kExample);
    d.cluster = Cluster{system.toStdString(), nodes, topology.toStdString()};
    const auto found = errors(d);
    if (error.isEmpty()) {
        QVERIFY2(found.empty(), found.empty() ? "" : found.front().c_str());
        return;
    }
    QCOMPARE(found.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(found[0]).contains(error), found[0].c_str());
}

void TestClusterDesign::exampleHasNoErrors()
{
    // A cluster of a system without a GPU is an error (its nodes would have nothing to join).
    Design d = example(kExample);
    QVERIFY(errors(d).empty());
    for (auto &s : d.systems)
        s.devices.clear();
    const auto found = errors(d);
    QCOMPARE(found.size(), std::size_t(1));
    QVERIFY2(found[0].find("has no GPU") != std::string::npos, found[0].c_str());
}

void TestClusterDesign::predictionScalesTheSystem()
{
    const Design d = example(kExample);
    const DesignIndex index(d);
    const fabric::Analysis analysis = fabric::analyze(d, cat());
    const auto cp = perf::clusterPlatformOf(index, analysis, cat());
    QVERIFY(cp.has_value());
    QCOMPARE(analysis.systems[cp->systemIndex].name, std::string("DGX A100"));
    const perf::Platform &p = cp->platform;
    QCOMPARE(p.nodes, 64);
    QCOMPARE(p.gpusPerNode, 8);
    QVERIFY(p.cluster);
    QCOMPARE(p.cluster->accelerators, 512);
    // 2:1 at radix 64: 42 accelerators a leaf, 21 up-links (clusterspec's fat tree).
    QCOMPARE(p.cluster->leafDown, 42);
    QCOMPARE(p.cluster->leafUp, 21);

    // The same as predict --nodes 64 --cluster SPEC: the node's platform, the network added.
    perf::Platform byHand = perf::platformOf(index, analysis, cp->systemIndex, cat());
    byHand.nodes = 64;
    byHand.cluster = cluster::clusterNetwork("fattree:taper=2,radix=64", 64, 8);
    const workload::Workload &w = *workload::Library::builtin().find("bert_large");
    const int batch = perf::defaultGlobalBatch(w, 512);
    const auto cal = perf::Calibration::builtin();
    const perf::Prediction a = perf::predict(p, w, batch, perf::Precision::Fp16, cal);
    const perf::Prediction b = perf::predict(byHand, w, batch, perf::Precision::Fp16, cal);
    QCOMPARE(a.stepS, b.stepS);
    QCOMPARE(a.communicationS, b.communicationS);
    // And the inter-node traffic costs something: the tapered network is no faster than a
    // nonblocking one, and the node alone has no inter-node term.
    byHand.cluster = cluster::clusterNetwork("fattree:radix=64", 64, 8);
    const perf::Prediction nonblocking
        = perf::predict(byHand, w, batch, perf::Precision::Fp16, cal);
    QVERIFY(a.communicationS >= nonblocking.communicationS);
    perf::Platform node = perf::platformOf(index, analysis, cp->systemIndex, cat());
    const perf::Prediction alone
        = perf::predict(node, w, perf::defaultGlobalBatch(w, 8), perf::Precision::Fp16, cal);
    QVERIFY(a.communicationS > alone.communicationS);

    Design none = d;
    none.cluster.reset();
    QVERIFY(!perf::clusterPlatformOf(DesignIndex(none), analysis, cat()));
}

void TestClusterDesign::brokenClusterThrows()
{
    Design d = example(kExample);
    const fabric::Analysis analysis = fabric::analyze(d, cat());
    d.cluster->topology = "fattree:levels=1";
    try {
        perf::clusterPlatformOf(DesignIndex(d), analysis, cat());
        QFAIL("accepted");
    } catch (const InputError &e) {
        QCOMPARE(e.place(), std::string("topology"));
        QVERIFY2(QString::fromStdString(e.message()).contains(QStringLiteral("levels")), e.what());
    }
    d.cluster->system = "nobody";
    try {
        perf::clusterPlatformOf(DesignIndex(d), analysis, cat());
        QFAIL("accepted");
    } catch (const InputError &e) {
        QCOMPARE(e.place(), std::string("system"));
    }
}

QTEST_APPLESS_MAIN(TestClusterDesign)

#include "tst_clusterdesign.moc"
