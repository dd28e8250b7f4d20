// Transformer shapes and parallel plans (model/llm): counts, FLOPs and memory against figures
// worked by hand from the papers' formulas, and the rules' errors.
#include "catalog/catalog.h"
#include "llm/plan.h"
#include "perf/platform.h"
#include "llm/shape.h"
#include "util/inputerror.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <string>

using namespace clab;
using namespace clab::llm;

namespace {

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

Hardware a100(long long gpus)
{
    return hardwareOf(catalog::Catalog::builtin(), "A100-SXM4-80GB", gpus, 8, 200);
}

Plan plan(long long t, long long p, long long v, long long m, Recompute r, bool sp, int zero,
          long long batch)
{
    Plan x;
    x.tensor = t;
    x.pipeline = p;
    x.interleave = v;
    x.micro = m;
    x.recompute = r;
    x.sequenceParallel = sp;
    x.zero = zero;
    x.globalBatch = batch;
    return x;
}

} // namespace

class TestLlm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parameterCounts();
    void flopsPerIteration();
    void activationMemory_data();
    void activationMemory();
    void memoryPerGpu();
    void elementwiseTraffic();
    void attentionProducts();
    void bubble();
    void tensorCommunication();
    void pcieWithoutNvlink();
    void bridgedCardsUsePcie();
    void rackScaleNvlinkDomain();
    void instinctMesh();
    void systemWithoutRing();
    void shardedGradientsMoveEveryMicroBatch();
    void planRules_data();
    void planRules();
    void shapeErrors_data();
    void shapeErrors();
    void searchRanksFittingPlans();
};

void TestLlm::parameterCounts()
{
    // GPT-3 175B (l = 96, h = 12,288, s = 2,048, V = 51,200): per layer 12 h^2 + 13 h =
    // 1,811,939,328 + 159,744 = 1,812,099,072; x 96 = 173,961,510,912; embeddings (V + s) h =
    // 53,248 x 12,288 = 654,311,424; final LayerNorm 2 h = 24,576. Sum 174,615,846,912.
    const Shape gpt3 = parseShape("gpt3-175b");
    QCOMPARE(parameters(gpt3), 174615846912.0);
    QVERIFY(std::abs(parameters(gpt3) / 175e9 - 1) < 0.01);

    // Llama 2 7B (h = 4,096, F = 11,008, V = 32,000, untied, SwiGLU, RMSNorm): per layer
    // 4 h^2 + 3 h F + 2 h = 67,108,864 + 135,266,304 + 8,192 = 202,383,360; x 32 =
    // 6,476,267,520; embedding and output 2 x 131,072,000; final norm 4,096: 6,738,415,616,
    // the count Hugging Face reports for meta-llama/Llama-2-7b-hf.
    QCOMPARE(parameters(parseShape("llama2-7b")), 6738415616.0);

    // Grouped-query attention shrinks K and V: Llama 2 70B has 8 of 64 heads, so K and V are
    // h x 1,024 each: 8,192 x (8,192 + 2,048) + 8,192^2 + 3 x 8,192 x 28,672 + 2 x 8,192 =
    // 83,886,080 + 67,108,864 + 704,643,072 + 16,384 = 855,654,400 per layer.
    QCOMPARE(layerParameters(parseShape("llama2-70b")), 855654400.0);

    // Llama 3.1 8B (h = 4,096, 8 of 32 key-value heads, F = 14,336, V = 128,256): per layer
    // 4,096 x 6,144 + 4,096^2 + 3 x 4,096 x 14,336 + 2 x 4,096 = 25,165,824 + 16,777,216 +
    // 176,160,768 + 8,192 = 218,112,000; x 32 = 6,979,584,000; embedding and output
    // 2 x 525,336,576; final norm 4,096: 8,030,261,248.
    QCOMPARE(parameters(parseShape("llama3.1-8b")), 8030261248.0);

    // Every preset loads and has a source.
    QCOMPARE(presets().size(), std::size_t(10));
    for (const Shape &p : presets())
        QVERIFY2(!p.source.empty(), p.name.c_str());
}

void TestLlm::flopsPerIteration()
{
    // Narayanan et al. 2021 eq. (3), full recomputation, B = 1,536:
    // 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) = 96 x 1536 x 2048 x 96 x 12288^2
    // x (1 + 0.027778 + 0.0027127) = 4.5109707533e18.
    const Shape gpt3 = parseShape("gpt3-175b");
    QVERIFY(near(hardwareFlops(gpt3, 1536, Recompute::Full), 4.5109707533231063e18, 1e-12));
    // Without recomputation backward is twice forward: 72 instead of 96 on the layers, the
    // logits (6 B s h V, never recomputed) the same.
    const double h = 12288, s = 2048, l = 96, V = 51200, B = 1536;
    const double model = 72 * B * s * l * h * h * (1 + s / (6 * h)) + 6 * B * s * h * V;
    QVERIFY(near(modelFlops(gpt3, B), model, 1e-12));
    QVERIFY(near(hardwareFlops(gpt3, B, Recompute::None), model, 1e-12));
    // Selective recomputation runs QK^T and attention x V again: 4 B s^2 h l more.
    QVERIFY(
        near(hardwareFlops(gpt3, B, Recompute::Selective), model + 4 * B * s * s * h * l, 1e-12));
}

void TestLlm::activationMemory_data()
{
    QTest::addColumn<int>("tensor");
    QTest::addColumn<int>("recompute");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<double>("bytes");
    // GPT-3 one layer, micro-batch 1: s b h = 2,048 x 12,288 = 25,165,824; 5 a s / h = 80.
    // Korthikanti et al. 2022 Table 2:
    // no parallelism: sbh (34 + 5as/h) = 25,165,824 x 114
    QTest::newRow("none t1") << 1 << 0 << false << 25165824.0 * 114;
    // tensor parallel: sbh (10 + 24/t + 5as/(ht)) at t = 8: 25,165,824 x (10 + 3 + 10)
    QTest::newRow("none t8") << 8 << 0 << false << 25165824.0 * 23;
    // tensor + sequence parallel: sbh/t (34 + 5as/h) = 25,165,824 x 114 / 8
    QTest::newRow("none t8 sp") << 8 << 0 << true << 25165824.0 * 114 / 8;
    // tensor + selective: sbh (10 + 24/t) = 25,165,824 x 13
    QTest::newRow("selective t8") << 8 << 1 << false << 25165824.0 * 13;
    // tensor + sequence + selective: 34 sbh / t
    QTest::newRow("selective t8 sp") << 8 << 1 << true << 25165824.0 * 34 / 8;
    // full recomputation: 2 sbh (the layer's input)
    QTest::newRow("full t8") << 8 << 2 << false << 25165824.0 * 2;
}

void TestLlm::activationMemory()
{
    QFETCH(int, tensor);
    QFETCH(int, recompute);
    QFETCH(bool, sp);
    QFETCH(double, bytes);
    const Shape gpt3 = parseShape("gpt3-175b");
    QCOMPARE(layerActivationBytes(gpt3, 1, tensor, Recompute(recompute), sp), bytes);
}

void TestLlm::memoryPerGpu()
{
    // GPT-3 on 512 GPUs, T8 P8 (d = 8), batch 1,536. The busiest stage is the first: 12 layers
    // (12 x 1,812,099,072 = 21,745,188,864) and the embeddings (654,311,424; the last stage's
    // output LayerNorm and tied copy, 51,202 h = 629,170,176, are fewer): 22,399,500,288 / 8 =
    // 2,799,937,536 parameters a GPU.
    const Shape gpt3 = parseShape("gpt3-175b");
    const Hardware hw = a100(512);
    const double params = 2799937536.0;
    Memory m = llm::memoryPerGpu(gpt3, hw, plan(8, 8, 1, 1, Recompute::Selective, true, 0, 1536));
    // Megatron-LM keeps a bf16 model's gradients in fp32: 2 + 4 + 12 = 18 B a parameter.
    QCOMPARE(m.weights, 2 * params);
    QCOMPARE(m.gradients, 4 * params);
    QCOMPARE(m.optimizer, 12 * params);
    // Korthikanti section 4.2.3: the first stage keeps P micro-batches of L/P layers, i.e. L
    // layers' worth: 34 s b h L / t = 25,165,824 x 34 x 96 / 8.
    QCOMPARE(m.activations, 25165824.0 * 34 * 96 / 8);
    // ZeRO-1 shards the optimizer state over the 8 replicas, ZeRO-3 everything.
    m = llm::memoryPerGpu(gpt3, hw, plan(8, 8, 1, 1, Recompute::Selective, true, 1, 1536));
    QCOMPARE(m.optimizer, 12 * params / 8);
    QCOMPARE(m.gradients, 4 * params);
    m = llm::memoryPerGpu(gpt3, hw, plan(8, 8, 1, 1, Recompute::Selective, true, 3, 1536));
    QCOMPARE(m.weights, 2 * params / 8);
    // Interleaving V = 2 keeps (1 + (P - 1)/(P V)) = 1 + 7/16 times as much.
    m = llm::memoryPerGpu(gpt3, hw, plan(8, 8, 2, 1, Recompute::Selective, true, 0, 1536));
    QVERIFY(near(m.activations, 25165824.0 * 34 * 96 / 8 * (1 + 7.0 / 16)));
    // Unsharded, GPT-3 does not fit on 64 GPUs (T8 P8 d1): the 18 B a parameter alone are 50.4 GB
    // and the activations without recomputation 96 x 25,165,824 x 23 = 55.6 GB.
    m = llm::memoryPerGpu(gpt3, a100(64), plan(8, 8, 1, 1, Recompute::None, false, 0, 64));
    QVERIFY(near(m.activations, 96 * 25165824.0 * 23));
    QVERIFY(!m.fits());
    QCOMPARE(m.capacity, 80.0 * 1024 * 1024 * 1024); // an "80 GB" card's 81,920 MiB

    // One micro-batch a replica (T8 P2 on 16 GPUs, batch 1): both stages hold one micro-batch's
    // 48 layers, and the last also the fp32 logits, 4 x 2,048 x 51,200 / 8 = 52,428,800 B: the
    // last stage is the busier. With two micro-batches the first holds twice its layers' worth.
    const double stage = 25165824.0 * 34 / 8 * 48;
    const double logits = 4 * 2048 * 51200 / 8.0;
    const double fixed = double(1ull << 30) + 2 * 25e6;
    m = llm::memoryPerGpu(gpt3, a100(16), plan(8, 2, 1, 1, Recompute::Selective, true, 0, 1));
    QVERIFY(near(m.activations, stage));
    QVERIFY(near(m.buffers, fixed + logits));
    m = llm::memoryPerGpu(gpt3, a100(16), plan(8, 2, 1, 1, Recompute::Selective, true, 0, 2));
    QVERIFY(near(m.activations, 2 * stage));
    QVERIFY(near(m.buffers, fixed));
    // ZeRO-3 (pipeline 1, T8 on 64 GPUs) holds two layers' whole bf16 weights, gathered:
    // 2 x 2 x 1,812,099,072 / 8.
    m = llm::memoryPerGpu(gpt3, a100(64), plan(8, 1, 1, 1, Recompute::Selective, true, 3, 64));
    QVERIFY(near(m.buffers, fixed + logits + 2 * 2 * 1812099072.0 / 8));
}

void TestLlm::elementwiseTraffic()
{
    // GPT-3 175B (h 12,288, F 49,152, a 96, s 2,048), T8 with sequence parallelism, selective
    // recomputation, one sequence: per token 44 h / 8 (LayerNorms, dropout-adds) + (10 F + (9 +
    // 11 + 9) a s) / 8 (GELU; softmax and dropout forward, backward and again forward) =
    // 67,584 + 774,144 = 841,728 B; 2,048 tokens.
    const Shape gpt3 = parseShape("gpt3-175b");
    QCOMPARE(layerElementwiseBytes(gpt3, 1, 8, Recompute::Selective, true), 841728.0 * 2048);
    // Without sequence parallelism every GPU of the group runs the 44 h B whole.
    QCOMPARE(layerElementwiseBytes(gpt3, 1, 8, Recompute::Selective, false),
             (44 * 12288 + 774144.0) * 2048);
    // Fused attention (FlashAttention) moves none of the a x s scores through HBM: of the
    // selective figure only 44 h / 8 + 10 F / 8 = 67,584 + 61,440 B a token remain, and it keeps
    // no scores without recomputation either (what selective recomputation drops).
    QCOMPARE(layerElementwiseBytes(gpt3, 1, 8, Recompute::Selective, true, Attention::Fused),
             (67584.0 + 61440) * 2048);
    QCOMPARE(layerActivationBytes(gpt3, 1, 8, Recompute::None, true, Attention::Fused),
             layerActivationBytes(gpt3, 1, 8, Recompute::Selective, true));
    // In the step: 96 layers and the cross entropy's 16 B x 51,200 / 8 a token, at the A100's
    // measured 1,710 GB/s, once a micro-batch (T8 P1 on 8 GPUs, batch 4: 4 micro-batches).
    const StepTime t = stepTime(gpt3, a100(8), plan(8, 1, 1, 1, Recompute::Selective, true, 0, 4));
    const double perMicro = (96 * 841728.0 + 16 * 51200 / 8.0) * 2048 / 1710e9;
    QVERIFY(near(t.elementwise, 4 * perMicro, 1e-9));
    // An H200's SMs issue fewer bytes than its HBM delivers: 12.4 B a cycle x 66.9 TFLOPS of FP32
    // over 256 (128 lanes an SM, 2 FLOPs a lane) = 3,240 GB/s of its measured 4,100.
    const Hardware h200 = hardwareOf(catalog::Catalog::builtin(), "H200-SXM5-141GB", 8, 8, 200);
    QVERIFY(near(h200.streamBytesPerS, 12.4 * 66.9e12 / 256, 1e-12));
    QCOMPARE(h200.memBytesPerS, 4100e9);
    const StepTime onH200
        = stepTime(gpt3, h200, plan(8, 1, 1, 1, Recompute::Selective, true, 0, 4));
    QVERIFY(near(onH200.elementwise, 4 * perMicro * 1710e9 / h200.streamBytesPerS, 1e-9));
    // A wider model spends a smaller share of its step there: it grows with h, matrices with h^2.
    const Shape wide = parseShape("megatron-1t");
    const Shape narrow = parseShape("megatron-22b");
    const auto share = [](const StepTime &x) { return x.elementwise / x.compute; };
    QVERIFY(share(stepTime(wide, a100(8), plan(8, 1, 1, 1, Recompute::Selective, true, 0, 4)))
            < share(stepTime(narrow, a100(8), plan(8, 1, 1, 1, Recompute::Selective, true, 0, 4))));
}

void TestLlm::attentionProducts()
{
    // Unfused, Q K^T writes its a x s x s scores and the product with V reads them back: 4 B a
    // score forward, 8 B backward (dP written, P read for dV, dS read for dQ and for dK), 4 B more
    // when recomputation runs the forward again. GPT-3 175B (a 96, s 2,048), one sequence, T8:
    // 96 x 2,048^2 / 8 = 50,331,648 scores a GPU.
    const Shape gpt3 = parseShape("gpt3-175b");
    const double scores = 96 * 2048.0 * 2048 / 8;
    QCOMPARE(layerProductBytes(gpt3, 1, 8, Recompute::None), 12 * scores);
    QCOMPARE(layerProductBytes(gpt3, 1, 8, Recompute::Selective), 16 * scores);
    QCOMPARE(layerProductBytes(gpt3, 2, 8, Recompute::Full), 2 * 16 * scores);
    QCOMPARE(layerProductBytes(gpt3, 1, 8, Recompute::Selective, Attention::Fused), 0.0);

    // Their rate then follows the head width d, as measured: nearly all memory at d = 64, nearly
    // all matrix at d = 160. EleutherAI's A100 sweep (Anthony et al. 2024, arXiv 2401.14489;
    // EleutherAI/cookbook @fb3e361 sizing/results/transformer_data/h_sweep.out: fp16, 128 heads,
    // micro-batch 4, s 2,048, tensor-parallel 8) times Q K^T and the product with V at 57.6 and
    // 77.1 TFLOP/s (d 64), 76.4 and 102.2 (96), 92.6 and 134.4 (128), 104.4 and 139.7 (160): the
    // pair's rate (equal FLOPs: the harmonic mean) is 65.9, 87.4, 109.7 and 119.5. The model's
    // (the step's product FLOPs over their time: at the GEMM rate plus the score traffic, 1 B
    // for every d FLOPs in each pass) is within 12 % of each: 73, 94, 109 and 121 at η 0.822.
    const Hardware hw = a100(8);
    const double rate = hw.gemmFlops * hw.efficiency;
    const std::pair<int, double> measured[]
        = {{64, 65.9e12}, {96, 87.4e12}, {128, 109.7e12}, {160, 119.5e12}};
    for (const auto &[d, tflops] : measured) {
        const Shape s
            = parseShape("llm:layers=1,hidden=" + std::to_string(128 * d) + ",heads=128,seq=2048");
        const Plan one = plan(8, 1, 1, 4, Recompute::None, false, 0, 4);
        Plan fused = one;
        fused.attention = Attention::Fused;
        // The products' memory time is what the compute term loses when attention is fused.
        const double memory = stepTime(s, hw, one).compute - stepTime(s, hw, fused).compute;
        const double flops = 3 * attentionProductFlops(s) * 4 / 8; // 3 passes, 4 sequences, T8
        const double model = flops / (flops / rate + memory);
        QVERIFY2(std::abs(model / tflops - 1) < 0.12,
                 qPrintable(QStringLiteral("d %1: %2 TFLOP/s model, %3 measured")
                                .arg(d)
                                .arg(model / 1e12)
                                .arg(tflops / 1e12)));
    }
}

void TestLlm::bubble()
{
    // 1F1B: (P - 1)/(V m) of the busy time of a stage without the logits (the pipeline fills
    // and drains through those). T8 P8 on 512 GPUs: d = 8, batch 1,536, local batch 192,
    // micro-batch 1: m = 192, bubble 7/192; interleaved V = 2: 7/384. The last stage's logits
    // take 3 x 2 s h V / 8 FLOPs a micro-batch at the GEMM rate, and its cross entropy 16 s V / 8
    // bytes at the element-wise rate.
    const Shape gpt3 = parseShape("gpt3-175b");
    const Hardware hw = a100(512);
    const double logits = 3 * 2 * 2048.0 * 12288 * 51200 / 8 / (hw.gemmFlops * hw.efficiency)
                          + 16 * 2048.0 * 51200 / 8 / hw.streamBytesPerS;
    for (const long long v : {1LL, 2LL}) {
        const StepTime t
            = stepTime(gpt3, hw, plan(8, 8, v, 1, Recompute::Selective, true, 1, 1536));
        QCOMPARE(t.microBatches, 192LL);
        const double busy = t.compute + t.elementwise + t.tensorComm + t.pipelineComm;
        QVERIFY(near(t.bubble / (busy - 192 * logits), 7.0 / (192.0 * double(v))));
        QVERIFY(t.total > busy + t.bubble);
        QVERIFY(t.mfu > 0 && t.mfu < t.hfu && t.hfu < 1);
    }
}

void TestLlm::tensorCommunication()
{
    // One all-reduce of a micro-batch's layer output, 2 x 2,048 x 12,288 = 50,331,648 B, over
    // 8 A100s: ring 2 x 7/8 of it at the 224 GB/s NCCL's all-reduce reaches over NVLink 3
    // switches (nccl-tests on 8 A100-SXM4; 85 % of the 12 links' 25 GB/s x 0.88 = 264), with
    // NCCL's n½ of 10 MB added to the bytes (LLM.md), plus 14 steps of 2 x 0.6 us: 4.7133e-4 +
    // 1.68e-5 = 4.8813e-4 s. Four a layer, 96 layers, 1,536 micro-batches.
    const Shape gpt3 = parseShape("gpt3-175b");
    const StepTime t = stepTime(gpt3, a100(8), plan(8, 1, 1, 1, Recompute::None, false, 0, 1536));
    QCOMPARE(t.microBatches, 1536LL);
    const double one = 2 * 7.0 / 8 * (50331648 + 10e6) / 224e9 + 14 * 1.2e-6;
    QVERIFY(near(one, 4.8813e-4, 1e-4));
    QVERIFY(near(t.tensorComm, 1536 * 96 * 4 * one, 1e-6));
    QCOMPARE(t.pipelineComm, 0.0);
    QCOMPARE(t.bubble, 0.0);
    QCOMPARE(t.dataParallel, 0.0);
}

void TestLlm::pcieWithoutNvlink()
{
    // An L40S has no NVLink: tensor parallelism runs over its PCIe Gen4 x16 link, 31.5 GB/s x
    // 0.82 achieved = 25.83 GB/s, latency 0.2 us (resources/catalog/links.json). One all-reduce
    // of GPT-3's 50,331,648 B (and NCCL's n½, 10 MB) over 2 GPUs:
    // 2 x 1/2 x 60,331,648 / 25.83e9 + 2 x 0.2e-6 s.
    const Shape gpt3 = parseShape("gpt3-175b");
    const Hardware hw = hardwareOf(catalog::Catalog::builtin(), "L40S", 8, 8, 200);
    QVERIFY(near(hw.intraBytesPerS, 31.5e9 * 0.82));
    const StepTime t = stepTime(gpt3, hw, plan(2, 1, 1, 1, Recompute::None, false, 0, 4));
    const double one = (50331648.0 + 10e6) / (31.5e9 * 0.82) + 2 * 0.2e-6;
    QVERIFY(near(t.tensorComm, double(t.microBatches) * 96 * 4 * one, 1e-9));
}

void TestLlm::systemWithoutRing()
{
    // A composed system whose fabric analysis found no ring between its GPUs (a half-built
    // design) plans over the GPUs' own PCIe links, says so, and ranks only finite times.
    perf::Platform platform;
    platform.gpu = catalog::Catalog::builtin().gpu("A100-PCIe-40GB");
    QVERIFY(platform.gpu);
    platform.gpusPerNode = 4;
    const Hardware hw = hardwareOf(platform, 1);
    QVERIFY(near(hw.intraBytesPerS, 31.5e9 * 0.82));
    QVERIFY(std::any_of(hw.notes.begin(), hw.notes.end(), [](const std::string &n) {
        return n.find("no ring") != std::string::npos;
    }));
    const Search found = searchPlans(parseShape("llm:layers=2,hidden=64,heads=4,seq=16"), hw, 8);
    QVERIFY(!found.plans.empty());
    for (const Evaluated &e : found.plans)
        QVERIFY(std::isfinite(e.time.total));
}

void TestLlm::bridgedCardsUsePcie()
{
    // An A100 PCIe card has 12 NVLink3 links, but only to the one card its bridge joins: a
    // tensor-parallel group of a node crosses PCIe Gen4 x16 (31.5 GB/s x 0.82), as on an L40S.
    const Hardware hw = hardwareOf(catalog::Catalog::builtin(), "A100-PCIe-80GB", 8, 8, 200);
    QVERIFY(near(hw.intraBytesPerS, 31.5e9 * 0.82));
    QVERIFY(std::any_of(hw.notes.begin(), hw.notes.end(), [](const std::string &n) {
        return n.find("bridges join pairs only") != std::string::npos;
    }));
    QVERIFY(near(a100(8).intraBytesPerS, 224e9)); // the SXM board's NVSwitch, NCCL's rate
}

void TestLlm::instinctMesh()
{
    // 8 MI300X join pair by pair, one xGMI link each (64 GB/s a direction x 0.71 achieved,
    // resources/catalog/links.json): a tensor-parallel group of 8 moves at 7 links, the 317 GB/s
    // rccl-tests measure; a group of 2 at one.
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    const Hardware hw = hardwareOf(cat, "MI300X-OAM-192GB", 64, 8, 400);
    QVERIFY(near(hw.intraLinkBytesPerS, 64e9 * 0.71));
    QVERIFY(near(hw.intraBytesPerS, 7 * 64e9 * 0.71));
    const Shape llama = parseShape("llama2-70b");
    const Plan t2 = plan(2, 1, 1, 1, Recompute::Selective, true, 1, 64);
    const Plan t8 = plan(8, 1, 1, 1, Recompute::Selective, true, 1, 64);
    checkPlan(llama, hw, t2);
    checkPlan(llama, hw, t8);
    // Per GPU, T = 8 moves 4x the bytes of T = 2 ((T - 1) / T of 1/T of ... over 7 links): the
    // pair's exchange is the slower one.
    const double pair = stepTime(llama, hw, t2).tensorComm;
    Hardware switched = hw;
    switched.intraLinkBytesPerS = 0;
    QVERIFY(near(stepTime(llama, switched, t2).tensorComm * 7, pair, 0.05));
    // A board has 8 GPUs: 16 a node is refused.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             hardwareOf(cat, "MI300X-OAM-192GB", 64, 16, 400));
}

void TestLlm::rackScaleNvlinkDomain()
{
    // A GB200 NVL72 is one NVLink domain of 72 GPUs: each GPU's 18 NVLink 5 links at 50 GB/s a
    // direction x 0.76 achieved (resources/catalog/links.json) = 684 GB/s to any of the 71 others.
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    const Hardware rack = hardwareOf(cat, "GB200-186GB", 576, 72, 400);
    const Hardware nodes = hardwareOf(cat, "GB200-186GB", 576, 8, 400);
    QVERIFY(near(rack.intraBytesPerS, 18 * 50e9 * 0.76));
    QCOMPARE(rack.intraBytesPerS, nodes.intraBytesPerS);
    // Every plan of GPT-3 175B on 8 racks is no slower with the whole rack as its NVLink domain
    // than with nodes of 8 behind 400 Gb/s ports, and one whose pipeline leaves a node of 8 but
    // stays in the rack is faster: its stages talk over NVLink, not the network.
    const Shape gpt3 = parseShape("gpt3-175b");
    const Search found = searchPlans(gpt3, nodes, 1536);
    QVERIFY(!found.plans.empty());
    for (const Evaluated &e : found.plans)
        QVERIFY(stepTime(gpt3, rack, e.plan).total <= e.time.total * (1 + 1e-12));
    const Plan crossing = plan(4, 12, 1, 1, Recompute::None, true, 1, 1536);
    checkPlan(gpt3, rack, crossing);
    QVERIFY(stepTime(gpt3, rack, crossing).pipelineComm
            < stepTime(gpt3, nodes, crossing).pipelineComm / 10);
}

void TestLlm::shardedGradientsMoveEveryMicroBatch()
{
    // GPT-3, T8 P1 on 64 A100s (d = 8), micro-batch 1: batch 64 is 8 micro-batches a replica,
    // batch 128 sixteen. ZeRO-2 reduce-scatters the gradients after each, so its exposed
    // data-parallel time doubles with them; ZeRO-1 all-reduces once a step and does not grow.
    const Shape gpt3 = parseShape("gpt3-175b");
    const Hardware hw = a100(64);
    const auto exposed = [&](int zero, long long batch) {
        return stepTime(gpt3, hw, plan(8, 1, 1, 1, Recompute::Selective, true, zero, batch))
            .dataParallel;
    };
    QVERIFY(exposed(2, 64) > 0);
    QVERIFY(near(exposed(2, 128), 2 * exposed(2, 64)));
    QVERIFY(exposed(1, 128) <= exposed(1, 64));
    // ZeRO-3 also gathers the weights twice a micro-batch: more than ZeRO-2.
    QVERIFY(exposed(3, 64) > exposed(2, 64));
}

void TestLlm::planRules_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("tensor");
    QTest::addColumn<int>("pipeline");
    QTest::addColumn<int>("micro");
    QTest::addColumn<QString>("rule");
    QTest::newRow("T x P must divide GPUs")
        << 3072 << 8 << 5 << 1 << QStringLiteral("must divide the GPUs (3072)");
    QTest::newRow("T above heads")
        << 3072 << 128 << 1 << 1 << QStringLiteral("must not exceed the heads (96)");
    QTest::newRow("T must divide heads")
        << 3072 << 64 << 1 << 1 << QStringLiteral("must divide the heads (96)");
    QTest::newRow("P must divide layers")
        << 3072 << 8 << 64 << 1 << QStringLiteral("must divide the layers (96)");
    // 3072 / (8 x 8) = 48 replicas; 1,536 / 48 = 32 sequences each, which 5 does not divide.
    QTest::newRow("micro must divide local batch")
        << 3072 << 8 << 8 << 5 << QStringLiteral("must divide the local batch (32");
    // 3072 / 1 = 3072 replicas cannot share 1,536 sequences.
    QTest::newRow("replicas must divide batch")
        << 3072 << 1 << 1 << 1 << QStringLiteral("must divide the global batch (1536)");
}

void TestLlm::planRules()
{
    QFETCH(int, gpus);
    QFETCH(int, tensor);
    QFETCH(int, pipeline);
    QFETCH(int, micro);
    QFETCH(QString, rule);
    const Shape gpt3 = parseShape("gpt3-175b");
    const Plan p = plan(tensor, pipeline, 1, micro, Recompute::None, false, 0, 1536);
    try {
        checkPlan(gpt3, a100(gpus), p);
        QFAIL("no rule broken");
    } catch (const PlanError &e) {
        QVERIFY2(std::string(e.what()).find(rule.toStdString()) != std::string::npos, e.what());
    }
    // The same plan with its broken number mended passes.
    checkPlan(gpt3, a100(3072), plan(8, 8, 1, 4, Recompute::None, false, 0, 1536));
    // Pipelines shard the optimizer state at most (ZeRO-1); ZeRO-2 needs pipeline 1.
    checkPlan(gpt3, a100(3072), plan(8, 8, 1, 4, Recompute::None, false, 1, 1536));
    checkPlan(gpt3, a100(3072), plan(8, 1, 1, 4, Recompute::None, false, 2, 1536));
    // Tensor parallelism splits the key-value heads too (grouped-query attention).
    const Shape gqa = parseShape("llm:layers=2,hidden=512,heads=8,kv_heads=2,seq=16");
    checkPlan(gqa, a100(8), plan(2, 1, 1, 1, Recompute::None, false, 0, 4));
    try {
        checkPlan(gqa, a100(8), plan(4, 1, 1, 1, Recompute::None, false, 0, 4));
        QFAIL("no rule broken");
    } catch (const PlanError &e) {
        QVERIFY2(std::string(e.what()).find("must divide the key-value heads (2)")
                     != std::string::npos,
                 e.what());
    }
    QVERIFY_THROWS_EXCEPTION(
        PlanError, checkPlan(gpt3, a100(3072), plan(8, 8, 1, 4, Recompute::None, false, 2, 1536)));
}

void TestLlm::shapeErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("field");
    QTest::newRow("zero layers") << QStringLiteral("llm:layers=0,hidden=64,heads=4,seq=16")
                                 << QStringLiteral("layers");
    QTest::newRow("negative hidden")
        << QStringLiteral("llm:layers=2,hidden=-64,heads=4,seq=16") << QStringLiteral("hidden");
    QTest::newRow("missing seq") << QStringLiteral("llm:layers=2,hidden=64,heads=4")
                                 << QStringLiteral("seq");
    QTest::newRow("not a number") << QStringLiteral("llm:layers=2,hidden=6x,heads=4,seq=16")
                                  << QStringLiteral("hidden");
    QTest::newRow("unknown key") << QStringLiteral("llm:layers=2,hidden=64,heads=4,seq=16,foo=1")
                                 << QStringLiteral("foo");
    QTest::newRow("heads not dividing hidden")
        << QStringLiteral("llm:layers=2,hidden=64,heads=5,seq=16") << QStringLiteral("heads");
    QTest::newRow("kv heads") << QStringLiteral("llm:layers=2,hidden=64,heads=4,seq=16,kv_heads=3")
                              << QStringLiteral("kv_heads");
    QTest::newRow("zero vocab") << QStringLiteral("llm:layers=2,hidden=64,heads=4,seq=16,vocab=0")
                                << QStringLiteral("vocab");
    // hidden itself is in range; its default MLP width 4 h is not (the message says so).
    QTest::newRow("default ffn too large")
        << QStringLiteral("llm:layers=2,hidden=4000000,heads=4,seq=16") << QStringLiteral("ffn");
}

void TestLlm::shapeErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, field);
    try {
        parseShape(text.toStdString());
        QFAIL("accepted");
    } catch (const InputError &e) {
        QCOMPARE(QString::fromStdString(e.place()), field);
        if (field == QStringLiteral("ffn"))
            QVERIFY2(std::string(e.what()).find("4 x hidden unless given") != std::string::npos,
                     e.what());
    }
    // A good shape takes the defaults: F = 4h, V = 51,200, K = heads.
    const Shape s = parseShape("llm:layers=2,hidden=64,heads=4,seq=16");
    QCOMPARE(s.ffn, 256LL);
    QCOMPARE(s.vocab, 51200LL);
    QCOMPARE(s.kvHeads, 4LL);
}

void TestLlm::searchRanksFittingPlans()
{
    const Shape gpt3 = parseShape("gpt3-175b");
    const Hardware hw = a100(1024);
    const Search found = searchPlans(gpt3, hw, 1536);
    QVERIFY(!found.plans.empty());
    QVERIFY(found.tooLarge > 0); // without recomputation and sharding 175B cannot fit
    QCOMPARE(static_cast<long long>(found.plans.size()) + found.tooLarge, found.valid);
    for (std::size_t i = 1; i < found.plans.size(); ++i) {
        const Evaluated &a = found.plans[i - 1], &b = found.plans[i];
        QVERIFY(a.time.total <= b.time.total);
        if (a.time.total == b.time.total) // a tie goes to the plan using less memory
            QVERIFY(a.memory.total() <= b.memory.total());
    }
    for (const Evaluated &e : found.plans) {
        QVERIFY(e.memory.fits());
        checkPlan(gpt3, hw, e.plan); // every plan listed meets the rules
    }
}

QTEST_APPLESS_MAIN(TestLlm)
#include "tst_llm.moc"
