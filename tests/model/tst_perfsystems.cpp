// The performance model on real systems: composition reaching the term it should, the bundled
// examples against published MLPerf scores of machines like them, and the scaling shape of one
// kind of machine.
#include "model/perftest.h"

using namespace clab;
using namespace clab::perftest;

class TestPerfSystems : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sharedUplinkSlowsInput();
    void socketCrossingSlowsRing();
    void pcieInsteadOfNvlink();
    void slowNetworkBetweenNodes();
    void examples_data();
    void examples();
    void singleGpuResNet50_data();
    void singleGpuResNet50();
    void hopperOverAmpere_data();
    void hopperOverAmpere();
    void newerNodeTrainsFaster();
    void scalingShape();
    void amdInstinctLlamaLora_data();
    void amdInstinctLlamaLora();
    void meshGroupsUseTheirLinks();
    void meshGradientsUseEveryLink();
};

void TestPerfSystems::sharedUplinkSlowsInput()
{
    // Four GPUs behind one shared chassis uplink, or each leaf with its own: the host-to-device
    // share and so the input copy change; the GPUs' peer traffic stays inside the chassis and
    // does not.
    const perf::Platform shared = platformOfDesign(chassisNode(false));
    const perf::Platform own = platformOfDesign(chassisNode(true));
    QCOMPARE(shared.gpusPerNode, 4);
    QCOMPARE(own.gpusPerNode, 4);
    QVERIFY2(shared.h2dGBps < own.h2dGBps,
             qPrintable(QStringLiteral("%1 vs %2").arg(shared.h2dGBps).arg(own.h2dGBps)));
    QCOMPARE(shared.ringGBps, own.ringGBps);
    // Input-heavy: ResNet-50 fed preprocessed 224x224x3 fp32 tensors (~0.6 MB per sample).
    workload::Workload w = builtinWorkload("resnet50");
    w.inputBytesPerSample = 6e5;
    const perf::Prediction s = predictBuiltin(shared, w, 1024);
    const perf::Prediction o = predictBuiltin(own, w, 1024);
    QVERIFY2(s.inputS > o.inputS,
             qPrintable(QStringLiteral("%1 vs %2").arg(s.inputS).arg(o.inputS)));
    QVERIFY(s.stepS >= o.stepS);
    // The input copies cross the chassis switches the gradient ring uses: in the same step they
    // slow it a little, never speed it up. Compute does not move.
    QVERIFY(s.communicationS >= o.communicationS);
    QCOMPARE(s.computeS, o.computeS);
}

void TestPerfSystems::socketCrossingSlowsRing()
{
    // The 8x A100 PCIe example: GPUs on two switches, one per socket, so the ring crosses the
    // sockets. The same GPUs all under one (larger) switch keep every hop inside it.
    const design::Design two = example("a100-pcie-two-switches.clab");
    design::Design one = two;
    for (auto &s : one.switches) {
        if (s.id == "plx0")
            s.model = "pex89144";
    }
    for (auto &l : one.links) {
        if (l.from == "plx1" && l.to.rfind("gpu", 0) == 0)
            l.from = "plx0";
    }
    const perf::Platform crossing = platformOfDesign(two);
    const perf::Platform under = platformOfDesign(one);
    QCOMPARE(crossing.gpusPerNode, 8);
    QCOMPARE(under.gpusPerNode, 8);
    QVERIFY2(crossing.ringGBps < under.ringGBps,
             qPrintable(QStringLiteral("%1 vs %2").arg(crossing.ringGBps).arg(under.ringGBps)));
    for (const char *id : {"resnet50", "bert_large"}) {
        const workload::Workload &w = builtinWorkload(id);
        const perf::Prediction c = predictBuiltin(crossing, w, 256);
        const perf::Prediction u = predictBuiltin(under, w, 256);
        QVERIFY2(c.communicationS > u.communicationS, id);
        QCOMPARE(c.computeS, u.computeS);
    }
}

void TestPerfSystems::pcieInsteadOfNvlink()
{
    // The DGX A100 example, and the same GPUs with the NVSwitch baseboard taken away.
    const design::Design dgx = example("dgx-a100-nvswitch.clab");
    design::Design pcie = dgx;
    std::erase_if(pcie.links, [](const design::Link &l) { return l.kind.rfind("nvlink", 0) == 0; });
    std::erase_if(pcie.switches, [](const design::Switch &s) { return s.id == "nvswitch"; });
    const perf::Platform nv = platformOfDesign(dgx);
    const perf::Platform pc = platformOfDesign(pcie);
    QCOMPARE(nv.linkKey, std::string("nvswitch"));
    QCOMPARE(pc.linkKey, std::string("pcie"));
    QVERIFY(pc.ringGBps < nv.ringGBps);
    for (const char *id : {"resnet50", "bert_large"}) {
        const workload::Workload &w = builtinWorkload(id);
        const perf::Prediction n = predictBuiltin(nv, w, 256);
        const perf::Prediction p = predictBuiltin(pc, w, 256);
        QVERIFY2(p.communicationS > n.communicationS, id);
        QCOMPARE(p.computeS, n.computeS);
        QVERIFY(p.stepS >= n.stepS);
    }
}

void TestPerfSystems::slowNetworkBetweenNodes()
{
    // Two HGX H100 nodes joined by NDR InfiniBand, and the same with a tenth of the bandwidth.
    perf::Platform fast = platformOfDesign(example("two-nodes-infiniband.clab"));
    fast.nodes = 2;
    QVERIFY(fast.networkGBps > 0);
    perf::Platform slow = fast;
    slow.networkGBps = fast.networkGBps / 10;
    for (const char *id : {"resnet50", "bert_large", "dlrm"}) {
        const workload::Workload &w = builtinWorkload(id);
        const int gbs = std::string(id) == "dlrm" ? 32768 : 256;
        const perf::Prediction f = predictBuiltin(fast, w, gbs);
        const perf::Prediction s = predictBuiltin(slow, w, gbs);
        QVERIFY2(s.communicationS > f.communicationS, id);
        QCOMPARE(s.computeS, f.computeS);
        QVERIFY(s.stepS >= f.stepS);
    }
}

void TestPerfSystems::examples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("system"); // prefix of the system's name
    QTest::addColumn<int>("nodes");
    QTest::addColumn<QString>("benchmark");
    QTest::addColumn<int>("globalBatch");
    QTest::addColumn<QString>("software");
    QTest::addColumn<double>("measured"); // minutes
    QTest::addColumn<QString>("source");

    // Published MLPerf Training scores of machines built like the bundled examples, each the
    // olympic mean of its official result logs (mlcommons/training_results_vX.Y/<submitter>/
    // results/<system>/<benchmark>). The model predicts each at the round's software and the
    // submission's global batch.
    struct Row
    {
        const char *file, *system;
        int nodes;
        const char *benchmark;
        int gbs;
        const char *software;
        double minutes;
        const char *source;
    };
    const Row rows[] = {
        {"dgx-a100-nvswitch.clab", "", 1, "resnet50", 3264, "mlperf-1.0", 31.124,
         "v1.0 Supermicro AS-4124GO-NART_mxnet (8x A100-SXM4-40GB, NVSwitch)"},
        {"dgx-a100-nvswitch.clab", "", 1, "bert_large", 256, "mlperf-1.0", 26.817,
         "v1.0 Supermicro AS-4124GO-NART_pytorch (8x A100-SXM4-40GB, NVSwitch)"},
        {"a100-pcie-two-switches.clab", "", 1, "resnet50", 3264, "mlperf-2.0", 32.703,
         "v2.0 Lenovo SR670v2_8xA100-PCIe-80GB"},
        {"a100-pcie-two-switches.clab", "", 1, "bert_large", 448, "mlperf-2.0", 37.569,
         "v2.0 Lenovo SR670v2_8xA100-PCIe-80GB"},
        {"two-nodes-infiniband.clab", "", 1, "resnet50", 3200, "mlperf-3.0", 13.601,
         "v3.0 NVIDIA dgxh100_ngc23.04_mxnet (8x H100-SXM5-80GB)"},
        {"two-nodes-infiniband.clab", "", 1, "bert_large", 768, "mlperf-3.0", 5.469,
         "v3.0 NVIDIA dgxh100_ngc23.04_pytorch (8x H100-SXM5-80GB)"},
        {"two-nodes-infiniband.clab", "", 2, "retinanet", 320, "mlperf-4.0", 18.937,
         "v4.0 HPE HPE-Cray-XD670-Gen11-H100-SXM5-80GB_n2_pytorch_24.04 (2 x 8 H100)"},
        {"two-nodes-infiniband.clab", "", 1, "stable_diffusion", 256, "mlperf-4.1", 33.967,
         "v4.1 NVIDIA eos_ngc24.09_nemo (8x H100-SXM5-80GB)"},
        // A GPU generation the calibration has not seen (no Blackwell row but one DLRM preview):
        // the olympic mean of run_stop - run_start of the v4.1 result logs,
        // github.com/mlcommons/training_results_v4.1 NVIDIA/results/b200_preview_pytorch/
        // {bert (10 runs, batch 768), ssd (5 runs, batch 256)}/result_*.txt, no scaling.json.
        {"dgx-b200-nvswitch.clab", "", 1, "bert_large", 768, "mlperf-4.1", 3.795,
         "v4.1 NVIDIA b200_preview_pytorch (8x B200-SXM-180GB), preview software"},
        {"dgx-b200-nvswitch.clab", "", 1, "retinanet", 256, "mlperf-4.1", 22.513,
         "v4.1 NVIDIA b200_preview_pytorch (8x B200-SXM-180GB), preview software"},
        // github.com/mlcommons/training_results_v4.1 NVIDIA/results/b200_preview_nemo/
        // stable_diffusion (10 runs, batch 256).
        {"dgx-b200-nvswitch.clab", "", 1, "stable_diffusion", 256, "mlperf-4.1", 19.517,
         "v4.1 NVIDIA b200_preview_nemo (8x B200-SXM-180GB), preview software"},
    };
    for (const Row &r : rows) {
        const std::string name
            = std::string(r.file) + " x" + std::to_string(r.nodes) + " " + r.benchmark;
        QTest::newRow(name.c_str())
            << QString::fromLatin1(r.file) << QString::fromLatin1(r.system) << r.nodes
            << QString::fromLatin1(r.benchmark) << r.gbs << QString::fromLatin1(r.software)
            << r.minutes << QString::fromLatin1(r.source);
    }
}

void TestPerfSystems::examples()
{
    QFETCH(QString, file);
    QFETCH(QString, system);
    QFETCH(int, nodes);
    QFETCH(QString, benchmark);
    QFETCH(int, globalBatch);
    QFETCH(QString, software);
    QFETCH(double, measured);
    QFETCH(QString, source);
    perf::Platform p = platformOfDesign(example(file.toStdString()), system.toStdString());
    p.nodes = nodes;
    const workload::Workload &w = builtinWorkload(benchmark.toLatin1().constData());
    const perf::Prediction r = perf::predict(p, w, globalBatch, defaultPrecision(w),
                                             perf::Calibration::builtin(), software.toStdString());
    QVERIFY(r.fits);
    QVERIFY(r.timeToTrainMin.has_value());
    const double sum = r.breakdownMin.compute + r.breakdownMin.communication + r.breakdownMin.input
                       + r.breakdownMin.evaluation;
    CLAB_NEAR(sum, *r.timeToTrainMin);
    const QString told = QStringLiteral("%1: predicted %2 min (80 % interval %3-%4), measured %5")
                             .arg(source)
                             .arg(*r.timeToTrainMin, 0, 'f', 2)
                             .arg(r.intervalMin[0], 0, 'f', 2)
                             .arg(r.intervalMin[1], 0, 'f', 2)
                             .arg(measured);
    qInfo("%s", qPrintable(told));
    // Inside the prediction's own 80 % interval (with a tenth of slack: an 80 % interval misses
    // one time in five), and within a third of the published score. (BERT on the PCIe server is
    // the loosest: predicted 32 % short, see model/perf/MODEL.md.)
    // The B200's BERT preview ran 1.44x a DGX H100 of v3.0 where its GEMM rate says 2.2-2.5x:
    // 39 % short while its element-wise kernels ran at its HBM rate, 26 % short at its SMs' rate.
    QVERIFY2(std::abs(*r.timeToTrainMin / measured - 1) <= 0.35, qPrintable(told));
    QVERIFY2(measured >= r.intervalMin[0] * 0.9 && measured <= r.intervalMin[1] * 1.1,
             qPrintable(told));
}

void TestPerfSystems::singleGpuResNet50_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("batch");
    QTest::addColumn<QString>("software");
    QTest::addColumn<double>("imagesPerS");
    // One GPU training ResNet-50 v1.5 with mixed precision, as published:
    // - NVIDIA DeepLearningExamples, PyTorch/Classification/ConvNets/resnet50v1.5/README.md at
    //   729963dd (NGC pytorch-21.03, batch 256): DGX-1 V100 16GB 1,200 img/s, DGX A100 80GB 2,470;
    // - Lambda's deeplearning-benchmark (NGC 22.10 PyTorch, batch 1280), Dell H100 80GB SXM5:
    //   2,776 img/s.
    QTest::newRow("V100") << QStringLiteral("V100-SXM2-16GB") << 256
                          << QStringLiteral("dle-pytorch") << 1200.0;
    QTest::newRow("A100") << QStringLiteral("A100-SXM4-80GB") << 256
                          << QStringLiteral("dle-pytorch") << 2470.0;
    QTest::newRow("H100") << QStringLiteral("H100-SXM5-80GB") << 1280
                          << QStringLiteral("lambda-pytorch-22.10") << 2776.0;
}

void TestPerfSystems::singleGpuResNet50()
{
    QFETCH(QString, gpu);
    QFETCH(int, batch);
    QFETCH(QString, software);
    QFETCH(double, imagesPerS);
    QVERIFY(perf::Calibration::builtin().knowsSoftware(software.toStdString()));
    perf::SystemSpec spec;
    spec.gpu = gpu.toStdString();
    spec.gpusPerNode = 1;
    const perf::Platform p = perf::platformOf(spec, cat());
    const perf::Prediction r
        = perf::predict(p, builtinWorkload("resnet50"), batch, perf::Precision::Fp16,
                        perf::Calibration::builtin(), software.toStdString());
    QVERIFY2(std::abs(r.throughput / imagesPerS - 1) <= 0.15,
             qPrintable(QStringLiteral("%1: predicted %2 img/s, published %3")
                            .arg(gpu)
                            .arg(r.throughput, 0, 'f', 0)
                            .arg(imagesPerS)));
    // A physical "% of peak": a real share of the FP16 dense peak, below what GEMMs reach.
    QVERIFY(r.utilization > 0.05 && r.utilization < 0.85);
}

void TestPerfSystems::hopperOverAmpere_data()
{
    QTest::addColumn<QString>("benchmark");
    QTest::addColumn<int>("globalBatch");
    QTest::addColumn<double>("measured");
    // How much faster an H100-SXM trains than an A100-SXM4-80GB, per GPU, on 8 NVSwitch-joined
    // GPUs, from MLPerf training logs (median tracked throughput of the timed runs):
    // - 3D U-Net: NVIDIA dgxa100_ngc22.04 (v2.1) 27.46 ms a sample; H100-SXM 14.49 (v2.1
    //   preview), 14.12 (v3.1 eos), 13.85 (v4.0): 1.90x in the same round (1.83-1.98x);
    // - RNN-T and ResNet-50: Dell's 8-GPU H100-SXM (XE9680) and A100-SXM systems of MLPerf v3.0
    //   (mlcommons/training_results_v3.0 @63e326c4): 1.77x and 1.96x.
    // Large GEMMs alone would say 3.0x (795 against 265 TFLOP/s measured).
    QTest::newRow("3D U-Net") << QStringLiteral("unet3d") << 56 << 1.90;
    QTest::newRow("RNN-T") << QStringLiteral("rnnt") << 2048 << 1.77;
    QTest::newRow("ResNet-50") << QStringLiteral("resnet50") << 3264 << 1.96;
}

void TestPerfSystems::hopperOverAmpere()
{
    QFETCH(QString, benchmark);
    QFETCH(int, globalBatch);
    QFETCH(double, measured);
    double throughput[2] = {};
    const char *gpus[] = {"A100-SXM4-80GB", "H100-SXM5-80GB"};
    for (int i = 0; i < 2; ++i) {
        perf::SystemSpec spec;
        spec.gpu = gpus[i];
        spec.gpusPerNode = 8;
        spec.intraNode = perf::IntraNode::NvSwitch;
        const workload::Workload &w = builtinWorkload(qPrintable(benchmark));
        throughput[i] = predictBuiltin(perf::platformOf(spec, cat()), w, globalBatch).throughput;
    }
    const double ratio = throughput[1] / throughput[0];
    // RNN-T's joint network (36 % of its FLOPs) is one large GEMM on Hopper's fast path and its
    // LSTMs are not: the model says 2.04x, 15.3 % above Dell's pair (its RNN-T rows held out by
    // architecture are 5 % fast, median). Known, in MODEL.md; the check stays so that it shows.
    if (benchmark == QLatin1String("rnnt") && ratio > measured * 1.15 && ratio < measured * 1.2)
        QEXPECT_FAIL("RNN-T", "RNN-T on Hopper is 15-20 % faster than Dell's v3.0 pair", Continue);
    QVERIFY2(std::abs(ratio / measured - 1) <= 0.15,
             qPrintable(QStringLiteral("H100 / A100 %1x, measured %2x").arg(ratio).arg(measured)));
}

void TestPerfSystems::newerNodeTrainsFaster()
{
    // The bundled 8-GPU nodes, A100 (NVSwitch), H100 (one node of the InfiniBand pair) and B200,
    // each with its NVMe drives: every benchmark with a convergence table trains faster on the
    // newer generation at the batch the model chooses. (3D U-Net's 18.5 GB dataset once made the
    // B200 node drive-bound and slower than the H100: it sits in the page cache after its first
    // pass.)
    const perf::Platform nodes[] = {platformOfDesign(example("dgx-a100-nvswitch.clab")),
                                    platformOfDesign(example("two-nodes-infiniband.clab")),
                                    platformOfDesign(example("dgx-b200-nvswitch.clab"))};
    int compared = 0;
    for (const auto &[id, w] : workload::Library::builtin().all()) {
        if (w.convergence.empty())
            continue;
        perf::Request request;
        request.precision = defaultPrecision(w);
        double previous = 0;
        for (const perf::Platform &p : nodes) {
            const perf::Prediction r = perf::predict(p, w, request, perf::Calibration::builtin());
            if (!r.fits || !r.timeToTrainMin)
                break; // GPT-3 and the like do not fit one node
            const double minutes = *r.timeToTrainMin;
            QVERIFY2(
                previous == 0 || minutes < previous,
                qPrintable(QStringLiteral("%1 on %2: %3 min, the older node %4 min")
                               .arg(QString::fromStdString(id), QString::fromStdString(p.gpu->id))
                               .arg(minutes)
                               .arg(previous)));
            previous = minutes;
            ++compared;
        }
    }
    QVERIFY(compared >= 15);
}

void TestPerfSystems::scalingShape()
{
    // A100-SXM4-80GB on NVSwitch, BERT-Large at 8 sequences per GPU: 1, 2, 4, 8 GPUs in one node,
    // then 2, 4 and 16 nodes of 8 joined by eight 200 Gb/s HDR ports per node, as a DGX A100 has.
    // (With one port a node, its 680 MB of gradients after the backward pass take about as long
    // as the 8-sequence step itself, and 2 nodes are no faster than 1: that is the physics.)
    const workload::Workload &w = builtinWorkload("bert_large");
    const int local = 8;
    struct Shape
    {
        int gpusPerNode, nodes;
    };
    const Shape shapes[] = {{1, 1}, {2, 1}, {4, 1}, {8, 1}, {8, 2}, {8, 4}, {8, 16}};
    std::vector<double> throughput;
    std::vector<double> busy; // a GPU's step without the optimizer, which shards over the replicas
    for (const Shape &s : shapes) {
        perf::SystemSpec spec;
        spec.gpu = "A100-SXM4-80GB";
        spec.gpusPerNode = s.gpusPerNode;
        spec.nodes = s.nodes;
        spec.intraNode = perf::IntraNode::NvSwitch;
        spec.networkGbpsPerNode = 1600;
        spec.networkFamily = "infiniband";
        const int gpus = s.gpusPerNode * s.nodes;
        const perf::Prediction r = predictBuiltin(perf::platformOf(spec, cat()), w, local * gpus);
        QCOMPARE(r.localBatch, double(local));
        throughput.push_back(r.throughput);
        busy.push_back(r.stepS - r.optimizerS);
    }
    const double perGpu1 = throughput[0];
    for (std::size_t i = 1; i < throughput.size(); ++i) {
        const int gpus = shapes[i].gpusPerNode * shapes[i].nodes;
        const int previousGpus = shapes[i - 1].gpusPerNode * shapes[i - 1].nodes;
        // More GPUs: more samples per second.
        QVERIFY2(throughput[i] > throughput[i - 1],
                 qPrintable(QStringLiteral("%1 GPUs: %2 samples/s, %3 GPUs: %4")
                                .arg(gpus)
                                .arg(throughput[i])
                                .arg(previousGpus)
                                .arg(throughput[i - 1])));
        // ... but a GPU's step never gets shorter, but for the optimizer update that the
        // replicas share (a distributed optimizer: each updates 1/DP of the state).
        QVERIFY2(busy[i] >= busy[i - 1] * (1 - 1e-12),
                 qPrintable(QStringLiteral("%1 GPUs after %2").arg(gpus).arg(previousGpus)));
    }
    // Leaving the node costs visibly: 16 GPUs on two nodes lose at least 2 % per GPU against 8 in
    // one (the 680 MB of fp16 gradients cross a 20 GB/s link in ~34 ms, more than the backward
    // pass of 8 sequences hides).
    const double eff8 = throughput[3] / 8 / perGpu1;
    const double eff16 = throughput[4] / 16 / perGpu1;
    QVERIFY2(eff16 < eff8 * 0.98, qPrintable(QStringLiteral("%1 vs %2").arg(eff16).arg(eff8)));
    const double eff128 = throughput[6] / 128 / perGpu1;
    QVERIFY(eff128 <= eff16);
}

void TestPerfSystems::amdInstinctLlamaLora_data()
{
    QTest::addColumn<QString>("accelerator");
    QTest::addColumn<double>("minutes");
    QTest::addColumn<double>("recomputeLo");
    QTest::addColumn<double>("recomputeHi");
    // AMD's MLPerf Training v5.0 Llama 2 70B LoRA results on one 8-GPU node
    // (mlcommons/training_results_v5.0 @0fdc28f0, AMD/results/*/llama2_70b_lora: olympic mean
    // of 10 runs x scaling.json; AMD's blog gives the same 29.25 and 22.04 min), and their
    // configurations (AMD/benchmarks/llama2_70b_lora/implementations/*/config_MI3*_1x8x1.sh):
    // TP 1, PP 1, CP 1, FP8; on the 192 GB MI300X full activation checkpointing of 21 of the 80
    // layers (ACL=21), on the 256 GB MI325X none. No AMD row is in any fit.
    QTest::newRow("MI300X") << QStringLiteral("AMD Instinct MI300X 192GB HBM3") << 29.25 << 0.15
                            << 0.35;
    QTest::newRow("MI325X") << QStringLiteral("AMD Instinct MI325X 256GB HBM3e") << 22.04 << 0.0
                            << 0.0;
}

void TestPerfSystems::amdInstinctLlamaLora()
{
    QFETCH(QString, accelerator);
    QFETCH(double, minutes);
    QFETCH(double, recomputeLo);
    QFETCH(double, recomputeHi);
    perf::MlperfSystemFields f;
    f.accelerator = accelerator.toStdString();
    f.acceleratorsPerNode = "8";
    f.numberOfNodes = "1";
    f.acceleratorInterconnect = "XGMI";
    f.acceleratorHostInterconnect = "PCIe Gen5 x16";
    f.hostProcessor = "AMD EPYC 9575F";
    const perf::ParsedSystem parsed = perf::parseMlperfSystem(f, cat());
    QVERIFY2(parsed.spec, parsed.skipReason.c_str());
    const perf::Platform p = perf::platformOf(*parsed.spec, cat());
    // rccl-tests all_reduce_perf on 8 MI300X: 317.3 GB/s bus bandwidth at 8 GB (ROCm docs,
    // prerequisite-system-validation.rst); an all-reduce of 2 of them 47.7 GB/s
    // (stas00/ml-engineering @744d01e1 network/README.md): a pair has one xGMI link.
    QVERIFY2(std::abs(p.ringGBps / 317.3 - 1) <= 0.05, qPrintable(QString::number(p.ringGBps)));
    QVERIFY2(std::abs(p.meshPairGBps / 47.7 - 1) <= 0.10,
             qPrintable(QString::number(p.meshPairGBps)));
    const perf::Prediction r = predictBuiltin(p, builtinWorkload("llama2_70b_lora"), 8);
    QVERIFY(r.fits);
    QCOMPARE(r.plan.tensor, 1);
    QCOMPARE(r.plan.pipeline, 1);
    QVERIFY2(r.plan.recompute >= recomputeLo && r.plan.recompute <= recomputeHi,
             qPrintable(QString::number(r.plan.recompute)));
    QVERIFY(r.timeToTrainMin);
    QVERIFY2(
        std::abs(*r.timeToTrainMin / minutes - 1) <= 0.15,
        qPrintable(
            QStringLiteral("predicted %1 min, published %2").arg(*r.timeToTrainMin).arg(minutes)));
    // Fitted on NVIDIA rows only: the prediction says it extrapolates, and why.
    QVERIFY(std::any_of(r.extrapolation.begin(), r.extrapolation.end(),
                        [](const std::string &e) { return e.find("no CDNA3 GPU") != e.npos; }));
}

// Eight MI300X on their board, each pair joined by one xGMI link.
static perf::SystemSpec mi300xBoard()
{
    perf::SystemSpec spec;
    spec.gpu = "MI300X-OAM-192GB";
    spec.gpusPerNode = 8;
    spec.intraNode = perf::IntraNode::NvlinkMesh;
    return spec;
}

void TestPerfSystems::meshGroupsUseTheirLinks()
{
    // On a pairwise mesh a tensor-parallel pair has one link, not the whole node's: TP 2 on 8
    // MI300X all-reduces at one xGMI link, so it costs 7x what the node's ring would say.
    perf::SystemSpec spec = mi300xBoard();
    const perf::Platform mesh = perf::platformOf(spec, cat());
    QVERIFY(mesh.meshPairGBps > 0);
    perf::Platform switched = mesh;
    switched.meshPairGBps = 0;
    const workload::Workload &w = builtinWorkload("llama2_70b_lora");
    const perf::Plan tp2{2, 1};
    const perf::Prediction onMesh
        = perf::predict(mesh, w, 8, perf::Precision::Fp8, perf::Calibration::builtin(), {}, tp2);
    const perf::Prediction onSwitch = perf::predict(switched, w, 8, perf::Precision::Fp8,
                                                    perf::Calibration::builtin(), {}, tp2);
    QVERIFY(onMesh.communicationS > onSwitch.communicationS);
    QCOMPARE(onMesh.plan.tensor, 2);
    const double ratio = onMesh.communicationS / onSwitch.communicationS;
    QVERIFY2(ratio > 5 && ratio < 8, qPrintable(QString::number(ratio)));
    // A pair always has one link, on a board of 4 as of 8; 16 GPUs are two boards of 8, joined
    // over PCIe only.
    for (const int n : {4, 8, 16}) {
        spec.gpusPerNode = n;
        const design::Design d = perf::nodeDesign(spec, cat());
        int pairs = 0;
        for (const design::Link &l : d.links) {
            if (l.kind != "xgmi-mi300")
                continue;
            QCOMPARE(l.count, 1);
            const int a = std::stoi(l.from.substr(3)), b = std::stoi(l.to.substr(3));
            QCOMPARE(a / 8, b / 8);
            ++pairs;
        }
        QCOMPARE(pairs, n == 16 ? 2 * 28 : n * (n - 1) / 2);
    }
    // No AMD part has a measured TF32 GEMM: the rate comes from other makers' share of peak
    // (said in the notes), never zero.
    spec.gpusPerNode = 8;
    const perf::Prediction tf32
        = perf::predict(perf::platformOf(spec, cat()), builtinWorkload("resnet50"), 2048,
                        perf::Precision::Tf32, perf::Calibration::builtin());
    QVERIFY(std::isfinite(tf32.stepS) && tf32.stepS > 0);
}

void TestPerfSystems::meshGradientsUseEveryLink()
{
    // Data-parallel gradients on a full mesh go to the 7 other GPUs at once, a ring over each of
    // a GPU's links (RCCL's all-reduce on 8 MI300X: 317 GB/s, the 7 links'): BERT-Large's
    // all-reduce moves 2 x 7/8 of its fp16 gradients at 7 xGMI links, plus 14 hops' latency. One
    // ring over the board would move them at one link.
    const perf::SystemSpec spec = mi300xBoard();
    const perf::Platform mesh = perf::platformOf(spec, cat());
    const workload::Workload &w = builtinWorkload("bert_large");
    const perf::Prediction p
        = perf::predict(mesh, w, 64, perf::Precision::Fp16, perf::Calibration::builtin());
    const double grad = w.allreduceParameters * 2;
    const double expected
        = 2 * 7.0 / 8 * grad / (7 * mesh.meshPairGBps * 1e9) + 2 * 7 * mesh.ringLatencyUs * 1e-6;
    QVERIFY2(std::abs(p.allreduceS / expected - 1) < 0.02,
             qPrintable(QStringLiteral("%1 s, expected %2 s").arg(p.allreduceS).arg(expected)));
}

QTEST_APPLESS_MAIN(TestPerfSystems)
#include "tst_perfsystems.moc"
