#include "catalog/catalog.h"
#include "cluster/allreduce.h"
#include "cluster/clusterspec.h"
#include "perf/model.h"
#include "util/inputerror.h"

#include <QtTest>

using namespace clab;

// Multi-node predictions over a scale-out topology: traffic between nodes takes the all-reduce
// time model/cluster gives for that network.
class TestClusterPerf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void interNodeTermIsTheTopologysAllreduce();
    void taperNeverHelps();
    void badSpecs_data();
    void badSpecs();
};

namespace {

perf::Platform dgxNodes(int nodes)
{
    perf::SystemSpec spec;
    spec.gpu = "A100-SXM4-80GB";
    spec.gpusPerNode = 8;
    spec.intraNode = perf::IntraNode::NvSwitch;
    perf::Platform p = perf::platformOf(spec, catalog::Catalog::builtin());
    p.nodes = nodes;
    return p;
}

} // namespace

void TestClusterPerf::interNodeTermIsTheTopologysAllreduce()
{
    const workload::Workload &w = *workload::Library::builtin().find("bert_large");
    perf::Calibration cal; // defaults: efficiency 0.4, link factor 1, no overhead
    perf::Platform p = dgxNodes(16);
    const perf::Prediction single
        = perf::predict(p, w, 16 * 8 * 8, perf::Precision::Fp16, cal, {}, perf::Plan{});
    p.cluster = cluster::clusterNetwork("fattree", 16, 8);
    const perf::Prediction withNet
        = perf::predict(p, w, 16 * 8 * 8, perf::Precision::Fp16, cal, {}, perf::Plan{});
    // Intra-node ring as before; between nodes each GPU's 1/8 shard of the fp16 gradients.
    const double intra = 2.0 * 7 / 8 * w.allreduceParameters * 2 / (p.ringGBps * 1e9)
                         + 2.0 * 7 * p.ringLatencyUs * 1e-6;
    const double inter = cluster::allreduce(*p.cluster, w.allreduceParameters * 2 / 8).seconds;
    QVERIFY(std::abs(withNet.communicationS - (intra + inter)) <= 1e-12 * withNet.communicationS);
    QCOMPARE(withNet.computeS, single.computeS); // the network changes communication only
}

void TestClusterPerf::taperNeverHelps()
{
    const workload::Workload &w = *workload::Library::builtin().find("resnet50");
    perf::Calibration cal;
    double previous = 0;
    for (const char *spec : {"fattree", "fattree:taper=2", "fattree:taper=4"}) {
        perf::Platform p = dgxNodes(64);
        p.cluster = cluster::clusterNetwork(spec, 64, 8);
        const double comm
            = perf::predict(p, w, 64 * 8 * 32, perf::Precision::Fp16, cal).communicationS;
        QVERIFY2(comm >= previous, spec);
        previous = comm;
    }
}

void TestClusterPerf::badSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("expected");
    QTest::newRow("family") << "torus"
                            << "expected fattree or rail";
    QTest::newRow("unknown key") << "fattree:fanout=3"
                                 << "not a parameter of fattree";
    QTest::newRow("not a number") << "fattree:taper=two"
                                  << "expected key=non-negative integer";
    QTest::newRow("rail taper") << "rail:taper=2"
                                << "not a parameter of rail";
}

void TestClusterPerf::badSpecs()
{
    QFETCH(QString, spec);
    QFETCH(QString, expected);
    try {
        cluster::clusterNetwork(spec.toStdString(), 8, 8);
        QFAIL("accepted");
    } catch (const InputError &e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(expected), e.what());
        // The model names what it read, not a command-line flag: the GUI shows this message too.
        QVERIFY(QString::fromStdString(e.what()).startsWith(QStringLiteral("cluster network ")));
    }
}

QTEST_APPLESS_MAIN(TestClusterPerf)
#include "tst_clusterperf.moc"
