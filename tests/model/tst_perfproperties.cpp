// Properties any sane performance model keeps on real compositions, and the sharing of links
// within a step worked by hand: more bandwidth is never slower (every PCIe generation and width,
// every NVLink bridge), more GPUs never lengthen the time to train, a shared uplink costs only
// when what crosses it at once exceeds it, pooled GPUs train as fast as local ones as far as
// published measurements show, and a GPU that does not exist yet is faster exactly where the
// physics says.
#include "model/perftest.h"

#include "perf/contention.h"

using namespace clab;
using namespace clab::perftest;

class TestPerfProperties : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sharingByHand();
    void moreBandwidthNeverSlower();
    void bridgesNeverSlower();
    void moreGpusNeverLongerToTrain();
    void sharedUplinkCostsOnlyWhenExceeded();
    void pooledTrainsLikeLocal();
    void whatIfGpuFasterWhereMemoryBound();
};

namespace {

// A Gen5 host with two H100 PCIe GPUs (Gen5 too, so that every PCIe link runs at its own rate),
// each cabled to socket 0 with `kind`, composed as one system; `bridge` (an NVLink kind, with
// `count` links) joins the GPUs when not empty.
design::Design twoGpus(const std::string &kind, const std::string &bridge = {}, int count = 0)
{
    design::Design d;
    d.hosts.push_back({"h", "xeon-platinum-8480plus-2s", {}});
    d.devices.push_back({"g0", "H100-PCIe-80GB", {}, {}, -1});
    d.devices.push_back({"g1", "H100-PCIe-80GB", {}, {}, -1});
    d.links.push_back({"h/cpu0", "g0", kind, 1});
    d.links.push_back({"h/cpu0", "g1", kind, 1});
    if (!bridge.empty())
        d.links.push_back({"g0", "g1", bridge, count});
    d.systems.push_back({"s", "h", {"g0", "g1"}});
    return d;
}

perf::Prediction predictOn(const design::Design &d, const char *id, int gbs)
{
    return predictBuiltin(platformOfDesign(d), builtinWorkload(id), gbs);
}

// A host with `n` A100 PCIe GPUs in a Falcon 4016 (filled slot by slot), both sockets cabled to
// the chassis' first two host ports.
design::Design pooled(int n)
{
    design::Design d;
    d.hosts.push_back({"h", "epyc-7742-2s", {}});
    d.chassis.push_back({"pool", "h3-falcon-4016", {}});
    design::System s{"s", "h", {}};
    for (int i = 0; i < n; ++i) {
        const std::string id = "g" + std::to_string(i);
        d.devices.push_back({id, "A100-PCIe-40GB", {}, "pool", i});
        s.devices.push_back(id);
    }
    d.links.push_back({"h/cpu0", "pool/up0", "pcie4x16", 1});
    d.links.push_back({"h/cpu1", "pool/up1", "pcie4x16", 1});
    d.systems.push_back(s);
    return d;
}

} // namespace

void TestPerfProperties::sharingByHand()
{
    using fabric::FlowClass;
    auto k = [](FlowClass c) { return std::size_t(c); };
    // One 10 GB/s link crossed by one ring flow and one input flow.
    fabric::StepFlows f;
    f.count[k(FlowClass::Ring)] = 1;
    f.count[k(FlowClass::Input)] = 1;
    fabric::SharedResource link;
    link.capacityGBps = 10;
    link.flows[k(FlowClass::Ring)] = 1;
    link.flows[k(FlowClass::Input)] = 1;
    f.resources = {link};
    perf::ClassTimes bytes{};
    // Alone: 5 GB at 10 GB/s = 0.5 s.
    bytes[k(FlowClass::Ring)] = 5e9;
    perf::ClassTimes t = perf::shareLinks(f, bytes);
    CLAB_NEAR(t[k(FlowClass::Ring)], 0.5);
    QCOMPARE(t[k(FlowClass::Input)], 0.0);
    // Together with 5 GB of input: 5 GB/s each, both done at 1 s.
    bytes[k(FlowClass::Input)] = 5e9;
    t = perf::shareLinks(f, bytes);
    CLAB_NEAR(t[k(FlowClass::Ring)], 1.0);
    CLAB_NEAR(t[k(FlowClass::Input)], 1.0);
    // 1 GB of ring and 9 GB of input: the ring is done at 0.2 s (1 GB at 5 GB/s), then the input
    // has the link to itself: 8 GB at 10 GB/s, done at 1.0 s.
    bytes = {};
    bytes[k(FlowClass::Ring)] = 1e9;
    bytes[k(FlowClass::Input)] = 9e9;
    t = perf::shareLinks(f, bytes);
    CLAB_NEAR(t[k(FlowClass::Ring)], 0.2);
    CLAB_NEAR(t[k(FlowClass::Input)], 1.0);
    // Four ring flows and one input flow on the link, the ring also on its own 4 GB/s link: the
    // ring is held at 1 GB/s per flow by its own link (4 flows), the input takes the other
    // 6 GB/s of the shared one.
    fabric::SharedResource ringOnly;
    ringOnly.capacityGBps = 4;
    ringOnly.flows[k(FlowClass::Ring)] = 4;
    f.count[k(FlowClass::Ring)] = 4;
    f.resources = {link, ringOnly};
    f.resources[0].flows[k(FlowClass::Ring)] = 4;
    bytes = {};
    bytes[k(FlowClass::Ring)] = 1e9;
    bytes[k(FlowClass::Input)] = 6e9;
    t = perf::shareLinks(f, bytes);
    CLAB_NEAR(t[k(FlowClass::Ring)], 1.0);
    CLAB_NEAR(t[k(FlowClass::Input)], 1.0);
    // A class whose route keeps half of its share (staged through host memory): the input runs
    // at 3 GB/s while the ring does (3 GB by 1 s), then at 5 GB/s on the whole link: 1.6 s.
    f.factor[k(FlowClass::Input)] = 0.5;
    t = perf::shareLinks(f, bytes);
    CLAB_NEAR(t[k(FlowClass::Input)], 1.6);
    f.factor[k(FlowClass::Input)] = 1;
    // A stream asking for 2 GB/s (its bytes spread over the step) leaves the ring the other
    // 8 GB/s of the link; the ring's own link (4 GB/s for its 4 flows) still holds it at 1 GB/s.
    perf::ClassTimes demand{};
    demand[k(FlowClass::Input)] = 2;
    bytes[k(FlowClass::Input)] = 2e9;
    t = perf::shareLinks(f, bytes, demand);
    CLAB_NEAR(t[k(FlowClass::Ring)], 1.0);
    CLAB_NEAR(t[k(FlowClass::Input)], 1.0);
    // Asking for more than the link leaves it (9 GB/s with 4 GB/s of ring): it gets 6 GB/s while
    // the ring runs, then 9 GB/s: 9 GB in 1 + 3/9 s.
    demand[k(FlowClass::Input)] = 9;
    bytes[k(FlowClass::Input)] = 9e9;
    t = perf::shareLinks(f, bytes, demand);
    CLAB_NEAR(t[k(FlowClass::Input)], 1.0 + 3.0 / 9.0);
    // Disjoint links: no sharing at all.
    fabric::StepFlows apart;
    apart.count[k(FlowClass::Ring)] = 1;
    apart.count[k(FlowClass::Input)] = 1;
    fabric::SharedResource a, b;
    a.capacityGBps = b.capacityGBps = 10;
    a.flows[k(FlowClass::Ring)] = 1;
    b.flows[k(FlowClass::Input)] = 1;
    apart.resources = {a, b};
    bytes = {};
    bytes[k(FlowClass::Ring)] = 5e9;
    bytes[k(FlowClass::Input)] = 5e9;
    t = perf::shareLinks(apart, bytes);
    CLAB_NEAR(t[k(FlowClass::Ring)], 0.5);
    CLAB_NEAR(t[k(FlowClass::Input)], 0.5);
}

void TestPerfProperties::moreBandwidthNeverSlower()
{
    // Every PCIe link kind of the catalog (generations 3 to 5, every width) as the GPUs' host
    // links, ordered by what the link achieves: the step never gets longer.
    std::vector<const catalog::LinkKind *> kinds;
    for (const auto &[id, k] : cat().links())
        if (k.family == catalog::LinkFamily::Pcie)
            kinds.push_back(&k);
    QVERIFY(kinds.size() >= 6);
    std::sort(kinds.begin(), kinds.end(),
              [](const auto *a, const auto *b) { return a->achievedGBps() < b->achievedGBps(); });
    QStringList slower;
    for (const char *id : {"resnet50", "bert_large", "unet3d"}) {
        double previous = std::numeric_limits<double>::infinity();
        std::string previousKind;
        for (const catalog::LinkKind *k : kinds) {
            const perf::Prediction r = predictOn(twoGpus(k->id), id, 32);
            if (r.stepS > previous * (1 + 1e-9))
                slower << QStringLiteral("%1: %2 (%3 GB/s) %4 s after %5 %6 s")
                              .arg(QLatin1String(id), QString::fromStdString(k->id))
                              .arg(k->achievedGBps())
                              .arg(r.stepS)
                              .arg(QString::fromStdString(previousKind))
                              .arg(previous);
            previous = r.stepS;
            previousKind = k->id;
        }
    }
    QVERIFY2(slower.isEmpty(), qPrintable(slower.join(QStringLiteral("; "))));
}

void TestPerfProperties::bridgesNeverSlower()
{
    // Every NVLink generation and link count as a bridge between two H100 PCIe GPUs: never
    // slower than no bridge, and never slower than a narrower bridge. (The first model's fitted
    // link factors made BERT slower with bridges: 102 ms against 89 ms.)
    QStringList slower;
    for (const char *id : {"resnet50", "bert_large"}) {
        const int gbs = std::string(id) == "bert_large" ? 16 : 256;
        const perf::Prediction none = predictOn(twoGpus("pcie4x16"), id, gbs);
        std::vector<std::pair<double, perf::Prediction>> bridged;
        for (const auto &[kid, k] : cat().links()) {
            if (k.family != catalog::LinkFamily::Nvlink)
                continue;
            for (int count = 1; count <= 12; count *= 2)
                bridged.emplace_back(k.achievedGBps(count),
                                     predictOn(twoGpus("pcie4x16", kid, count), id, gbs));
        }
        QVERIFY(bridged.size() >= 6);
        std::sort(bridged.begin(), bridged.end(),
                  [](const auto &a, const auto &b) { return a.first < b.first; });
        double previous = none.stepS;
        for (const auto &[gbps, r] : bridged) {
            if (r.stepS > previous * (1 + 1e-9))
                slower << QStringLiteral("%1 with %2 GB/s of bridge: %3 s, after %4 s")
                              .arg(QLatin1String(id))
                              .arg(gbps)
                              .arg(r.stepS)
                              .arg(previous);
            previous = r.stepS;
        }
    }
    QVERIFY2(slower.isEmpty(), qPrintable(slower.join(QStringLiteral("; "))));
}

void TestPerfProperties::moreGpusNeverLongerToTrain()
{
    // A pool composing 1, 2, 4, 8 and 16 GPUs to one host, each at the batch the model chooses
    // for it: the time to train never grows.
    QStringList longer;
    for (const char *id : {"resnet50", "bert_large", "retinanet"}) {
        double previous = std::numeric_limits<double>::infinity();
        int previousGpus = 0;
        for (int n : {1, 2, 4, 8, 16}) {
            const design::Design d = pooled(n);
            const fabric::Analysis a = fabric::analyze(d, cat());
            const perf::Platform p = perf::platformOf(d, a, 0, cat());
            QCOMPARE(p.gpusPerNode, n);
            const perf::Prediction r = perf::predict(p, builtinWorkload(id), perf::Request{},
                                                     perf::Calibration::builtin());
            QVERIFY(r.batchChosen);
            QVERIFY(r.timeToTrainMin);
            if (*r.timeToTrainMin > previous * (1 + 1e-9))
                longer << QStringLiteral("%1: %2 GPUs %3 min after %4 GPUs %5 min")
                              .arg(QLatin1String(id))
                              .arg(n)
                              .arg(*r.timeToTrainMin)
                              .arg(previousGpus)
                              .arg(previous);
            previous = *r.timeToTrainMin;
            previousGpus = n;
        }
    }
    QVERIFY2(longer.isEmpty(), qPrintable(longer.join(QStringLiteral("; "))));
}

void TestPerfProperties::sharedUplinkCostsOnlyWhenExceeded()
{
    // Four GPUs in a chassis, behind one shared x16 uplink or each with its own.
    const perf::Platform shared = platformOfDesign(chassisNode(false));
    const perf::Platform own = platformOfDesign(chassisNode(true));
    // ResNet-50 with DALI sends ~110 kB compressed JPEGs: a few hundred MB/s per GPU, far below
    // the uplink. Sharing it costs nothing measurable.
    const workload::Workload &resnet = builtinWorkload("resnet50");
    const perf::Prediction s = predictBuiltin(shared, resnet, 1024);
    const perf::Prediction o = predictBuiltin(own, resnet, 1024);
    QCOMPARE(s.stallS, 0.0);
    QVERIFY2(std::abs(s.stepS / o.stepS - 1) < 0.005,
             qPrintable(QStringLiteral("%1 vs %2").arg(s.stepS).arg(o.stepS)));
    // 3D U-Net copies a 10 MB crop per sample: four GPUs reading at once need more than one x16
    // link carries in their step, so the shared uplink stalls them and the own uplinks do not.
    const workload::Workload &unet = builtinWorkload("unet3d");
    const perf::Prediction su = predictBuiltin(shared, unet, 8);
    const perf::Prediction ou = predictBuiltin(own, unet, 8);
    QVERIFY2(su.inputS > 2 * ou.inputS,
             qPrintable(QStringLiteral("%1 vs %2").arg(su.inputS).arg(ou.inputS)));
    QVERIFY(su.stepS >= ou.stepS);
}

void TestPerfProperties::pooledTrainsLikeLocal()
{
    // MLPerf Training v4.0, ResNet-50 at global batch 2400 on 8 L40S: Fujitsu PRIMERGY-CDI-L40Sx8
    // ("GPUs are installed in an external PCI box") against Lenovo SR675V3-8xL40S (local): the
    // median time of a 4-epoch training block, 346.22 s against 347.27 s, is 1.003x in favour of
    // the box (mlcommons/training_results_v4.0, both systems' result logs). The model must put
    // them as close: nothing the pool adds binds for this benchmark.
    perf::SystemSpec spec;
    spec.gpu = "L40S";
    spec.gpusPerNode = 8;
    spec.intraNode = perf::IntraNode::Pcie;
    spec.pcieGen = 4;
    const perf::Platform local = perf::platformOf(spec, cat());
    spec.composable = true;
    const perf::Platform box = perf::platformOf(spec, cat());
    const workload::Workload &w = builtinWorkload("resnet50");
    const perf::Prediction l = perf::predict(local, w, 2400, perf::Precision::Fp16,
                                             perf::Calibration::builtin(), "mlperf-4.0");
    const perf::Prediction b = perf::predict(box, w, 2400, perf::Precision::Fp16,
                                             perf::Calibration::builtin(), "mlperf-4.0");
    const double ratio = l.stepS / b.stepS;
    QVERIFY2(ratio > 0.98 && ratio < 1.02, qPrintable(QString::number(ratio)));
}

void TestPerfProperties::whatIfGpuFasterWhereMemoryBound()
{
    // An A100 with twice the memory bandwidth (datasheet and measured): one GPU, so no
    // communication; the step shrinks by exactly half of its memory-bound and optimizer time,
    // and not a nanosecond more.
    const catalog::Gpu *a100 = cat().gpu("A100-SXM4-80GB");
    QVERIFY(a100);
    catalog::Gpu whatIf = *a100;
    whatIf.id = "A100-2xHBM";
    whatIf.memBwGBps *= 2;
    *whatIf.achieved.memBwGBps *= 2;
    perf::SystemSpec spec;
    spec.gpu = "A100-SXM4-80GB";
    spec.gpusPerNode = 1;
    perf::Platform p = perf::platformOf(spec, cat());
    for (const char *id : {"resnet50", "bert_large", "unet3d"}) {
        const workload::Workload &w = builtinWorkload(id);
        const int gbs = std::string(id) == "unet3d" ? 2 : 64;
        p.gpu = a100;
        const perf::Prediction base = predictBuiltin(p, w, gbs);
        p.gpu = &whatIf;
        const perf::Prediction faster = predictBuiltin(p, w, gbs);
        QCOMPARE(base.stallS, 0.0);
        QCOMPARE(faster.mathS, base.mathS);
        CLAB_NEAR(faster.stepS, base.stepS - (base.memoryS + base.optimizerS) / 2);
        QVERIFY(faster.stepS < base.stepS);
    }
}

QTEST_APPLESS_MAIN(TestPerfProperties)
#include "tst_perfproperties.moc"
