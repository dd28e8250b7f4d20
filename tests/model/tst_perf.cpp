// The performance model (model/perf): every term of predict() worked by hand on a made-up GPU
// and platform with round numbers (the properties any sane model keeps: tst_perfproperties.cpp;
// from step to time to train: tst_perftraining.cpp; memory and plans: tst_perfmemory.cpp).
#include "model/perftest.h"
#include "util/stats.h"

#include <cmath>

using namespace clab;
using namespace clab::perftest;

class TestPerf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void computeMathBound();
    void computeMemoryBound();
    void fp8AndSoftware();
    void warpMmaFlops();
    void matrixKernelFixedTime();
    void inputDecodeBound();
    void inputLoaders();
    void inputStorageBound();
    void pageCacheKeepsDataset();
    void inputH2dBound();
    void ringAllReduce();
    void exposedCommunication();
    void interNode();
    void alltoall();
    void evaluationAndTimeToTrain();
};

// The hand-worked step of the test workload on four test GPUs at global batch 64 (16 per GPU):
// math 16 x 1e12 / (80e12 x 0.5) = 0.4 s; memory 16 x 2e8 / 800e9 = 4 ms; optimizer sharded over
// the 4 replicas, 1e8 x 16 B x 2 / 4 / 800e9 = 1 ms; overhead 2 ms (one pass).
constexpr double kMath = 0.4, kMemory = 0.004, kOptimizer = 0.001, kOverhead = 0.002;
constexpr double kCompute = kMath + kMemory + kOptimizer + kOverhead;
// Ring of 4 at 100 GB/s: 2 x 3/4 x 2e8 B / 100e9, and 6 x 10 us for each of the 8 buckets of
// 25 MB the 2e8 B leave in (every bucket is a collective of its own). The last one cannot hide:
// an eighth of the bytes and one collective's latency.
constexpr double kRingLatency = 6 * 10e-6;
constexpr double kRingBytes = 1.5 * 2e8 / 100e9;
constexpr double kRing = kRingBytes + 8 * kRingLatency;
constexpr double kLastBucket = kRingBytes / 8 + kRingLatency;

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
    QCOMPARE(r.gemmEfficiency, 0.5);
    CLAB_NEAR(r.mathS, kMath);
    CLAB_NEAR(r.memoryS, kMemory);
    CLAB_NEAR(r.optimizerS, kOptimizer);
    CLAB_NEAR(r.overheadS, kOverhead);
    CLAB_NEAR(r.computeS, kCompute);
    CLAB_NEAR(r.stepS, kCompute + kLastBucket);
    CLAB_NEAR(r.throughput, 64 / (kCompute + kLastBucket));
    // % of peak: model FLOPs over step time and the FP16 dense peak of the 4 GPUs, and never
    // above what the measured GEMM rate allows (80 %).
    CLAB_NEAR(r.utilization, r.throughput * 1e12 / (4 * 100e12));
    QVERIFY(r.utilization < 0.8 * r.gemmEfficiency);
}

void TestPerf::computeMemoryBound()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    w.trainFlopsPerSample = 1e6; // math 16e6 / 40e12 = 0.4 us
    const perf::Prediction r = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.computeS, 0.4e-6 + kMemory + kOptimizer + kOverhead);
    // Twice the measured memory bandwidth halves the memory and optimizer terms only: the sum,
    // not a roofline's max.
    catalog::Gpu faster = gpu;
    faster.achieved.memBwGBps = 1600;
    const perf::Platform q = testPlatform(faster);
    const perf::Prediction f = perf::predict(q, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(f.computeS, 0.4e-6 + kMemory / 2 + kOptimizer / 2 + kOverhead);
    // ... unless the SMs cannot issue that much. A Hopper's SM has 128 FP32 lanes, so 20 TFLOPS
    // of FP32 are 20e12 / 256 = 78.1e9 SM cycles a second; at 12.4 B a cycle the element-wise
    // kernels reach 969 GB/s: below 1,600 GB/s of memory, above 800. The optimizer's update
    // still streams at the memory's rate.
    catalog::Gpu hopper = faster;
    hopper.arch = "Hopper";
    const perf::Prediction h
        = perf::predict(testPlatform(hopper), w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(h.memoryS, kMemory * 800e9 / (12.4 * 20e12 / 256));
    CLAB_NEAR(h.optimizerS, kOptimizer / 2);
    QVERIFY(hasNote(h, "at its SMs' rate, 969 GB/s, not its memory's 1600"));
    hopper.achieved.memBwGBps = 800;
    const perf::Prediction slow
        = perf::predict(testPlatform(hopper), w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(slow.memoryS, kMemory);
    QVERIFY(!hasNote(slow, "SMs' rate"));
    // Without an FP32 figure the SMs' rate is unknown: the memory's rate, as before.
    hopper.achieved.memBwGBps = 1600;
    hopper.tflops.fp32.reset();
    const perf::Prediction unknown
        = perf::predict(testPlatform(hopper), w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(unknown.memoryS, kMemory / 2);
    // FP32: the FP32 GEMM rate (16 TFLOPS) and 4-byte activations, twice the memory traffic.
    const perf::Prediction wide
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp32, testCalibration());
    CLAB_NEAR(wide.mathS, 16 * 1e12 / (16e12 * 0.5));
    CLAB_NEAR(wide.memoryS, 2 * kMemory);
    // The memory scale of the calibration multiplies the memory-bound bytes.
    perf::Calibration c = testCalibration();
    c.bench["w"].memoryScale = 3;
    const perf::Prediction scaled = perf::predict(p, w, 64, perf::Precision::Fp16, c);
    CLAB_NEAR(scaled.memoryS, 3 * kMemory);
}

void TestPerf::fp8AndSoftware()
{
    // FP8 on a GPU that has it: the FP8 share of the FLOPs at the measured FP8 rate, the rest at
    // the 16-bit rate; "% of peak" against the FP8 peak.
    catalog::Gpu gpu = testGpu();
    gpu.tflops.fp8 = 200;
    gpu.achieved.gemmTflops.fp8 = 140;
    const perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    w.fp8Share = 0.75;
    const perf::Prediction r = perf::predict(p, w, 64, perf::Precision::Fp8, testCalibration());
    CLAB_NEAR(r.mathS, 16 * 1e12 * (0.25 / 80e12 + 0.75 / 140e12) / 0.5);
    CLAB_NEAR(r.utilization, r.throughput * 1e12 / (4 * 200e12));
    CLAB_NEAR(r.memoryS, kMemory);
    // Its casts and transposes add their bytes to the memory-bound traffic, at the calibration's
    // memory scale: 16 x (2e8 + 1e8) B x 2 / 800e9 = 12 ms; a 16-bit run of it does not pay them.
    workload::Workload cast = w;
    cast.fp8CastBytesPerSample = 1e8;
    perf::Calibration scaled = testCalibration();
    scaled.bench["w"].memoryScale = 2;
    CLAB_NEAR(perf::predict(p, cast, 64, perf::Precision::Fp8, scaled).memoryS, 0.012);
    CLAB_NEAR(perf::predict(p, cast, 64, perf::Precision::Fp16, scaled).memoryS, 2 * kMemory);
    // Without FP8 tensor cores everything runs at 16 bits.
    const catalog::Gpu old = testGpu();
    const perf::Prediction f
        = perf::predict(testPlatform(old), w, 64, perf::Precision::Fp8, testCalibration());
    CLAB_NEAR(f.mathS, kMath);
    // An implementation that runs FP8 only at 32 samples a GPU or more runs these 16 in 16 bits,
    // and says so; at 128 samples a GPU (32 each) it runs FP8.
    workload::Workload picky = w;
    picky.fp8MinLocalBatch = 32;
    perf::Prediction g = perf::predict(p, picky, 64, perf::Precision::Fp8, testCalibration());
    QVERIFY(g.precision != perf::Precision::Fp8);
    CLAB_NEAR(g.mathS, kMath);
    QVERIFY(hasNote(g, "runs FP8 only at 32 or more samples a GPU, not 16"));
    g = perf::predict(p, picky, 128, perf::Precision::Fp8, testCalibration());
    QCOMPARE(g.precision, perf::Precision::Fp8);
    CLAB_NEAR(g.mathS, 2 * 16 * 1e12 * (0.25 / 80e12 + 0.75 / 140e12) / 0.5);
    // ... and only on the architectures it names.
    picky.fp8MinLocalBatch = 0;
    picky.fp8Architectures = {"OtherArch"};
    g = perf::predict(p, picky, 64, perf::Precision::Fp8, testCalibration());
    CLAB_NEAR(g.mathS, kMath);
    QVERIFY(hasNote(g, "runs FP8 only on OtherArch GPUs, not TestArch"));
    // A software stack twice as slow doubles memory, optimizer and overhead, and halves the
    // GEMM efficiency; a faster one cannot push the efficiency past the measured GEMM rate.
    perf::Calibration c = testCalibration();
    c.software["slow"] = 2;
    c.software["fast"] = 0.25;
    const perf::Prediction slow
        = perf::predict(testPlatform(old), testWorkload(), 64, perf::Precision::Fp16, c, "slow");
    CLAB_NEAR(slow.computeS, 2 * kMath + 2 * (kMemory + kOptimizer + kOverhead));
    const perf::Prediction fast
        = perf::predict(testPlatform(old), testWorkload(), 64, perf::Precision::Fp16, c, "fast");
    QCOMPARE(fast.gemmEfficiency, 1.0);
    CLAB_NEAR(fast.mathS, kMath / 2);
    for (const std::string &e : fast.extrapolation) // only "outside the convergence table"
        QVERIFY(e.find("software") == std::string::npos);
    // A stack the calibration does not know is said, not silently replaced.
    const perf::Prediction unknown = perf::predict(testPlatform(old), testWorkload(), 64,
                                                   perf::Precision::Fp16, c, "mlperf-9.9");
    bool said = false;
    for (const std::string &e : unknown.extrapolation)
        said = said || e.find("mlperf-9.9") != std::string::npos;
    QVERIFY(said);
}

void TestPerf::warpMmaFlops()
{
    // A GPU whose warp-level mma.sync kernels reach half its measured GEMM rate (a faster
    // warpgroup path, as Hopper's): a workload built on such kernels does its math at 40 TFLOP/s
    // x 0.5 efficiency, twice the time; its memory terms do not move.
    catalog::Gpu gpu = testGpu();
    gpu.achieved.warpMmaShare = 0.5;
    workload::Workload warp = testWorkload();
    warp.warpMmaFlopShare = 1;
    perf::Prediction r
        = perf::predict(testPlatform(gpu), warp, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.mathS, 2 * kMath);
    CLAB_NEAR(r.memoryS, kMemory);
    CLAB_NEAR(r.optimizerS, kOptimizer);
    // The efficiency reported is the share of the GEMM rate really reached, and a note says why.
    CLAB_NEAR(r.gemmEfficiency, 0.25);
    QVERIFY(hasNote(r, "100 % of", "warp-level mma.sync kernels, at 50 %"));
    // A quarter of the FLOPs on that path: 0.75 + 0.25 / 0.5 = 1.25 times the math.
    warp.warpMmaFlopShare = 0.25;
    r = perf::predict(testPlatform(gpu), warp, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.mathS, 1.25 * kMath);
    warp.warpMmaFlopShare = 1;
    // FP32 runs on the plain cores, which have no faster path to lose.
    r = perf::predict(testPlatform(gpu), warp, 64, perf::Precision::Fp32, testCalibration());
    const perf::Prediction plain = perf::predict(testPlatform(gpu), testWorkload(), 64,
                                                 perf::Precision::Fp32, testCalibration());
    CLAB_NEAR(r.mathS, plain.mathS);
    // Large GEMMs on the same GPU, and the same kernels on a GPU without a faster path (its
    // measured GEMMs are such kernels): the measured rate.
    r = perf::predict(testPlatform(gpu), testWorkload(), 64, perf::Precision::Fp16,
                      testCalibration());
    CLAB_NEAR(r.mathS, kMath);
    r = perf::predict(testPlatform(testGpu()), warp, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.mathS, kMath);
    // A Hopper without the figure (a user's part) takes the shipped Hopper parts' measured share.
    catalog::Gpu hopper = testGpu();
    hopper.arch = "Hopper";
    const catalog::Gpu *h100 = catalog::Catalog::builtin().gpu("H100-SXM5-80GB");
    QVERIFY(h100 && h100->achieved.warpMmaShare && *h100->achieved.warpMmaShare < 1);
    r = perf::predict(testPlatform(hopper), warp, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.mathS, kMath / *h100->achieved.warpMmaShare);
    QVERIFY(hasNote(r, "warp-level", "as measured Hopper parts reach"));
}

void TestPerf::matrixKernelFixedTime()
{
    // 100 matrix kernels a pass at 10 us each: 1 ms on top of the fitted 2 ms overhead, whatever
    // the batch (a pass of 32 samples a GPU pays it once, as one of 16 does).
    catalog::Gpu gpu = testGpu();
    gpu.achieved.gemmFixedUs = 10;
    workload::Workload w = testWorkload();
    w.matrixKernelsPerPass = 100;
    perf::Prediction r
        = perf::predict(testPlatform(gpu), w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.kernelFixedS, 1e-3);
    CLAB_NEAR(r.overheadS, kOverhead + 1e-3);
    CLAB_NEAR(r.mathS, kMath);
    r = perf::predict(testPlatform(gpu), w, 128, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.kernelFixedS, 1e-3);
    CLAB_NEAR(r.mathS, 2 * kMath);
    // It is the GPU's time, not the software's: a stack twice as slow leaves it alone.
    perf::Calibration slow = testCalibration();
    slow.software["slow"] = 2;
    r = perf::predict(testPlatform(gpu), w, 64, perf::Precision::Fp16, slow, "slow");
    CLAB_NEAR(r.kernelFixedS, 1e-3);
    CLAB_NEAR(r.overheadS, 2 * kOverhead + 1e-3);
    // Kernels not counted: nothing added.
    r = perf::predict(testPlatform(gpu), testWorkload(), 64, perf::Precision::Fp16,
                      testCalibration());
    QCOMPARE(r.kernelFixedS, 0.0);
    // A Hopper without its own figure (a user's part) takes the median of the shipped Hopper
    // parts' and says so; a GPU of an architecture nobody measured, the median of its maker's
    // measured parts (NVIDIA's here: AMD's CDNA parts stay out).
    catalog::Gpu hopper = testGpu();
    hopper.arch = "Hopper";
    std::vector<double> hoppers, all;
    for (const auto &[id, g] : catalog::Catalog::builtin().gpus()) {
        if (!g.achieved.gemmFixedUs || g.arch.starts_with("CDNA"))
            continue;
        all.push_back(*g.achieved.gemmFixedUs);
        if (g.arch == "Hopper")
            hoppers.push_back(*g.achieved.gemmFixedUs);
    }
    QVERIFY(hoppers.size() >= 2 && all.size() > hoppers.size());
    r = perf::predict(testPlatform(hopper), w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.kernelFixedS, 100 * median(hoppers) * 1e-6);
    QVERIFY(hasNote(r, "no measured matrix-kernel fixed time", "as measured Hopper parts take"));
    r = perf::predict(testPlatform(testGpu()), w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.kernelFixedS, 100 * median(all) * 1e-6);
    QVERIFY(hasNote(r, "no measured matrix-kernel fixed time", "the measured GPUs' median"));
}

void TestPerf::inputDecodeBound()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.hostCores = 2;
    workload::Workload w = testWorkload();
    w.loaders.front().decodeCoreSecondsPerSample = 0.02;
    const perf::Prediction r = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    // 64 samples per node x 20 ms / 2 cores = 0.64 s; copy 16 x 1e5 / 10e9 = 0.16 ms.
    CLAB_NEAR(r.inputS, 0.64);
    CLAB_NEAR(r.stallS, 0.64 - (kCompute + kLastBucket));
    CLAB_NEAR(r.stepS, 0.64);
    CLAB_NEAR(r.throughput, 64 / 0.64);
    // With 64 cores: 20 ms, hidden behind compute.
    p.hostCores = 64;
    const perf::Prediction many = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(many.inputS, 64 * 0.02 / 64);
    QCOMPARE(many.stallS, 0.0);
}

void TestPerf::inputLoaders()
{
    // A GPU decoder sends the compressed sample; a CPU loader the decoded crop, with more CPU.
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.h2dGBps = 0.01; // 10 MB/s per GPU
    p.hostCores = 4;
    workload::Workload w = testWorkload();
    w.loaders = {{"gpu", 1e-4, 1e4}, {"cpu", 0.01, 6e5}};
    perf::Request request;
    request.globalBatch = 64;
    request.precision = perf::Precision::Fp16;
    perf::Prediction r = perf::predict(p, w, request, testCalibration());
    QCOMPARE(r.loader, std::string("gpu"));
    // copy 16 x 1e4 / 1e7 = 16 ms; decode 64 x 0.1 ms / 4 = 1.6 ms.
    CLAB_NEAR(r.inputS, 16 * 1e4 / 1e7);
    request.loader = "cpu";
    r = perf::predict(p, w, request, testCalibration());
    QCOMPARE(r.loader, std::string("cpu"));
    // copy 16 x 6e5 / 1e7 = 0.96 s; decode 64 x 10 ms / 4 = 0.16 s.
    CLAB_NEAR(r.inputS, 16 * 6e5 / 1e7);
    CLAB_NEAR(r.stepS, 0.96);
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

void TestPerf::pageCacheKeepsDataset()
{
    // 10 MB/s of drives for 64 samples of 100 kB a step: 0.64 s, five times the compute. A
    // dataset of 6,400 samples (0.64 GB) in the page cache of a 100 GB host is read from the
    // drives once, in 6400 / 64 = 100 steps; later steps read memory.
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    p.storageGBps = 0.01;
    p.hostMemGB = 100;
    workload::Workload w = testWorkload();
    w.datasetSamples = 6400;
    const perf::Prediction r = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    const double step = kCompute + kLastBucket;
    CLAB_NEAR(r.stepS, step);
    QCOMPARE(r.stallS, 0.0);
    CLAB_NEAR(r.coldInputS, 0.64);
    CLAB_NEAR(r.coldSteps, 100.0);
    QVERIFY(hasNote(r, "fits in the page cache"));
    // The run (313 steps, as in evaluationAndTimeToTrain) pays the first pass's stall once.
    CLAB_NEAR(r.breakdownMin.input, 100 * (0.64 - step) / 60);
    CLAB_NEAR(*r.timeToTrainMin, (313 * step + 100 * (0.64 - step) + r.evaluationS) / 60);

    // A run shorter than the first pass stalls on every step.
    w.datasetSamples = 1e5;
    const perf::Prediction longer
        = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(longer.coldSteps, 313.0);
    CLAB_NEAR(longer.breakdownMin.input, 313 * (0.64 - step) / 60);

    // Past half the host's memory (0.64 GB against 0.5 GB of a 1 GB host), or on a host of
    // unknown memory, the drives are read every epoch.
    w.datasetSamples = 6400;
    for (const double memGB : {1.0, 0.0}) {
        p.hostMemGB = memGB;
        const perf::Prediction every
            = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
        CLAB_NEAR(every.inputS, 0.64);
        CLAB_NEAR(every.stepS, 0.64);
        QCOMPARE(every.coldSteps, 0.0);
        QCOMPARE(hasNote(every, "host memory unknown"), memGB == 0);
    }
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
    CLAB_NEAR(r.stallS, 1.6 - (kCompute + kLastBucket));
    CLAB_NEAR(r.stepS, 1.6);
}

void TestPerf::ringAllReduce()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.allreduceS, kRing);
    CLAB_NEAR(r.communicationS, kRing);
    QCOMPARE(r.alltoallS, 0.0);
    // FP32 gradients are twice the bytes, in twice the buckets.
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp32, testCalibration());
    CLAB_NEAR(r.communicationS, 1.5 * 4e8 / 100e9 + 16 * kRingLatency);
    // Two GPUs: (n-1)/n = 1/2, and 2 x 10 us a bucket.
    perf::Platform two = p;
    two.gpusPerNode = 2;
    r = perf::predict(two, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.communicationS, 1.0 * 2e8 / 100e9 + 8 * 2 * 10e-6);
    // One GPU: nothing to reduce.
    perf::Platform one = p;
    one.gpusPerNode = 1;
    r = perf::predict(one, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.communicationS, 0.0);
    QCOMPARE(r.exposedCommS, 0.0);
}

void TestPerf::exposedCommunication()
{
    const catalog::Gpu gpu = testGpu();
    perf::Platform p = testPlatform(gpu);
    // Fast ring: the backward window (0.6 x 2/3 x 0.404 s) hides all but the last bucket.
    perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.exposedCommS, kLastBucket);
    // Slow ring, 1 GB/s: 0.3 s + 8 x 60 us, of which 0.6 x 2/3 x (math + memory) hides.
    p.ringGBps = 1;
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    const double comm = 1.5 * 2e8 / 1e9 + 8 * kRingLatency;
    const double window = 2.0 / 3.0 * (kMath + kMemory);
    CLAB_NEAR(r.communicationS, comm);
    CLAB_NEAR(r.exposedCommS, comm - 0.6 * window);
    CLAB_NEAR(r.stepS, kCompute + comm - 0.6 * window);
    // No overlap: all of it shows.
    perf::Calibration c = testCalibration();
    c.overlap = 0;
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, c);
    CLAB_NEAR(r.exposedCommS, comm);
    // An implementation that reduces after the whole backward pass (MLPerf BERT's one-block
    // distributed LAMB) shows all of it (one collective) even with the calibration's overlap, on
    // a fast ring too.
    workload::Workload after = testWorkload();
    after.allreduceAfterBackward = true;
    const double once = 1.5 * 2e8 / 1e9 + kRingLatency;
    r = perf::predict(p, after, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.exposedCommS, once);
    CLAB_NEAR(r.stepS, kCompute + once);
    r = perf::predict(testPlatform(gpu), after, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.exposedCommS, kRingBytes + kRingLatency);
    // A distributed optimizer (MLPerf Stable Diffusion): the reduce-scatter half hides in
    // buckets as above, the parameter all-gather half after the step shows whole. On the slow
    // ring 0.6 x the window (0.16 s) hides all of the 0.15 s reduce-scatter but its last bucket.
    workload::Workload sharded = testWorkload();
    sharded.parameterGatherAfterStep = true;
    r = perf::predict(p, sharded, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.exposedCommS, comm / 2 + 0.3 / 2 / 8 + kRingLatency / 2);
    r = perf::predict(testPlatform(gpu), sharded, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.exposedCommS, kRing / 2 + kRingBytes / 2 / 8 + kRingLatency / 2);
    // On a ring half as fast the reduce-scatter (0.3 s) outlasts what the window hides.
    perf::Platform slower = p;
    slower.ringGBps = 0.5;
    const double comm2 = 1.5 * 2e8 / 0.5e9 + 8 * kRingLatency;
    r = perf::predict(slower, sharded, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(r.exposedCommS, comm2 / 2 + (comm2 / 2 - 0.6 * window));
    // Its own bucket size: two buckets of 100 MB, of which the last waits.
    sharded.gradientBucketBytes = 1e8;
    r = perf::predict(testPlatform(gpu), sharded, 64, perf::Precision::Fp16, testCalibration());
    const double two = kRingBytes + 2 * kRingLatency;
    CLAB_NEAR(r.communicationS, two);
    CLAB_NEAR(r.exposedCommS, two / 2 + kRingBytes / 2 / 2 + kRingLatency / 2);
    // 80 MB buckets: 2.5 of them, and what shows is one full bucket's share (not a third, as
    // whole buckets would count it).
    sharded.gradientBucketBytes = 8e7;
    r = perf::predict(testPlatform(gpu), sharded, 64, perf::Precision::Fp16, testCalibration());
    const double twoAndHalf = kRingBytes + 2.5 * kRingLatency;
    CLAB_NEAR(r.exposedCommS, twoAndHalf / 2 + kRingBytes / 2 / 2.5 + kRingLatency / 2);
    // More gradient never shows less: across bucket multiples, the exposed time only grows.
    workload::Workload growing = testWorkload();
    double last = 0;
    for (double params = 1e7; params <= 2e8; params *= 1.1) {
        growing.allreduceParameters = params;
        r = perf::predict(testPlatform(gpu), growing, 64, perf::Precision::Fp16, testCalibration());
        QVERIFY2(r.exposedCommS >= last * (1 - 1e-12),
                 qPrintable(
                     QStringLiteral("%1: %2 after %3").arg(params).arg(r.exposedCommS).arg(last)));
        last = r.exposedCommS;
    }
    // Gradient accumulation: only the last micro-batch's backward pass can hide the traffic.
    // 16 samples x 3 GB of activations do not fit in 40 GB; 8-sample micro-batches (24 GB +
    // 1.6 GB of state + 2 GB) do: two passes, a window of half the step's math and memory.
    workload::Workload big = testWorkload();
    big.activationBytesPerSample = 3e9;
    r = perf::predict(p, big, 64, perf::Precision::Fp16, testCalibration(), {}, perf::Plan{1, 1});
    QCOMPARE(r.microBatch, 8.0);
    CLAB_NEAR(r.overheadS, 2 * kOverhead);
    CLAB_NEAR(r.exposedCommS, comm - 0.6 * window / 2);
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
    // Ring of 4 inside the node; between the two nodes 2 x 1/2 x 2e8 / 10e9, and 2 log2(2) x
    // 5 us more latency for each of the 8 buckets.
    const double inter = 1.0 * 2e8 / 10e9;
    const double latency = kRingLatency + 2 * 1 * 5e-6;
    CLAB_NEAR(r.communicationS, kRingBytes + inter + 8 * latency);
    // The window (0.6 x 2/3 x 0.202 s) hides all but the last bucket.
    CLAB_NEAR(r.exposedCommS, (kRingBytes + inter) / 8 + latency);
    // Four nodes: 2 x 3/4 x G / B + 2 log2(4) x latency.
    p.nodes = 4;
    const perf::Prediction four
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(four.communicationS, kRing + 1.5 * 2e8 / 10e9 + 8 * 2 * 2 * 5e-6);
    QCOMPARE(four.syncS, 0.0); // the calibration has no host jitter

    // Host jitter 0.25: each node's per-pass overhead (2 ms) varies by a quarter; the step waits
    // for the slowest of 4 nodes, 0.25 x 2 ms x sqrt(2 ln 4) = 0.833 ms, exposed in full.
    perf::Calibration jitter = testCalibration();
    jitter.hostJitter = 0.25;
    const perf::Prediction noisy
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, jitter);
    CLAB_NEAR(noisy.syncS, 0.25 * 2e-3 * std::sqrt(2 * std::log(4.0)));
    CLAB_NEAR(noisy.communicationS - four.communicationS, noisy.syncS);
    CLAB_NEAR(noisy.exposedCommS - four.exposedCommS, noisy.syncS);
    CLAB_NEAR(noisy.stepS - four.stepS, noisy.syncS);
    // More nodes wait longer, but slowly: 64 nodes sqrt(ln 64 / ln 4) = 1.73x as long as 4.
    p.nodes = 64;
    const perf::Prediction many
        = perf::predict(p, testWorkload(), 256, perf::Precision::Fp16, jitter);
    CLAB_NEAR(many.syncS / noisy.syncS, std::sqrt(std::log(64.0) / std::log(4.0)));
    // One node: its GPUs share one host, nothing to wait for.
    p.nodes = 1;
    QCOMPARE(perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, jitter).syncS, 0.0);
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
    // The 2 MB of gradients are one bucket, the last: it shows; nothing hides the all-to-all.
    CLAB_NEAR(r.exposedCommS, allreduce + a2a);
    // Memory: dense state 1e6 x (4 + 12 / 8) B (the optimizer's share over 8 replicas), sharded
    // tables 4 B per parameter over 8 GPUs, activations 8 x 1e4, 2 GB reserved.
    CLAB_NEAR(r.requiredGB, (1e6 * 5.5 + (1e10 - 1e6) / 8 * 4 + 8 * 1e4) / 1e9 + 2);
    QVERIFY(r.fits);
    // A single node: no network share.
    p.nodes = 1;
    const perf::Prediction single
        = perf::predict(p, w, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(single.alltoallS, 2 * 16 * 1e6 * 3.0 / 4 / 100e9);
}

void TestPerf::evaluationAndTimeToTrain()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    const perf::Prediction r
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    const double step = kCompute + kLastBucket;
    // Below the table's smallest batch: its 20,000 samples; ceil(20000 / 64) = 313 steps.
    QCOMPARE(r.samples.value_or(-1), 20000.0);
    QCOMPARE(r.steps, 313.0);
    // Evaluations at 10,000 and 20,000 samples. One is 1000 samples over 4 GPUs at a forward
    // pass's cost per FLOP: a third of (0.025 s + 0.25 ms) per training sample, times
    // 1e11 / (1e12 / 3), plus the fixed 0.5 s.
    QCOMPARE(r.evaluations, 2.0);
    const double pass = 250 * (0.025 + 2e8 / 800e9) / 3 * (1e11 / (1e12 / 3)) + 0.5;
    CLAB_NEAR(r.evaluationPassS, pass);
    CLAB_NEAR(r.evaluationS, 2 * pass);
    QVERIFY(r.timeToTrainMin.has_value());
    CLAB_NEAR(*r.timeToTrainMin, (313 * step + 2 * pass) / 60);
    CLAB_NEAR(r.breakdownMin.compute, 313 * kCompute / 60);
    CLAB_NEAR(r.breakdownMin.communication, 313 * kLastBucket / 60);
    QCOMPARE(r.breakdownMin.input, 0.0);
    CLAB_NEAR(r.breakdownMin.evaluation, 2 * pass / 60);

    // With a measured evaluation cost (MLPerf logs): a sample costs 0.9 training samples' math
    // and memory time, a pass 0.01 s more, and the calibration's fixed 0.5 s no longer counts.
    workload::Workload measured = testWorkload();
    measured.measuredEval = workload::Workload::MeasuredEval{0.9, 0.01};
    const perf::Prediction m
        = perf::predict(p, measured, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(m.evaluationPassS, 250 * (0.025 + 2e8 / 800e9) * 0.9 + 0.01);
    CLAB_NEAR(m.stepS, r.stepS);
    // Where the host scores the samples: 1000 samples on the one node at 10 ms each (10 s)
    // outlast the GPUs' 5.7 s; at 1 ms (1 s) the GPUs set the pass.
    measured.measuredEval->hostS = 0.01;
    const perf::Prediction host
        = perf::predict(p, measured, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(host.evaluationPassS, 1000 * 0.01 + 0.01);
    measured.measuredEval->hostS = 0.001;
    const perf::Prediction gpuBound
        = perf::predict(p, measured, 64, perf::Precision::Fp16, testCalibration());
    CLAB_NEAR(gpuBound.evaluationPassS, m.evaluationPassS);

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
    CLAB_NEAR(n.stepS, step);

    // A table that holds for some MLPerf rounds (Stable Diffusion's v3.1 to v4.1 RCPs): another
    // round's prediction says so; the same samples still train it.
    workload::Workload rounds = testWorkload();
    rounds.convergenceRounds = {"mlperf-4.0", "mlperf-4.1"};
    perf::Calibration c = testCalibration();
    c.software = {{"mlperf-4.1", 1.0}, {"mlperf-5.0", 1.0}};
    auto says = [](const perf::Prediction &pred) {
        return std::any_of(pred.extrapolation.begin(), pred.extrapolation.end(), [](const auto &e) {
            return e.find("holds for mlperf-4.0, mlperf-4.1, not") != e.npos;
        });
    };
    const perf::Prediction in
        = perf::predict(p, rounds, 64, perf::Precision::Fp16, c, "mlperf-4.1");
    const perf::Prediction out
        = perf::predict(p, rounds, 64, perf::Precision::Fp16, c, "mlperf-5.0");
    QVERIFY(!says(in));
    QVERIFY(says(out));
    // The same samples train it, and the interval widens as for a batch outside the table.
    QCOMPARE(*out.samples, *in.samples);
    CLAB_NEAR(std::log(out.intervalMin[1] / *out.timeToTrainMin),
              std::log(in.intervalMin[1] / *in.timeToTrainMin) + 0.15);
    // A framework stack is not a round: no such claim.
    c.software["dle-pytorch"] = 1.0;
    QVERIFY(!says(perf::predict(p, rounds, 64, perf::Precision::Fp16, c, "dle-pytorch")));
}

QTEST_APPLESS_MAIN(TestPerf)
#include "tst_perf.moc"
