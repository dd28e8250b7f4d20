// The performance model (model/perf) from step to time to train, worked by hand on the made-up
// GPU, platform and workload of perftest.h: MLPerf evaluation rules, the 80 % interval and what
// widens it, the chosen global batch, steps and samples from the convergence table. The step's
// own terms are in tst_perf.cpp.
#include "model/perftest.h"

#include <cmath>

using namespace clab;
using namespace clab::perftest;

class TestPerfTraining : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void evaluationRules();
    void intervalsAndExtrapolation();
    void chosenBatch();
    void samplesAndSteps();
    void samplesToConvergeFollowsTable();
    void featureStore();
};

void TestPerfTraining::evaluationRules()
{
    // MLPerf's rules: BERT every FLOOR(0.05 (230.23 GBS + 3e6), 25,000) samples; 3D U-Net from
    // 168,000 samples every 3,360; ResNet-50 every 4 epochs.
    const workload::Workload &bert = builtinWorkload("bert_large");
    // GBS 448: 0.05 x (103,143 + 3e6) = 155,157 -> 150,000; 2.4e6 samples: 16 evaluations.
    QCOMPARE(workload::evaluations(bert, 2.4e6, 448), 16.0);
    // GBS 16384: 0.05 x (3,772,088 + 3e6) = 338,604 -> 325,000; 5.5e6 samples: 16.
    QCOMPARE(workload::evaluations(bert, 5.5e6, 16384), 16.0);
    const workload::Workload &unet = builtinWorkload("unet3d");
    // 398,160 samples: evaluations at 168,000, 171,360, ... up to 396,480: 69.
    QCOMPARE(workload::evaluations(unet, 398160, 56), 69.0);
    const workload::Workload &resnet = builtinWorkload("resnet50");
    // 35 epochs: evaluations after epochs 4, 8, ..., 32.
    QCOMPARE(workload::evaluations(resnet, 35 * 1281167.0, 3264), 8.0);
}

void TestPerfTraining::intervalsAndExtrapolation()
{
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    // Inside the convergence table, a calibrated benchmark on a calibrated architecture: the
    // calibration's held-out quantiles (-0.1, 0.2) of log(predicted / measured time).
    perf::Prediction r
        = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, testCalibration());
    QVERIFY(r.extrapolation.empty());
    CLAB_NEAR(r.intervalMin[0], *r.timeToTrainMin * std::exp(-0.2));
    CLAB_NEAR(r.intervalMin[1], *r.timeToTrainMin * std::exp(0.1));
    CLAB_NEAR(r.intervalThroughput[0], r.throughput * std::exp(-0.1));
    CLAB_NEAR(r.intervalThroughput[1], r.throughput * std::exp(0.2));
    QVERIFY(!hasNote(r, "outside its interval", "w"));
    // Held-out residuals all of one sign (every measured time 5-30 % shorter than predicted):
    // the interval excludes the point, and the prediction says which to believe.
    perf::Calibration fast = testCalibration();
    fast.intervals[""] = {0.05, 0.3, 100};
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, fast);
    QVERIFY(*r.timeToTrainMin > r.intervalMin[1]);
    QVERIFY(hasNote(r, "outside its interval", "faster"));
    fast.intervals[""] = {-0.3, -0.05, 100};
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, fast);
    QVERIFY(*r.timeToTrainMin < r.intervalMin[0]);
    QVERIFY(hasNote(r, "outside its interval", "slower"));
    // Outside the table: flagged, and 0.15 wider on each side.
    r = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, testCalibration());
    QCOMPARE(r.extrapolation.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(r.extrapolation.front()).contains(QLatin1String("outside")));
    CLAB_NEAR(r.intervalMin[0], *r.timeToTrainMin * std::exp(-0.35));
    CLAB_NEAR(r.intervalMin[1], *r.timeToTrainMin * std::exp(0.25));
    // A GPU of an architecture the calibration has not seen: flagged.
    catalog::Gpu other = testGpu();
    other.arch = "NewArch";
    r = perf::predict(testPlatform(other), testWorkload(), 100, perf::Precision::Fp16,
                      testCalibration());
    QCOMPARE(r.extrapolation.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(r.extrapolation.front()).contains(QLatin1String("NewArch")));
    // A fit that saw no architecture often enough (an empty list) flags every GPU and gives it
    // the held-out-architecture interval; a file without the list (written before it existed)
    // flags none and keeps the cell's interval.
    perf::Calibration none = testCalibration();
    none.architectures.emplace();
    none.intervals["arch-out"] = {-0.4, 0.5, 100};
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, none);
    QCOMPARE(r.extrapolation.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(r.extrapolation.front()).contains(QLatin1String("TestArch")));
    CLAB_NEAR(r.intervalMin[1], *r.timeToTrainMin * std::exp(0.4));
    none.architectures.reset();
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, none);
    QVERIFY(r.extrapolation.empty());
    CLAB_NEAR(r.intervalMin[1], *r.timeToTrainMin * std::exp(0.1));
    // A GPU without measured rates: estimated from the catalog's measured parts, flagged.
    catalog::Gpu unmeasured = testGpu();
    unmeasured.achieved = {};
    r = perf::predict(testPlatform(unmeasured), testWorkload(), 100, perf::Precision::Fp16,
                      testCalibration());
    QVERIFY(!r.extrapolation.empty());
    QVERIFY(hasNote(r, "no measured", "GEMM"));
    // A workload without calibration rows: the median factors of the others, a wide interval.
    workload::Workload fresh = testWorkload();
    fresh.id = "fresh";
    r = perf::predict(p, fresh, 100, perf::Precision::Fp16, testCalibration());
    QVERIFY(!r.extrapolation.empty());
    QCOMPARE(r.gemmEfficiency, 0.5); // the one calibrated benchmark's
    QVERIFY(r.intervalMin[1] / r.intervalMin[0] > std::exp(1.3));

    // An uncalibrated MLPerf round drifts little: 0.10 wider on each side. An uncalibrated
    // framework stack may be as fast or as slow as the calibrated ones: factors 0.8, 1 and 2 have
    // P10 0.84 and P90 1.8, so time to train reaches 1.8 x e^0.1 above and e^-(0.2 + 0.174) below.
    perf::Calibration c = testCalibration();
    c.software = {{"mlperf-1.0", 1.0}, {"fw-a", 0.8}, {"fw-b", 1.0}, {"fw-c", 2.0}};
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, c, "mlperf-9.9");
    CLAB_NEAR(r.intervalMin[0], *r.timeToTrainMin * std::exp(-0.3));
    CLAB_NEAR(r.intervalMin[1], *r.timeToTrainMin * std::exp(0.2));
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, c, "fw-new");
    QCOMPARE(r.extrapolation.size(), std::size_t(1));
    QVERIFY(r.extrapolation.front().find("\"fw-new\" is not calibrated") != std::string::npos);
    CLAB_NEAR(r.intervalMin[1], *r.timeToTrainMin * 1.8 * std::exp(0.1));
    CLAB_NEAR(r.intervalMin[0], *r.timeToTrainMin * std::exp(-0.2 + std::log(0.84)));

    // A benchmark fitted on fewer than 8 rows has no spread of its own to speak of: flagged, and
    // 0.30 wider on each side; on 8 rows it is not.
    perf::Calibration few = testCalibration();
    few.bench["w"].rows = 3;
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, few);
    QCOMPARE(r.extrapolation.size(), std::size_t(1));
    QVERIFY(r.extrapolation.front().find("calibrated on 3 rows") != std::string::npos);
    CLAB_NEAR(r.intervalMin[0], *r.timeToTrainMin * std::exp(-0.5));
    CLAB_NEAR(r.intervalMin[1], *r.timeToTrainMin * std::exp(0.4));
    few.bench["w"].rows = 8;
    r = perf::predict(p, testWorkload(), 100, perf::Precision::Fp16, few);
    QVERIFY(r.extrapolation.empty());
}

void TestPerfTraining::chosenBatch()
{
    // Without a batch the model tries the table's batches that give every GPU a sample and keeps
    // the fastest time to train, and says so.
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    perf::Request request;
    request.precision = perf::Precision::Fp16;
    const perf::Prediction best = perf::predict(p, testWorkload(), request, testCalibration());
    QVERIFY(best.batchChosen);
    QVERIFY(hasNote(best, "the shortest time to train of the 2 batches"));
    for (int gbs : {100, 200}) {
        const perf::Prediction at
            = perf::predict(p, testWorkload(), gbs, perf::Precision::Fp16, testCalibration());
        QVERIFY(*best.timeToTrainMin <= *at.timeToTrainMin);
    }
    // 200 GPUs: only the table's 200 gives each a sample.
    perf::Platform wide = p;
    wide.nodes = 50;
    const perf::Prediction only = perf::predict(wide, testWorkload(), request, testCalibration());
    QCOMPARE(only.globalBatch, 200);
    QVERIFY(hasNote(only, "the only batch of the convergence table large enough"));
}

void TestPerfTraining::samplesAndSteps()
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

void TestPerfTraining::samplesToConvergeFollowsTable()
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
    QCOMPARE(tables,
             13); // every MLPerf benchmark; not MobileNetV2, YOLOv5s, Transformer, padded BERT
}

// A store the samples gather rows from (R-GAT's node features): where a GPU's share fits beside
// what it holds, it is spread over the GPUs and each sample fetches the other GPUs' rows over the
// ring (3 of 4 shares, 100 GB/s here); otherwise it stays in host memory and the rows cross the
// 10 GB/s host-to-GPU links with the input. Either way the fetch overlaps the compute, as an
// input stage; an evaluation sample gathers the same rows.
void TestPerfTraining::featureStore()
{
    const catalog::Gpu gpu = testGpu(); // 40 GB
    const perf::Platform p = testPlatform(gpu);
    workload::Workload w = testWorkload();
    w.measuredEval = workload::Workload::MeasuredEval{0.5, 0, 0};
    const perf::Prediction base
        = perf::predict(p, w, 200, perf::Precision::Fp16, testCalibration());
    QVERIFY(base.requiredGB < 30);
    const double free = gpu.memGB - base.requiredGB;
    w.featureBytesPerSample = 1e8; // 50 samples a GPU: 5 GB a step

    w.featureStoreBytes = 4 * free / 2 * 1e9; // half of what is free, on each of the 4 GPUs
    perf::Prediction r = perf::predict(p, w, 200, perf::Precision::Fp16, testCalibration());
    QVERIFY(hasNote(r, "spread over the GPUs' memory", "GPUs"));
    CLAB_NEAR(r.requiredGB, base.requiredGB + free / 2);
    CLAB_NEAR(r.inputS, 50 * 1e8 * 3.0 / 4 / 100e9); // 37.5 ms, above the decode's 3.1 ms
    CLAB_NEAR(r.computeS, base.computeS);
    // 1000 evaluation samples, 250 a GPU: their fetches (250 x 0.75 ms) hide behind the GPUs'
    // 250 x (25 ms of math + 0.25 ms of memory) x 0.5.
    CLAB_NEAR(r.evaluationPassS, base.evaluationPassS);
    CLAB_NEAR(base.evaluationPassS, 250 * (1e12 / 40e12 + 2e8 / 800e9) * 0.5);

    w.featureStoreBytes = 4 * (free + 1) * 1e9; // a GB a GPU too many
    w.featureBytesPerSample = 1e9;              // 50 GB a step
    r = perf::predict(p, w, 200, perf::Precision::Fp16, testCalibration());
    QVERIFY(hasNote(r, "stays in host memory", "host"));
    CLAB_NEAR(r.requiredGB, base.requiredGB);
    CLAB_NEAR(r.inputS, 50 * (1e9 + 1e5) / 10e9); // 5.0005 s over the host-to-GPU link
    CLAB_NEAR(r.stallS, r.inputS - (r.computeS + r.exposedCommS));
    QVERIFY(r.stallS > 0);
    // Now the evaluation samples' fetches bind: 250 x 0.1 s.
    CLAB_NEAR(r.evaluationPassS, 250 * r.inputS / 50);
    QVERIFY(!hasNote(r, "does not fit in the host's"));
    perf::Platform small = p;
    small.hostMemGB = 10; // under the store's 44 GB or more
    r = perf::predict(small, w, 200, perf::Precision::Fp16, testCalibration());
    QVERIFY(hasNote(r, "does not fit in the host's 10 GB"));

    // Two such nodes, 25 GB/s between them: a GPU fetches 3 of 8 shares over the ring and 4 of 8
    // from the other node over its quarter of the network at once; the network's part is slower.
    perf::Platform two = p;
    two.nodes = 2;
    two.networkGBps = 25;
    w.featureBytesPerSample = 1e8;
    w.featureStoreBytes = 8 * free / 2 * 1e9;
    r = perf::predict(two, w, 400, perf::Precision::Fp16, testCalibration());
    QVERIFY(hasNote(r, "spread over the GPUs' memory"));
    CLAB_NEAR(r.inputS, 50 * 1e8 * 4.0 / 8 / (25e9 / 4)); // 0.4 s, against 18.75 ms of ring
    two.networkGBps = 0;
    r = perf::predict(two, w, 400, perf::Precision::Fp16, testCalibration());
    QVERIFY(hasNote(r, "gathers from other nodes are not counted"));
    // One GPU holds the whole store: nothing to fetch.
    perf::Platform one = p;
    one.gpusPerNode = 1;
    w.featureStoreBytes = free / 2 * 1e9;
    r = perf::predict(one, w, 50, perf::Precision::Fp16, testCalibration());
    QVERIFY(hasNote(r, "spread over the GPUs' memory"));
    QVERIFY(r.inputS < 0.01); // the decode's 50 x 1 ms / 64 cores, no gathers
}

QTEST_APPLESS_MAIN(TestPerfTraining)
#include "tst_perftraining.moc"
