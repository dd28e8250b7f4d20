// The performance model (model/perf): every term of predict() worked by hand on a made-up GPU
// and platform with round numbers, and the properties any sane model keeps.
#include "model/perftest.h"

using namespace clab;
using namespace clab::perftest;

class TestPerf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void computeMathBound();
    void computeMemoryBound();
    void inputDecodeBound();
    void inputStorageBound();
    void inputH2dBound();
    void ringAllReduce();
    void exposedCommunication();
    void interNode();
    void alltoall();
    void memoryGradientAccumulation();
    void evaluationAndTimeToTrain();
    void samplesAndSteps();
    void samplesToConvergeFollowsTable();
    void moreRingBandwidthNeverSlower();
    void moreH2dNeverSlower();
    void moreHostCoresNeverSlower();
    void largerBatchNeverFewerSamples();
    void moreGpusNeverLowerThroughput();
    void sxmNeverSlowerThanPcie();
    void gpt3NeedsModelParallelism();
    void gpt3FitsOnManyNodes();
};

void TestPerf::computeMathBound()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    const perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.plan.tensor, 1);
    QCOMPARE(r.plan.pipeline, 1);
    QCOMPARE(r.dataParallel, 4);
    QCOMPARE(r.localBatch, 16.0);
    QCOMPARE(r.efficiency, 0.5);
    // math: 16 x 1e12 FLOPs / (100e12 x 0.5) = 0.32 s; memory: 16 x 1e8 x 2 / 0.8e12 = 4 ms;
    // optimizer: 1e8 x 16 B x 2 / 0.8e12 = 4 ms; overhead 2 ms.
    CLAB_NEAR(r.computeS, 0.32 + 0.004 + 0.002);
    // All GPUs at 0.326 s per 64 samples.
    CLAB_NEAR(r.stepS, 0.326);
    CLAB_NEAR(r.throughput, 64 / 0.326);
}

void TestPerf::computeMemoryBound()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    w.trainFlopsPerSample = 1e6; // math 16e6 / 5e13 = 0.32 us, far below the memory traffic
    const perf::Prediction r = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    // memory 4 ms + optimizer 4 ms + overhead 2 ms
    CLAB_NEAR(r.computeS, 0.004 + 0.004 + 0.002);
    // Twice the memory bandwidth halves only the roofline's memory term.
    catalog::Gpu faster = gpu;
    faster.memBwGBps = 2000;
    const perf::Platform q = testPlatform(faster);
    const perf::Prediction f = perf::predict(q, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(f.computeS, 0.002 + 0.002 + 0.002);
}

void TestPerf::inputDecodeBound()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.hostCores = 2;
    workload::Workload w = testWorkload();
    w.decodeCoreSecondsPerSample = 0.02;
    const perf::Prediction r = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    // 64 samples per node x 20 ms / 2 cores = 0.64 s; copy 16 x 1e5 / 10e9 = 0.16 ms.
    CLAB_NEAR(r.inputS, 0.64);
    CLAB_NEAR(r.stallS, 0.64 - 0.326);
    CLAB_NEAR(r.stepS, 0.64);
    CLAB_NEAR(r.throughput, 64 / 0.64);
    // With 64 cores: 1 ms, hidden behind compute.
    p.hostCores = 64;
    const perf::Prediction many = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(many.inputS, 64 * 0.02 / 64);
    QCOMPARE(many.stallS, 0.0);
    CLAB_NEAR(many.stepS, 0.326);
}

void TestPerf::inputStorageBound()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.storageGBps = 0.01; // 10 MB/s for the whole node
    const perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    // 64 samples x 100 kB / 10 MB/s = 0.64 s
    CLAB_NEAR(r.inputS, 0.64);
    CLAB_NEAR(r.stepS, 0.64);
}

void TestPerf::inputH2dBound()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.h2dGBps = 0.001; // 1 MB/s per GPU
    const perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    // 16 samples per GPU x 100 kB / 1 MB/s = 1.6 s
    CLAB_NEAR(r.inputS, 1.6);
    CLAB_NEAR(r.stallS, 1.6 - 0.326);
    CLAB_NEAR(r.stepS, 1.6);
}

void TestPerf::ringAllReduce()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    // 2 (n-1)/n x G / B + 2 (n-1) x latency: 1.5 x 2e8 B (fp16) / 100 GB/s + 6 x 10 us
    CLAB_NEAR(r.communicationS, 1.5 * 2e8 / 100e9 + 6 * 10e-6);
    QCOMPARE(r.alltoallS, 0.0);
    // FP32 gradients are twice the bytes.
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp32, testCalibration());
    CLAB_NEAR(r.communicationS, 1.5 * 4e8 / 100e9 + 6 * 10e-6);
    // The link factor of the platform's link kind scales the ring bandwidth.
    perf::Calibration c = testCalibration();
    c.linkFactor["test"] = 0.5;
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, c);
    CLAB_NEAR(r.communicationS, 1.5 * 2e8 / 50e9 + 6 * 10e-6);
    // Two GPUs: (n-1)/n = 1/2.
    perf::Platform two = p;
    two.gpusPerNode = 2;
    r = perf::predict(two, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.communicationS, 1.0 * 2e8 / 100e9 + 2 * 10e-6);
    // One GPU: nothing to reduce.
    perf::Platform one = p;
    one.gpusPerNode = 1;
    r = perf::predict(one, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.communicationS, 0.0);
}

void TestPerf::exposedCommunication()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    // Fast ring: 3.06 ms of traffic hides behind 0.6 x 2/3 x 0.32 s = 128 ms of backward pass.
    perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.exposedCommS, 0.0);
    CLAB_NEAR(r.stepS, r.computeS);
    // Slow ring, 1 GB/s: 0.3 s + 60 us, of which 128 ms hidden.
    p.ringGBps = 1;
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    const double comm = 1.5 * 2e8 / 1e9 + 6 * 10e-6;
    CLAB_NEAR(r.communicationS, comm);
    CLAB_NEAR(r.exposedCommS, comm - 0.6 * 2.0 / 3.0 * 0.32);
    CLAB_NEAR(r.stepS, 0.326 + comm - 0.128);
    // No overlap: all of it shows.
    perf::Calibration c = testCalibration();
    c.overlap = 0;
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, c);
    CLAB_NEAR(r.exposedCommS, comm);
    // The overlap hides behind the math, not behind the memory-bound roofline: a tiny-FLOP
    // workload hides (almost) nothing.
    workload::Workload tiny = testWorkload();
    tiny.trainFlopsPerSample = 1e6;
    r = perf::predict(p, tiny, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.exposedCommS, comm - 0.6 * 2.0 / 3.0 * 16e6 / 50e12);
}

void TestPerf::interNode()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.nodes = 2;
    p.networkGBps = 10;
    p.networkLatencyUs = 5;
    const perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.dataParallel, 8);
    QCOMPARE(r.localBatch, 8.0);
    // Ring of 4 inside the node: 1.5 x 2e8 / 100e9 + 6 x 10 us; between the two nodes:
    // 2 x 1/2 x 2e8 / 10e9 + 2 log2(2) x 5 us.
    const double intra = 1.5 * 2e8 / 100e9 + 6 * 10e-6;
    const double inter = 1.0 * 2e8 / 10e9 + 2 * 1 * 5e-6;
    CLAB_NEAR(r.communicationS, intra + inter);
    // math 8 x 1e12 / 5e13 = 0.16 s hides 0.6 x 2/3 x 0.16 = 64 ms: all of it.
    QCOMPARE(r.exposedCommS, 0.0);
    // Four nodes: 2 x 3/4 x G / B + 2 log2(4) x latency.
    p.nodes = 4;
    const perf::Prediction four
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(four.communicationS, intra + 1.5 * 2e8 / 10e9 + 2 * 2 * 5e-6);
}

void TestPerf::alltoall()
{
    // DLRM-like: 1e10 parameters, of which 1e6 dense; 1 MB per sample each way.
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.nodes = 2;
    p.networkGBps = 10;
    p.networkLatencyUs = 5;
    workload::Workload w = testWorkload();
    w.parameters = 1e10;
    w.allreduceParameters = 1e6;
    w.alltoallBytesPerSample = 1e6;
    w.activationBytesPerSample = 1e4;
    const perf::Prediction r = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    // 2 x 8 samples x 1 MB = 16 MB per GPU; 3/8 stays in the node (ring 100 GB/s), 4/8 crosses
    // the network, all 4 GPUs of a node at once over 10 GB/s.
    const double a2a = 16e6 * 3.0 / 8 / 100e9 + 16e6 * 4.0 / 8 * 4 / 10e9;
    CLAB_NEAR(r.alltoallS, a2a);
    const double grad = 1e6 * 2;
    const double allreduce = 1.5 * grad / 100e9 + 6 * 10e-6 + 1.0 * grad / 10e9 + 2 * 5e-6;
    CLAB_NEAR(r.communicationS, allreduce + a2a);
    // Nothing hides the all-to-all.
    CLAB_NEAR(r.exposedCommS, a2a);
    // Memory: dense state 1e6 x 16 B, sharded tables 4 B per parameter over 8 GPUs,
    // activations 8 x 1e4, 2 GB reserved.
    CLAB_NEAR(r.requiredGB, (1e6 * 16 + (1e10 - 1e6) / 8 * 4 + 8 * 1e4) / 1e9 + 2);
    QVERIFY(r.fits);
    // A single node: no network share.
    p.nodes = 1;
    const perf::Prediction single
        = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(single.alltoallS, 2 * 16 * 1e6 * 3.0 / 4 / 100e9);
}

void TestPerf::memoryGradientAccumulation()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    w.activationBytesPerSample = 1e9;
    // 64 samples per GPU: 1.6 GB state + 64 GB activations + 2 GB does not fit in 40 GB;
    // half (32) needs 35.6 GB and does.
    perf::Prediction r
        = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{1, 1});
    QCOMPARE(r.localBatch, 64.0);
    QCOMPARE(r.microBatch, 32.0);
    CLAB_NEAR(r.requiredGB, 1.6 + 32 + 2);
    QCOMPARE(r.availableGB, 40.0);
    QVERIFY(r.fits);
    QVERIFY(!hasNote(r, "does not fit"));
    // 40 GB of activations per sample: data parallel, not even one sample fits ...
    w.activationBytesPerSample = 40e9;
    r = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{1, 1});
    QCOMPARE(r.microBatch, 1.0);
    CLAB_NEAR(r.requiredGB, 1.6 + 40 + 2);
    QVERIFY(!r.fits);
    QVERIFY(hasNote(r, "does not fit", "44 GB"));
    QVERIFY(hasNote(r, "does not fit", "40 GB"));
    // ... so the chosen plan splits it over two tensor-parallel GPUs: 0.8 + 20 + 2 GB.
    const perf::Plan plan = perf::choosePlan(p, w, 256);
    QCOMPARE(plan.tensor, 2);
    QCOMPARE(plan.pipeline, 1);
    r = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.plan.tensor, 2);
    QCOMPARE(r.dataParallel, 2);
    QCOMPARE(r.localBatch, 128.0);
    QCOMPARE(r.microBatch, 1.0);
    CLAB_NEAR(r.requiredGB, 0.8 + 20 + 2);
    QVERIFY(r.fits);
}

void TestPerf::evaluationAndTimeToTrain()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    const perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    // Below the table's smallest batch: its 20,000 samples; ceil(20000 / 64) = 313 steps.
    QCOMPARE(r.samples.value_or(-1), 20000.0);
    QCOMPARE(r.steps, 313.0);
    // floor(20000 / 10000) = 2 evaluations of 1000 x 1e11 FLOPs on 4 GPUs at 50 TFLOPS each.
    CLAB_NEAR(r.evaluationS, 2 * 1000 * 1e11 / (4 * 100e12 * 0.5));
    CLAB_NEAR(r.evaluationS, 1.0);
    QVERIFY(r.timeToTrainMin.has_value());
    CLAB_NEAR(*r.timeToTrainMin, (313 * 0.326 + 1.0) / 60);
    CLAB_NEAR(r.breakdownMin.compute, 313 * 0.326 / 60);
    QCOMPARE(r.breakdownMin.communication, 0.0);
    QCOMPARE(r.breakdownMin.input, 0.0);
    CLAB_NEAR(r.breakdownMin.evaluation, 1.0 / 60);

    // With exposed communication and an input stall the breakdown still adds up.
    perf::Platform slow = p;
    slow.ringGBps = 1;
    slow.h2dGBps = 0.002;
    const perf::Prediction s
        = perf::predict(slow, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    QVERIFY(s.breakdownMin.communication > 0);
    QVERIFY(s.breakdownMin.input > 0);
    CLAB_NEAR(s.steps * s.stepS / 60 + s.evaluationS / 60, *s.timeToTrainMin);
    const double sum = s.breakdownMin.compute + s.breakdownMin.communication + s.breakdownMin.input
                       + s.breakdownMin.evaluation;
    CLAB_NEAR(sum, *s.timeToTrainMin);

    // A workload without a convergence table: no time to train, and a note says so.
    workload::Workload none = testWorkload();
    none.convergence.clear();
    const perf::Prediction n = perf::predict(p, none, 64, perf::Precision::Fp16, testCalibration());
    QVERIFY(!n.samples);
    QVERIFY(!n.timeToTrainMin);
    QVERIFY(hasNote(n, "no convergence table"));
    CLAB_NEAR(n.stepS, 0.326);
}

void TestPerf::samplesAndSteps()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    // Half-way between 100 (20,000) and 200 (30,000): 25,000 samples, ceil(25000/150) = 167.
    perf::Prediction r
        = perf::predict(p, testWorkload(), 150, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.samples.value_or(-1), 25000.0);
    QCOMPARE(r.steps, 167.0);
    // Exactly divisible: 30,000 / 200 = 150 steps.
    r = perf::predict(p, testWorkload(), 200, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.samples.value_or(-1), 30000.0);
    QCOMPARE(r.steps, 150.0);
    // Above the table: samples in proportion to the batch, 30,000 x 400/200.
    r = perf::predict(p, testWorkload(), 400, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.samples.value_or(-1), 60000.0);
    QCOMPARE(r.steps, 150.0);
}

void TestPerf::samplesToConvergeFollowsTable()
{
    // Every builtin table: its own points (or the running maximum where the table dips), and
    // beyond the largest point samples grow in proportion to the batch.
    int tables = 0;
    for (const auto &[id, w] : workload::Library::builtin().all()) {
        if (w.convergence.empty()) {
            QVERIFY(!workload::samplesToConverge(w, 1024));
            continue;
        }
        ++tables;
        double runningMax = 0; // a dip in the table is floored at the samples of a smaller batch
        for (const auto &c : w.convergence) {
            runningMax = std::max(runningMax, c.samples);
            QCOMPARE(workload::samplesToConverge(w, c.globalBatch).value_or(-1), runningMax);
        }
        const auto &last = w.convergence.back();
        QCOMPARE(workload::samplesToConverge(w, 2 * last.globalBatch).value_or(-1),
                 std::max(runningMax, 2 * last.samples));
        QCOMPARE(workload::samplesToConverge(w, 1).value_or(-1), w.convergence.front().samples);
    }
    QCOMPARE(tables, 10);
}

void TestPerf::moreRingBandwidthNeverSlower()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Calibration &builtin = perf::Calibration::builtin();
    for (const char *id : {"resnet50", "bert_large", "dlrm"}) {
        const workload::Workload &w = builtinWorkload(id);
        double previous = std::numeric_limits<double>::infinity();
        for (double ring : {0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 1000.0}) {
            perf::Platform p = testPlatform(gpu);
            p.nodes = 2;
            p.networkGBps = 20;
            p.ringGBps = ring;
            const perf::Prediction r = perf::predict(p, w, 256, perf::Precision::Fp16, builtin);
            QVERIFY2(r.stepS <= previous, id);
            previous = r.stepS;
        }
    }
}

void TestPerf::moreH2dNeverSlower()
{
    const catalog::Gpu gpu = testGpu();
    for (const char *id : {"resnet50", "unet3d", "bert_large"}) {
        const workload::Workload &w = builtinWorkload(id);
        double previous = std::numeric_limits<double>::infinity();
        for (double h2d : {0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 100.0}) {
            perf::Platform p = testPlatform(gpu);
            p.h2dGBps = h2d;
            const perf::Prediction r
                = perf::predict(p, w, 256, perf::Precision::Fp16, perf::Calibration::builtin());
            QVERIFY2(r.stepS <= previous, id);
            previous = r.stepS;
        }
        QVERIFY(previous < std::numeric_limits<double>::infinity());
    }
}

void TestPerf::moreHostCoresNeverSlower()
{
    const catalog::Gpu gpu = testGpu();
    for (const char *id : {"resnet50", "maskrcnn", "unet3d", "rnnt"}) {
        const workload::Workload &w = builtinWorkload(id);
        double previous = std::numeric_limits<double>::infinity();
        for (int cores : {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
            perf::Platform p = testPlatform(gpu);
            p.hostCores = cores;
            const perf::Prediction r
                = perf::predict(p, w, 256, perf::Precision::Fp16, perf::Calibration::builtin());
            QVERIFY2(r.stepS <= previous, id);
            previous = r.stepS;
        }
    }
}

void TestPerf::largerBatchNeverFewerSamples()
{
    // A larger global batch never converges in fewer samples: samplesToConverge is monotone in
    // the batch for every builtin workload with a table. (Measured reference means are noisy; a
    // table that dips must not make a larger batch look cheaper than a smaller one.)
    QStringList violations;
    for (const auto &[id, w] : workload::Library::builtin().all()) {
        if (w.convergence.empty())
            continue;
        const int top = 2 * w.convergence.back().globalBatch;
        double previous = 0;
        int previousBatch = 0;
        for (int g = 1; g <= top; ++g) {
            const double s = workload::samplesToConverge(w, g).value_or(-1);
            if (s < previous) {
                violations << QStringLiteral("%1: %2 samples at batch %3 < %4 at batch %5")
                                  .arg(QString::fromStdString(id))
                                  .arg(s, 0, 'f', 0)
                                  .arg(g)
                                  .arg(previous, 0, 'f', 0)
                                  .arg(previousBatch);
                break;
            }
            previous = s;
            previousBatch = g;
        }
    }
    QVERIFY2(violations.isEmpty(), qPrintable(violations.join(QStringLiteral("; "))));
}

void TestPerf::moreGpusNeverLowerThroughput()
{
    // The same GPU at the same local batch: more of them never lowers the system's throughput.
    // Only configurations that fit count (DLRM's 100 GB of tables do not fit on one 80 GB GPU).
    QStringList violations;
    for (const char *id : {"resnet50", "bert_large", "dlrm", "unet3d"}) {
        const workload::Workload &w = builtinWorkload(id);
        const int local = std::string(id) == "dlrm" ? 4096 : std::string(id) == "unet3d" ? 2 : 32;
        for (auto intra : {perf::IntraNode::NvSwitch, perf::IntraNode::Pcie}) {
            const char *gpu = intra == perf::IntraNode::Pcie ? "A100-PCIe-80GB" : "A100-SXM4-80GB";
            double previous = 0;
            int previousGpus = 0;
            // Powers of two fill the synthesized node's switches and sockets evenly. A third GPU
            // on the other socket really does slow a PCIe ring (it must cross sockets), so 3 and
            // 6 would measure topology, not this property.
            for (int gpus : {1, 2, 4, 8}) {
                perf::SystemSpec spec;
                spec.gpu = gpu;
                spec.gpusPerNode = gpus;
                spec.intraNode = intra;
                const perf::Prediction r
                    = predictBuiltin(perf::platformOf(spec, cat()), w, local * gpus);
                if (!r.fits)
                    continue;
                if (r.throughput < previous)
                    violations << QStringLiteral("%1 on %2: %3/s at %4 GPUs < %5/s at %6")
                                      .arg(QLatin1String(id), QLatin1String(gpu))
                                      .arg(r.throughput, 0, 'g', 4)
                                      .arg(gpus)
                                      .arg(previous, 0, 'g', 4)
                                      .arg(previousGpus);
                previous = r.throughput;
                previousGpus = gpus;
            }
        }
    }
    QVERIFY2(violations.isEmpty(), qPrintable(violations.join(QStringLiteral("; "))));
}

void TestPerf::sxmNeverSlowerThanPcie()
{
    // The same chip in its SXM form (400 W, higher sustained clocks) never computes slower than
    // in its PCIe card (250-300 W): one GPU, so only the compute term counts.
    const std::pair<const char *, const char *> pairs[] = {{"A100-SXM4-40GB", "A100-PCIe-40GB"},
                                                           {"A100-SXM4-80GB", "A100-PCIe-80GB"},
                                                           {"H100-SXM5-80GB", "H100-PCIe-80GB"}};
    QStringList slower;
    for (const auto &[sxm, pcie] : pairs) {
        for (const char *id : {"resnet50", "bert_large"}) {
            perf::SystemSpec spec;
            spec.gpusPerNode = 1;
            spec.gpu = sxm;
            const perf::Prediction a
                = predictBuiltin(perf::platformOf(spec, cat()), builtinWorkload(id), 256);
            spec.gpu = pcie;
            const perf::Prediction b
                = predictBuiltin(perf::platformOf(spec, cat()), builtinWorkload(id), 256);
            if (a.computeS > b.computeS)
                slower << QStringLiteral("%1 %2: %3 s vs %4 %5 s")
                              .arg(QLatin1String(id), QLatin1String(sxm))
                              .arg(a.computeS)
                              .arg(QLatin1String(pcie))
                              .arg(b.computeS);
        }
    }
    QVERIFY2(slower.isEmpty(), qPrintable(slower.join(QStringLiteral("; "))));
}

void TestPerf::gpt3NeedsModelParallelism()
{
    // GPT-3 175B: 175e9 x 16 B of training state = 2.8 TB; one node of 8 A100-40GB has 320 GB.
    const perf::Platform p = platformOfDesign(example("dgx-a100-nvswitch.clab"));
    QCOMPARE(p.gpusPerNode, 8);
    QCOMPARE(p.gpu->id, std::string("A100-SXM4-40GB"));
    const workload::Workload &w = builtinWorkload("gpt3");
    const perf::Plan plan = perf::choosePlan(p, w, 1536);
    // Data parallel cannot fit: the chosen plan must split the model.
    QVERIFY2(plan.tensor * plan.pipeline > 1,
             qPrintable(QStringLiteral("choosePlan picked tensor %1 x pipeline %2")
                            .arg(plan.tensor)
                            .arg(plan.pipeline)));

    // Forced data parallel: one sample needs 2.8e12 B of state + 4.8e9 B of activations + 2 GB.
    const perf::Prediction r = perf::predict(p, w, 1536, perf::Precision::Bf16,
                                             perf::Calibration::builtin(), {}, perf::Plan{1, 1});
    QCOMPARE(r.plan.tensor, 1);
    QCOMPARE(r.plan.pipeline, 1);
    QCOMPARE(r.microBatch, 1.0);
    CLAB_NEAR(r.requiredGB, 175e9 * 16 / 1e9 + 4.8 + 2);
    QCOMPARE(r.availableGB, 40.0);
    QVERIFY(!r.fits);
    QVERIFY2(hasNote(r, "does not fit", "2807 GB"), r.notes.empty() ? "" : r.notes.back().c_str());
    QVERIFY(hasNote(r, "does not fit", "40 GB"));
}

void TestPerf::gpt3FitsOnManyNodes()
{
    // 64 nodes of 8 A100-80GB: 2.8 TB / 64 shards = 43.75 GB + 2 GB fits; 32 shards (87.5 GB)
    // does not, so the smallest split that fits is tensor 8 (a node) x pipeline 8.
    perf::SystemSpec spec;
    spec.gpu = "A100-SXM4-80GB";
    spec.gpusPerNode = 8;
    spec.nodes = 64;
    spec.intraNode = perf::IntraNode::NvSwitch;
    spec.networkGbpsPerNode = 1600;
    spec.networkFamily = "infiniband";
    const perf::Platform p = perf::platformOf(spec, cat());
    const workload::Workload &w = builtinWorkload("gpt3");
    const perf::Plan plan = perf::choosePlan(p, w, 1536);
    QCOMPARE(plan.tensor, 8);
    QCOMPARE(plan.pipeline, 8);
    const perf::Prediction r
        = perf::predict(p, w, 1536, perf::Precision::Bf16, perf::Calibration::builtin());
    QCOMPARE(r.dataParallel, 8);
    QVERIFY(r.fits);
    QVERIFY(r.requiredGB <= 80);
    QVERIFY(!hasNote(r, "does not fit"));
}

QTEST_APPLESS_MAIN(TestPerf)
#include "tst_perf.moc"
