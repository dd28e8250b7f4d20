// A job's run time stretched by where its GPUs end up (schedule/stretch.h): the factor is the
// performance model's step time there over dedicated local PCIe servers, checked against the
// model called directly on the seed testbed's own systems; and the simulator applies it.
#include "catalog/catalog.h"
#include "design/designindex.h"
#include "design/examples.h"
#include "fabric/analysis.h"
#include "perf/platform.h"
#include "perf/service.h"
#include "schedule/simulate.h"
#include "schedule/stretch.h"
#include "util/inputerror.h"
#include "workload/workload.h"

#include <QTest>

using namespace clab;
using namespace clab::schedule;

namespace {

const catalog::Catalog &cat()
{
    return catalog::Catalog::builtin();
}

Job job(int gpus, double duration, std::string benchmark, int line = 2)
{
    return {0, gpus, duration, std::move(benchmark), {}, line};
}

// Step time of the seed testbed's system `index` as the GUI predicts it, every GPU at the local
// batch the stretch uses.
double systemStepS(const design::Design &d, std::size_t index, const workload::Workload &w,
                   int gpus)
{
    const fabric::Analysis a = fabric::analyze(d, cat());
    perf::Request request;
    request.globalBatch = std::max(1, perf::defaultGlobalBatch(w, gpus) / gpus) * gpus;
    return perf::predictSystem(design::DesignIndex(d), a, index, w, request,
                               perf::Calibration::builtin(), cat())
        .stepS;
}

double referenceStepS(const std::string &host, const workload::Workload &w, int gpus)
{
    perf::SystemSpec spec;
    spec.gpu = "A100-PCIe-40GB";
    spec.gpusPerNode = gpus;
    spec.intraNode = perf::IntraNode::Pcie;
    spec.pcieGen = 4;
    spec.host = host;
    perf::Request request;
    request.globalBatch = std::max(1, perf::defaultGlobalBatch(w, gpus) / gpus) * gpus;
    return perf::predict(perf::platformOf(spec, cat()), w, request, perf::Calibration::builtin())
        .stepS;
}

} // namespace

class TestStretch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void factorIsTheModelsRatio();
    void oneGpuOnTheSameHostIsNotStretched();
    void jobsWithoutABenchmark();
    void simulatorRunsTheStretchedTime();
    void unknownBenchmarkNamesTheLine();
};

void TestStretch::factorIsTheModelsRatio()
{
    // System B of the seed testbed is host B with gpu4..gpu9 composed to it. A pool job of six
    // GPUs composed to host B takes those six (the GPUs composed to its host first), so its
    // step time is system B's; the reference is six A100-PCIe in a local server with host B's
    // processors (EPYC 7742, two sockets).
    const design::Design d = design::seedTestbed();
    const Resources r = resourcesOf(d, cat(), "seed.clab");
    const workload::Workload &bert = *workload::Library::builtin().find("bert_large");
    Stretcher s(d, r, cat());
    Holding h;
    h.composedTo = {{0, 1, 6}};
    const double f = s.factor(job(6, 3600, "bert_large"), h);
    const double expected = systemStepS(d, 1, bert, 6) / referenceStepS("epyc-7742-2s", bert, 6);
    QVERIFY2(std::abs(f - expected) < 1e-9 * expected,
             qPrintable(QStringLiteral("%1 vs %2").arg(f).arg(expected)));
    QVERIFY(f != 1); // the chassis' switch fabric is not the server's socket-split PCIe tree
    // The same job asked again comes from the cache, unchanged.
    QCOMPARE(s.factor(job(6, 60, "BERT"), h), f);
}

void TestStretch::oneGpuOnTheSameHostIsNotStretched()
{
    // One GPU trains alone: no collective, one x16 link for its input either way, the same
    // Gen3 host (C) in both places. The factor is 1 to well within a percent.
    const design::Design d = design::seedTestbed();
    const Resources r = resourcesOf(d, cat(), "seed.clab");
    Stretcher s(d, r, cat());
    Holding h;
    h.composedTo = {{0, 2, 1}};
    const double f = s.factor(job(1, 600, "resnet50"), h);
    QVERIFY2(std::abs(f - 1) < 0.01, qPrintable(QString::number(f)));
}

void TestStretch::jobsWithoutABenchmark()
{
    const design::Design d = design::seedTestbed();
    const Resources r = resourcesOf(d, cat(), "seed.clab");
    Holding h;
    h.composedTo = {{0, 1, 6}};
    Stretcher none(d, r, cat());
    QCOMPARE(none.factor(job(6, 100, ""), h), 1.0);
    // With a default benchmark they are stretched as if they named it.
    Stretcher bert(d, r, cat(), "bert_large");
    QCOMPARE(bert.factor(job(6, 100, ""), h), none.factor(job(6, 100, "bert_large"), h));
    QVERIFY(bert.factor(job(6, 100, ""), h) != 1);
}

void TestStretch::simulatorRunsTheStretchedTime()
{
    // Two jobs on a two-host pool; the stretch doubles the 2-GPU job and leaves the other.
    // FIFO: the 2-GPU job runs 0..200 on host 0, the 1-GPU job 0..50 on host 1. Work
    // 2·200 + 1·50 = 450 GPU-s over 4 GPUs · 200 s; JCTs 200 and 50.
    Resources r;
    r.hosts = {"h0", "h1"};
    r.chassis = {"c0"};
    r.localGpus = {0, 0};
    r.pooledGpus = {4};
    r.composed = {{2, 2}};
    r.reachable = {{0}, {0}};
    Options opt;
    opt.stretch = [](const Job &j, const Holding &) { return j.gpus == 2 ? 2.0 : 1.0; };
    const std::vector<Job> jobs = {job(2, 100, "x"), job(1, 50, "y")};
    const Outcome o = simulate(jobs, r, Mode::Pool, opt);
    QCOMPARE(o.spanS, 200.0);
    QCOMPARE(o.meanJctS, 125.0);
    QCOMPARE(o.utilisation, 450.0 / 800);
    QCOMPARE(o.stretched, 1);
    QCOMPARE(o.meanStretch, 1.5);
    QCOMPARE(o.maxStretch, 2.0);
    // Without it, the recorded durations.
    const Outcome plain = simulate(jobs, r, Mode::Pool, {});
    QCOMPARE(plain.spanS, 100.0);
    QCOMPARE(plain.stretched, 0);
    QCOMPARE(plain.meanStretch, 1.0);
}

void TestStretch::unknownBenchmarkNamesTheLine()
{
    checkBenchmarks({job(1, 1, "resnet50"), job(1, 1, "bert"), job(1, 1, "")}, "t.csv");
    try {
        checkBenchmarks({job(1, 1, "resnet50", 2), job(1, 1, "resnet-51", 3)}, "t.csv");
        QFAIL("no error");
    } catch (const InputError &e) {
        QCOMPARE(e.file(), std::string("t.csv"));
        QCOMPARE(e.place(), std::string("line 3, column benchmark"));
        QVERIFY2(e.message().find("resnet-51") != std::string::npos, e.what());
        QVERIFY2(e.message().find("bert_large") != std::string::npos, e.what());
    }
}

QTEST_APPLESS_MAIN(TestStretch)
#include "tst_stretch.moc"
