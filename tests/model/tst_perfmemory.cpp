// The performance model's memory and plans (model/perf): what a GPU holds, which tensor x pipeline
// split the model picks, and how tensor-parallel traffic and one-time costs show, worked by hand
// on the made-up GPU and platform of perftest.h.
#include "model/perftest.h"

using namespace clab;
using namespace clab::perftest;

class TestPerfMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void memoryGradientAccumulation();
    void frozenWeights();
    void tensorOverlapAndStart();
    void tensorParallelBytes();
};

void TestPerfMemory::memoryGradientAccumulation()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    w.activationBytesPerSample = 1e9;
    // 64 samples per GPU: 0.7 GB state (1e8 parameters: 4 B of 16-bit weights and gradients
    // on every GPU, the 12 B of master weights and moments a quarter each over the four
    // data-parallel replicas) + 64 GB activations + 2 GB does not fit in 40 GB; half (32) needs
    // 34.7 GB and does.
    perf::Prediction r
        = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{1, 1});
    QCOMPARE(r.localBatch, 64.0);
    QCOMPARE(r.microBatch, 32.0);
    CLAB_NEAR(r.requiredGB, 0.7 + 32 + 2);
    QCOMPARE(r.availableGB, 40.0);
    QVERIFY(r.fits);
    QVERIFY(!hasNote(r, "does not fit"));
    // 40 GB of activations per sample: data parallel, not even one sample fits ...
    w.activationBytesPerSample = 40e9;
    r = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{1, 1});
    QCOMPARE(r.microBatch, 1.0);
    CLAB_NEAR(r.requiredGB, 0.7 + 40 + 2);
    QVERIFY(!r.fits);
    QVERIFY(hasNote(r, "does not fit", "43 GB"));
    QVERIFY(hasNote(r, "does not fit", "40 GB"));
    // ... so the least model parallelism that fits splits it over two tensor-parallel GPUs:
    // 5e7 x (4 + 12 / 2) = 0.5 GB of state + 20 + 2 GB.
    const perf::Plan plan = perf::choosePlan(p, w, 256, perf::Precision::Fp16);
    QCOMPARE(plan.tensor, 2);
    QCOMPARE(plan.pipeline, 1);
    const perf::Prediction tp2
        = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration(), {}, plan);
    QCOMPARE(tp2.plan.tensor, 2);
    QCOMPARE(tp2.dataParallel, 2);
    QCOMPARE(tp2.localBatch, 128.0);
    QCOMPARE(tp2.microBatch, 1.0);
    CLAB_NEAR(tp2.requiredGB, 0.5 + 20 + 2);
    QVERIFY(tp2.fits);
    // The other way to fit: one GPU a replica that recomputes the activations of 9 % of its
    // layers, (42.7 - 40) / (42.7 - 2.7) = 0.0675, 7 % in whole percent, which needs 0.7 + 40 x
    // 0.93 + 2 = 39.9 GB. It costs 7 % of a forward pass (the workload's evaluation FLOPs over its
    // training FLOPs, 1e11 / 1e12) on the math and memory time, and saves TP 2's all-reduces: it is
    // faster, so predict takes it and says so.
    r = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.plan.tensor, 1);
    QCOMPARE(r.plan.pipeline, 1);
    CLAB_NEAR(r.plan.recompute, 0.07);
    CLAB_NEAR(r.requiredGB, 0.7 + 40 * 0.93 + 2);
    QVERIFY(r.fits);
    QVERIFY(r.stepS < tp2.stepS);
    QVERIFY(hasNote(r, "recomputed", "7 % of the layers"));
    const perf::Prediction bare
        = perf::predict(p, w, 256, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{1, 1});
    CLAB_NEAR(r.mathS, bare.mathS * (1 + 0.07 * 0.1));
    CLAB_NEAR(r.memoryS, bare.memoryS * (1 + 0.07 * 0.1));
    // A GPU too small to hold even the bare replica (2.7 GB) keeps tensor parallelism.
    catalog::Gpu small = testGpu();
    small.memGB = 2.5;
    r = perf::predict(testPlatform(small), w, 256, perf::Precision::Fp16, testCalibration());
    QVERIFY(r.plan.tensor > 1 || r.plan.pipeline > 1);
    QCOMPARE(r.plan.recompute, 0.0);
}

// A fine-tune's frozen base model: every replica holds its tensor x pipeline share, at 1 B a
// weight in FP8 and 2 B in 16 bits, and the plan is sized at the precision the run uses.
void TestPerfMemory::frozenWeights()
{
    catalog::Gpu gpu = testGpu();
    gpu.tflops.fp8 = 200;
    const perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    w.frozenParameters = 20e9;
    w.frozenBytesPerParam = 1;
    w.activationBytesPerSample = 1e9;
    // FP8: 20 GB frozen + 0.7 GB of trainable state (four replicas share the optimizer's) + 1 GB
    // of activations + 2 GB fit in 40 GB.
    perf::Prediction r = perf::predict(p, w, 4, perf::Precision::Fp8, testCalibration());
    QCOMPARE(r.plan.tensor, 1);
    CLAB_NEAR(r.requiredGB, 20 + 0.7 + 1 + 2);
    QVERIFY(r.fits);
    // 16 bits: 40 GB of frozen weights alone fill the GPU, so two GPUs split them, and a
    // replica's two samples fit in one pass: 20 + 0.5 + 2 x 0.5 + 2 GB.
    QCOMPARE(perf::choosePlan(p, w, 4, perf::Precision::Fp16).tensor, 2);
    r = perf::predict(p, w, 4, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.plan.tensor, 2);
    QCOMPARE(r.microBatch, 2.0);
    CLAB_NEAR(r.requiredGB, 20 + 0.5 + 1 + 2);
    // One sequence on two replicas: a whole sample each, unless the implementation splits
    // sequences (context parallelism), when each holds half of it and says so.
    r = perf::predict(p, w, 1, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.localBatch, 0.5);
    QCOMPARE(r.microBatch, 1.0);
    CLAB_NEAR(r.requiredGB, 20 + 0.5 + 0.5 + 2);
    QVERIFY(!hasNote(r, "context parallelism"));
    const perf::Prediction whole = r;
    w.contextParallelMax = 2;
    r = perf::predict(p, w, 1, perf::Precision::Fp16, testCalibration());
    // A split sequence's kernels run at 0.78 of the whole-sample rate (MLPerf LoRA, CP1 -> CP2).
    CLAB_NEAR(r.mathS, whole.mathS / 0.78);
    CLAB_NEAR(r.memoryS, whole.memoryS / 0.78);
    QCOMPARE(r.plan.tensor, 2);
    QCOMPARE(r.microBatch, 0.5);
    CLAB_NEAR(r.requiredGB, 20 + 0.5 + 0.25 + 2);
    QVERIFY(hasNote(r, "split over 2 GPUs (context parallelism)"));
    // Never more than two replicas to a sequence: rather than a quarter sample a replica on
    // four, the chooser splits tensors in pairs (two replicas, half a sample each), even where the
    // weights would fit one GPU.
    QCOMPARE(perf::choosePlan(p, w, 1, perf::Precision::Fp8).tensor, 2);
    w.frozenParameters = 1e9; // small enough for tensor 1
    QCOMPARE(perf::choosePlan(p, w, 1, perf::Precision::Fp8).tensor, 2);
    QCOMPARE(perf::choosePlan(p, w, 2, perf::Precision::Fp8).tensor, 1);
    w.frozenParameters = 20e9;
    w.contextParallelMax = 1;
    // FP8 asked of an architecture the implementation runs in 16 bits: sized at 16 bits too.
    w.fp8Architectures = {gpu.arch + " not"};
    r = perf::predict(p, w, 4, perf::Precision::Fp8, testCalibration());
    QCOMPARE(r.plan.tensor, 2);
    QVERIFY(r.precision != perf::Precision::Fp8);
    w.fp8Architectures = {gpu.arch};
    QCOMPARE(perf::predict(p, w, 4, perf::Precision::Fp8, testCalibration()).plan.tensor, 1);
    w.fp8Architectures.clear();
    // FP8 asked of a GPU without it: sized and run at 16 bits.
    gpu.tflops.fp8.reset();
    r = perf::predict(p, w, 4, perf::Precision::Fp8, testCalibration());
    QCOMPARE(r.plan.tensor, 2);
    QVERIFY(r.precision != perf::Precision::Fp8);
}

// Tensor parallel at 2 on four test GPUs, batch 64: a replica's 32 samples keep 32 x 1e8 / 2 B
// a GPU, all-gathered and reduced across the pair: 2 x 1/2 x 1.6e9 / 100e9 = 16 ms, exposed unless
// the implementation overlaps it with the GEMMs over NVLink, which hides a third of it (its 0.4 s
// of math could hide 0.6 x 0.4 s).
void TestPerfMemory::tensorOverlapAndStart()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    const perf::Plan pair{2, 1};
    auto run = [&](const char *link) {
        p.linkKey = link;
        return perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration(), {}, pair);
    };
    const perf::Prediction exposed = run("nvswitch");
    CLAB_NEAR(exposed.mathS, 0.4);
    w.tensorParallelOverlap = true;
    const perf::Prediction hidden = run("nvswitch");
    CLAB_NEAR(exposed.exposedCommS - hidden.exposedCommS, 0.016 / 3);
    CLAB_NEAR(run("nvlink-mesh").exposedCommS, hidden.exposedCommS);
    CLAB_NEAR(run("pcie").exposedCommS, exposed.exposedCommS); // no userbuffers over PCIe

    // A measured start-up of 30 s adds half a minute, once, to the compute.
    w.startSeconds = 30;
    const perf::Prediction started = run("nvswitch");
    QVERIFY(hidden.timeToTrainMin && started.timeToTrainMin);
    CLAB_NEAR(*started.timeToTrainMin - *hidden.timeToTrainMin, 0.5);
    CLAB_NEAR(started.breakdownMin.compute - hidden.breakdownMin.compute, 0.5);
}

// A transformer's tensor-parallel collectives carry whole s x h activations on every GPU of the
// group (4 a layer), not a 1/T share of the activation memory; a stage carries its layers' share.
void TestPerfMemory::tensorParallelBytes()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu); // 4 GPUs, 100 GB/s ring
    workload::Workload w = testWorkload();      // 1e8 B of activations a sample
    auto comm = [&](perf::Plan plan) {
        return perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration(), {}, plan)
            .communicationS;
    };
    const double proxy = comm({2, 1});
    w.tensorParallelBytesPerSample = 4e8;
    // Tensor 2, data 2: 32 samples a replica x 4e8 B, ring 2 x 1/2 at 100 GB/s = 0.128 s, where
    // the activation share gave 32 x 1e8 / 2 at the same rate = 0.016 s.
    CLAB_NEAR(comm({2, 1}) - proxy, 0.128 - 0.016);
    // Tensor 2 x pipeline 2, one replica of 64 samples: each stage carries half the layers.
    const perf::Prediction staged
        = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{2, 2});
    w.tensorParallelBytesPerSample = 0;
    const perf::Prediction stagedProxy
        = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{2, 2});
    // 64 samples in micro-batches of one over 2 stages: (64 + 1) / 64 of the stage's time.
    const double bubble = 65.0 / 64;
    CLAB_NEAR(staged.communicationS - stagedProxy.communicationS,
              64 * 4e8 / 2 / 100e9 * bubble - 64 * 1e8 / 2 / 100e9);
    // Half the layers recomputed: their two forward collectives run again, 1.25x the bytes.
    w.tensorParallelBytesPerSample = 4e8;
    const perf::Plan recomputed{2, 1, 0.5};
    const perf::Prediction again
        = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration(), {}, recomputed);
    CLAB_NEAR(again.communicationS - proxy, 1.25 * 0.128 - 0.016);
}

QTEST_APPLESS_MAIN(TestPerfMemory)
#include "tst_perfmemory.moc"
