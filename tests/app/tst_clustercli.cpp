// `composelab predict` and `analyze` on a design with a cluster (issue 6): the cluster's
// prediction beside the system's, and a broken cluster refused with its place named.
#include "app/clirun.h"
#include "perf/model.h"
#include "workload/workload.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using clab::test::examplePath;
using clab::test::Outcome;
using clab::test::run;

class TestClusterCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void predictJsonHasTheCluster();
    void predictText();
    void noClusterNoKey();
    void givenBatchCarriesToTheCluster_data();
    void givenBatchCarriesToTheCluster();
    void brokenCluster_data();
    void brokenCluster();
};

void TestClusterCli::predictJsonHasTheCluster()
{
    const Outcome r = run({"predict", examplePath("cluster-dgx-a100-fattree.clab"), "--benchmark",
                           "resnet50", "--json"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.err.empty(), r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    // The node alone, as before.
    QCOMPARE(j.at("system").get<std::string>(), std::string("DGX A100"));
    QCOMPARE(j.at("plan").at("data").get<int>(), 8);
    const auto &c = j.at("cluster");
    QCOMPARE(c.at("system").get<std::string>(), std::string("DGX A100"));
    QCOMPARE(c.at("nodes").get<int>(), 64);
    QCOMPARE(c.at("gpus").get<int>(), 512);
    QCOMPARE(c.at("topology").get<std::string>(), std::string("fattree:taper=2,radix=64"));
    QCOMPARE(c.at("network").get<std::string>(),
             std::string("2-level fat tree, 512 endpoints, radix 64, tapered 42:21"));
    const auto &p = c.at("prediction");
    // No batch given: the model chooses the cluster's, one that gives each GPU a sample.
    QVERIFY(p.at("global_batch_chosen").get<bool>());
    QVERIFY(p.at("global_batch").get<int>() >= 512);
    QCOMPARE(p.at("plan").at("data").get<int>(), 512);
    // 64 times the GPUs: more samples a second than one node, if less than 64 times as many.
    const double node = j.at("throughput_samples_per_s").get<double>();
    const double all = p.at("throughput_samples_per_s").get<double>();
    QVERIFY2(all > node && all < 64 * node,
             qPrintable(QStringLiteral("%1 vs %2").arg(all).arg(node)));
}

void TestClusterCli::predictText()
{
    const Outcome r = run(
        {"predict", examplePath("cluster-dgx-a100-fattree.clab"), "--benchmark", "bert_large"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.find("Cluster: 64 nodes of DGX A100 (512 GPUs) joined by "
                        "fattree:taper=2,radix=64")
                 != std::string::npos,
             r.out.c_str());
    QVERIFY2(r.out.find("on DGX A100 x 64 nodes, global batch") != std::string::npos,
             r.out.c_str());
}

void TestClusterCli::noClusterNoKey()
{
    const Outcome r = run(
        {"predict", examplePath("dgx-a100-nvswitch.clab"), "--benchmark", "resnet50", "--json"});
    QCOMPARE(r.status, 0);
    QVERIFY(!nlohmann::json::parse(r.out).contains("cluster"));
}

// --global-batch is the whole job's when it keeps the cluster's 512 GPUs busy (a sample each, or a
// share of a sequence where the workload splits one over GPUs: Llama 2 LoRA at 128 x 2 x 8); a
// node's batch would idle most of them, so the model then chooses and says why.
void TestClusterCli::givenBatchCarriesToTheCluster_data()
{
    QTest::addColumn<QString>("benchmark");
    QTest::addColumn<int>("batch");
    QTest::addColumn<bool>("kept");
    QTest::newRow("a sample a GPU") << "resnet50" << 512 << true;
    QTest::newRow("large") << "resnet50" << 4096 << true;
    QTest::newRow("a node's batch") << "resnet50" << 256 << false;
    QTest::newRow("split sequences") << "llama2_70b_lora" << 128 << true;
    QTest::newRow("too few sequences") << "llama2_70b_lora" << 16 << false;
}

void TestClusterCli::givenBatchCarriesToTheCluster()
{
    QFETCH(QString, benchmark);
    QFETCH(int, batch);
    QFETCH(bool, kept);
    const Outcome r
        = run({"predict", examplePath("cluster-dgx-a100-fattree.clab"), "--benchmark",
               benchmark.toStdString(), "--global-batch", std::to_string(batch), "--json"});
    QCOMPARE(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("global_batch").get<int>(), batch);
    const auto &p = j.at("cluster").at("prediction");
    QCOMPARE(p.at("global_batch").get<int>() == batch, kept);
    QCOMPARE(p.at("global_batch_chosen").get<bool>(), !kept);
    const std::string notes = p.at("notes").dump();
    QCOMPARE(notes.find("cannot keep the cluster's 512 GPUs busy") != std::string::npos, !kept);
}

void TestClusterCli::brokenCluster_data()
{
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("predictError");   // on stderr
    QTest::addColumn<QString>("analyzeFinding"); // on stdout; empty: the file is refused
    QTest::newRow("unknown system")
        << R"({"system": "DGX B200", "nodes": 4, "topology": "fattree"})" << 1
        << "cluster: system: \"DGX B200\" is not a composed system of the design"
        << "the cluster joins system \"DGX B200\", which is not in the design";
    QTest::newRow("bad topology")
        << R"({"system": "DGX A100", "nodes": 4, "topology": "fattree:radix=5"})" << 1
        << "cluster: topology: \"fattree:radix=5\": radix: expected an even switch radix"
        << "the cluster's topology \"fattree:radix=5\" does not fit 4 nodes of 8 GPUs";
    QTest::newRow("too many nodes")
        << R"({"system": "DGX A100", "nodes": 5000, "topology": "fattree"})" << 1
        << "at /cluster/nodes: expected 1 to 2048 nodes, found 5000"
        << "";
}

void TestClusterCli::brokenCluster()
{
    QFETCH(QString, cluster);
    QFETCH(int, status);
    QFETCH(QString, predictError);
    QFETCH(QString, analyzeFinding);
    // The DGX example with its cluster object replaced.
    std::ifstream in(examplePath("cluster-dgx-a100-fattree.clab"));
    auto design = nlohmann::ordered_json::parse(in);
    design["cluster"] = nlohmann::ordered_json::parse(cluster.toStdString());
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("broken.clab")).toStdString();
    std::ofstream(path) << design.dump(2);

    const Outcome p = run({"predict", path, "--benchmark", "resnet50"});
    QCOMPARE(p.status, status);
    QVERIFY2(p.err.find(path) != std::string::npos, p.err.c_str());
    QVERIFY2(p.err.find(predictError.toStdString()) != std::string::npos, p.err.c_str());
    QVERIFY(p.out.empty());

    const Outcome a = run({"analyze", path});
    if (analyzeFinding.isEmpty()) {
        QCOMPARE(a.status, 1);
        return;
    }
    QCOMPARE(a.status, 0);
    QVERIFY2(a.out.find(analyzeFinding.toStdString()) != std::string::npos, a.out.c_str());
}

QTEST_GUILESS_MAIN(TestClusterCli)

#include "tst_clustercli.moc"
