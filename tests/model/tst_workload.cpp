// Workload library: the built-in figures and the convergence lookup (the strict reader:
// tst_workloadfile.cpp).
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "workload/workload.h"
#include "model/workloadtest.h"

#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <filesystem>

using namespace clab;
using namespace clab::workload;
using namespace clab::workloadtest;

namespace {

Workload toyTable()
{
    Library l;
    l.addFile(fileText(validWorkload()), "toy.json");
    return *l.find("toy");
}

// The table's point at exactly this batch, or nullptr.
const ConvergencePoint *pointAt(const Workload &w, int batch)
{
    const auto p = std::find_if(w.convergence.begin(), w.convergence.end(),
                                [&](const ConvergencePoint &c) { return c.globalBatch == batch; });
    return p == w.convergence.end() ? nullptr : &*p;
}

double olympicMean(std::vector<double> v, int drop)
{
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (std::size_t i = drop; i + drop < v.size(); ++i)
        sum += v[i];
    return sum / static_cast<double>(v.size() - 2 * drop);
}

} // namespace

class TestWorkload : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtinLoadsAll();
    void resnetHandWorked();
    void bertHandWorked();
    void transformerFlopsRule_data();
    void transformerFlopsRule();
    void findByIdAndAlias_data();
    void findByIdAndAlias();
    void interpolation_data();
    void interpolation();
    void noTable();
    void neverFewerThanTheTable();
    void resnetTableMatchesRcps();
    void untimedEvaluation();
    void stableDiffusionTableMatchesRcps();
    void loraHandWorked();
    void loraEvaluations_data();
    void loraEvaluations();
    void rgatHandWorked();
};

void TestWorkload::builtinLoadsAll()
{
    const auto &all = Library::builtin().all();
    const std::vector<std::string> expected = {"bert_large",
                                               "bert_large_seq512",
                                               "bert_large_seq512_binned",
                                               "dlrm",
                                               "dlrm_dcnv2",
                                               "gnn",
                                               "gpt3",
                                               "llama2_70b_lora",
                                               "maskrcnn",
                                               "mobilenet_v2",
                                               "resnet50",
                                               "retinanet",
                                               "rnnt",
                                               "ssd_resnet34",
                                               "stable_diffusion",
                                               "transformer",
                                               "unet3d",
                                               "yolov5s"};
    std::vector<std::string> ids;
    for (const auto &[id, w] : all)
        ids.push_back(id);
    QCOMPARE(ids.size(), expected.size());
    QVERIFY(ids == expected);
    for (const auto &[id, w] : all) {
        QVERIFY2(!w.source.empty(), id.c_str());
        // Eval is one forward pass, training forward + backward, so training costs more per
        // sample; except where an eval sample is bigger: 3D U-Net evaluates whole volumes by
        // sliding window, Transformer decodes with beam search.
        if (id != "unet3d" && id != "transformer")
            QVERIFY2(w.trainFlopsPerSample > w.evalFlopsPerSample, id.c_str());
    }
}

void TestWorkload::resnetHandWorked()
{
    const Workload *w = Library::builtin().find("resnet50");
    QVERIFY(w);
    // He et al. 2016: 25.6 M parameters; 4.1 G multiply-adds forward at 224x224.
    QVERIFY(std::abs(w->parameters - 25.6e6) / 25.6e6 < 0.01);
    const double handWorked = 3 * 2 * 4.1e9; // 24.6 GFLOP
    QVERIFY2(std::abs(w->trainFlopsPerSample - handWorked) / handWorked < 0.10,
             std::to_string(w->trainFlopsPerSample).c_str());
    QCOMPARE(w->datasetSamples, 1281167.0);
    QCOMPARE(w->evalEverySamples, 4 * 1281167.0); // MLPerf: every 4 epochs
}

void TestWorkload::bertHandWorked()
{
    const Workload *w = Library::builtin().find("bert");
    QVERIFY(w);
    QCOMPARE(w->id, std::string("bert_large"));
    QVERIFY(std::abs(w->parameters - 340e6) / 340e6 < 0.05);
    // MLPerf implementations drop the padding: a phase-2 sequence averages about 256 of its 512
    // tokens, and attention runs within each sequence, at E[s^2] = 98,826 over Graphcore's
    // published length histogram. 6 x 340 M x 256 + 24 layers x 3 x 4 x 98,826 x 1024 = 0.551
    // TFLOP.
    QVERIFY(std::abs(w->trainFlopsPerSample - 5.51e11) / 5.51e11 < 0.01);
    QCOMPARE(w->evalRule, std::string("bert"));
    // MLPerf v3.1 logs: an evaluation sample costs about a training sample, and a pass on 3,472
    // GPUs takes 4 to 6 ms, so the fixed cost is milliseconds, not the second once fitted.
    QVERIFY(w->measuredEval);
    QVERIFY(w->measuredEval->costRatio > 0.8 && w->measuredEval->costRatio < 1.2);
    QVERIFY(w->measuredEval->fixedS < 0.005);
    QVERIFY(w->fp8Share > 0.8 && w->fp8Share <= 0.96);
    // Its FP8 layers' casts and transposes: 14 h bytes a token and layer (h = 1024, 24 layers,
    // 256 tokens), counted from NVIDIA's te_layers.py in the workload's source.
    QVERIFY(std::abs(w->fp8CastBytesPerSample - 14 * 1024 * 24 * 256.0) / 8.8e7 < 0.01);
    // Its matrix kernels a pass: 24 layers x (4 linears x 3 + fused attention forward and
    // backward) + the masked-LM head's 2 linears x 3.
    QCOMPARE(w->matrixKernelsPerPass, 24 * (4 * 3 + 2) + 2 * 3);
    // DLE's padded variant shares its calibration and costs 512 tokens.
    const Workload *padded = Library::builtin().find("bert_large_seq512");
    QVERIFY(padded);
    QCOMPARE(padded->calibrationKey(), std::string("bert_large"));
    QVERIFY(std::abs(padded->trainFlopsPerSample - 1.12e12) / 1.12e12 < 0.01);
    // DLE's length-binned variant pads a sample to its 64-token bin's top: 279.2 tokens on
    // average over the histogram, between MLPerf's unpadded samples and the padded ones.
    const Workload *binned = Library::builtin().find("bert_large_seq512_binned");
    QVERIFY(binned);
    QCOMPARE(binned->calibrationKey(), std::string("bert_large"));
    QVERIFY(binned->trainFlopsPerSample > w->trainFlopsPerSample);
    QVERIFY(binned->trainFlopsPerSample < padded->trainFlopsPerSample);
    QVERIFY(binned->memoryBytesPerSample < padded->memoryBytesPerSample);
    // FLOOR(0.05 * (230.23 * 448 + 3,000,000), 25,000) = 150,000.
    QCOMPARE(w->evalEverySamples, std::floor(0.05 * (230.23 * 448 + 3e6) / 25000) * 25000);
}

void TestWorkload::transformerFlopsRule_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("tokens");
    QTest::addColumn<double>("attention"); // attention FLOPs beyond 6 x parameters x tokens
    // BERT counts its 24 layers' attention products, 3 x 4 x s^2 x h each, at the mean square
    // length of its sequences (Graphcore's Wikipedia histogram at 512: E[s^2] 98,826 unpadded,
    // 108,133 padded to 64-token bins); GPT-3's table gives 6 N s alone (attention is 3 % at
    // s = 2048).
    QTest::newRow("bert") << QStringLiteral("bert_large") << 256.0 << 24 * 12 * 98826.0 * 1024;
    QTest::newRow("padded bert") << QStringLiteral("bert_large_seq512") << 512.0
                                 << 24 * 12 * 512.0 * 512 * 1024;
    QTest::newRow("binned bert") << QStringLiteral("bert_large_seq512_binned") << 279.2
                                 << 24 * 12 * 108133.0 * 1024;
    QTest::newRow("gpt3") << QStringLiteral("gpt3") << 2048.0 << 0.0;
}

void TestWorkload::transformerFlopsRule()
{
    QFETCH(QString, id);
    QFETCH(double, tokens);
    QFETCH(double, attention);
    const Workload *w = Library::builtin().find(id.toStdString());
    QVERIFY(w);
    const double rule = 6 * w->parameters * tokens + attention;
    // The JSON rounds to three figures.
    QVERIFY2(std::abs(w->trainFlopsPerSample - rule) / rule < 5e-3,
             std::to_string(w->trainFlopsPerSample / rule).c_str());
    QVERIFY(std::abs(w->evalFlopsPerSample - w->trainFlopsPerSample / 3)
            < 1e-6 * w->trainFlopsPerSample);
}

void TestWorkload::findByIdAndAlias_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("id");
    QTest::newRow("id") << QStringLiteral("gpt3") << QStringLiteral("gpt3");
    QTest::newRow("alias") << QStringLiteral("resnet") << QStringLiteral("resnet50");
    QTest::newRow("alias upper case") << QStringLiteral("RESNET") << QStringLiteral("resnet50");
    QTest::newRow("id other case") << QStringLiteral("ResNet50") << QStringLiteral("resnet50");
    QTest::newRow("ssd is retinanet") << QStringLiteral("ssd") << QStringLiteral("retinanet");
    QTest::newRow("ssd_v1") << QStringLiteral("SSD_v1") << QStringLiteral("ssd_resnet34");
    QTest::newRow("mask") << QStringLiteral("Mask") << QStringLiteral("maskrcnn");
    QTest::newRow("yolov5") << QStringLiteral("yolov5") << QStringLiteral("yolov5s");
    QTest::newRow("unknown") << QStringLiteral("resnet5") << QString();
    QTest::newRow("empty") << QString() << QString();
}

void TestWorkload::findByIdAndAlias()
{
    QFETCH(QString, query);
    QFETCH(QString, id);
    const Workload *w = Library::builtin().find(query.toStdString());
    if (id.isEmpty()) {
        QVERIFY(!w);
    } else {
        QVERIFY(w);
        QCOMPARE(QString::fromStdString(w->id), id);
    }
}

void TestWorkload::interpolation_data()
{
    // Table: 100 -> 1000, 200 -> 1200, 400 -> 2000 samples.
    QTest::addColumn<int>("batch");
    QTest::addColumn<double>("samples");
    QTest::newRow("below: smallest point") << 10 << 1000.0;
    QTest::newRow("at smallest") << 100 << 1000.0;
    QTest::newRow("between 100 and 200") << 150 << 1100.0; // 1000 + 0.5 * 200
    QTest::newRow("at middle") << 200 << 1200.0;
    QTest::newRow("between 200 and 400") << 300 << 1600.0; // 1200 + 0.5 * 800
    QTest::newRow("quarter of the way") << 250 << 1400.0;  // 1200 + 0.25 * 800
    QTest::newRow("at largest") << 400 << 2000.0;
    QTest::newRow("above: proportional") << 800 << 4000.0; // 2000 * 800 / 400
    QTest::newRow("above, odd batch") << 500 << 2500.0;
}

void TestWorkload::interpolation()
{
    QFETCH(int, batch);
    QFETCH(double, samples);
    const auto got = samplesToConverge(toyTable(), batch);
    QVERIFY(got);
    QCOMPARE(*got, samples);
}

void TestWorkload::noTable()
{
    for (const char *id : {"mobilenet_v2", "yolov5s", "transformer"}) {
        const Workload *w = Library::builtin().find(id);
        QVERIFY(w);
        QVERIFY2(w->convergence.empty(), id);
        QVERIFY2(!samplesToConverge(*w, 256), id);
    }
}

void TestWorkload::neverFewerThanTheTable()
{
    int withTable = 0;
    for (const auto &[id, w] : Library::builtin().all()) {
        if (w.convergence.empty())
            continue;
        ++withTable;
        const auto &t = w.convergence;
        // At each point: its samples, or more where a smaller batch needed more (the running
        // maximum: reference tables are means of noisy runs and may dip).
        double runningMax = 0;
        for (const ConvergencePoint &p : t) {
            runningMax = std::max(runningMax, p.samples);
            QCOMPARE(*samplesToConverge(w, p.globalBatch), runningMax);
        }
        const int top = t.back().globalBatch;
        double previous = 0;
        for (int b = 1; b <= 4 * top; b += std::max(1, top / 997)) {
            const double s = *samplesToConverge(w, b);
            const std::string where = id + " at batch " + std::to_string(b);
            QVERIFY2(s >= previous, (where + ": fewer samples than at a smaller batch").c_str());
            previous = s;
            if (b <= t.front().globalBatch) {
                QVERIFY2(s == t.front().samples, where.c_str());
            } else if (b >= top) {
                // Above the table: at least the largest reference, growing with the batch.
                QVERIFY2(s >= t.back().samples, where.c_str());
                QVERIFY2(std::abs(s - std::max(runningMax, t.back().samples * b / top)) <= 1e-9 * s,
                         where.c_str());
            } else {
                // Between two references: never below the smaller of the two, and never above
                // the larger or the running maximum.
                const auto hi
                    = std::upper_bound(t.begin(), t.end(), b, [](int x, const ConvergencePoint &p) {
                          return x < p.globalBatch;
                      });
                const auto lo = hi - 1;
                QVERIFY2(s >= std::min(lo->samples, hi->samples) - 1e-6, where.c_str());
                QVERIFY2(s <= std::max(runningMax, std::max(lo->samples, hi->samples)) + 1e-6,
                         where.c_str());
            }
        }
    }
    QCOMPARE(withTable, 13);
}

void TestWorkload::resnetTableMatchesRcps()
{
    namespace fs = std::filesystem;
    const fs::path rcps = fs::path(CLAB_SHARED_DIR) / "reference" / "mlperf_rcps";
    if (!fs::is_directory(rcps))
        QSKIP("no ../shared/reference/mlperf_rcps here");
    // The newest round with a ResNet file, as scripts/rcp_to_convergence.py picks it.
    auto round = [](const fs::path &dir) { // "training_3.1.0" -> (3, 1)
        int major = -1, minor = -1;
        std::sscanf(dir.filename().string().c_str(), "training_%d.%d", &major, &minor);
        return std::pair(major, minor);
    };
    fs::path newest;
    for (const auto &entry : fs::directory_iterator(rcps)) {
        const fs::path f = entry.path() / "rcps_resnet.json";
        if (fs::exists(f) && (newest.empty() || round(entry.path()) > round(newest.parent_path())))
            newest = f;
    }
    QVERIFY(!newest.empty());
    const Json records = parseJson(readTextFile(newest.string()), newest.string());

    const Workload *w = Library::builtin().find("resnet");
    QVERIFY(w);
    QCOMPARE(w->convergence.size(), records.size());
    for (const auto &[name, rec] : records.items()) {
        const int batch = rec.at("BS").get<int>();
        const auto epochs = rec.at("Epochs to converge").get<std::vector<double>>();
        // rcp_checker's olympic mean (drop fastest and slowest), times ImageNet's images.
        const double expected = olympicMean(epochs, 1) * 1281167;
        const ConvergencePoint *p = pointAt(*w, batch);
        QVERIFY2(p, name.c_str());
        QVERIFY2(std::abs(p->samples - expected) <= 0.5, name.c_str());
        QVERIFY2(p->source.find(name) != std::string::npos, p->source.c_str());
        QVERIFY2(p->source.find(newest.parent_path().filename().string()) != std::string::npos,
                 p->source.c_str());
    }
}

// An evaluation the rules leave out of the timed run needs no size and costs no pass.
void TestWorkload::untimedEvaluation()
{
    Json j = validWorkload();
    j["evalTimed"] = false;
    j.erase("evalSamples");
    j.erase("evalFlopsPerSample");
    Library l;
    l.addFile(fileText(j), "toy.json");
    const Workload *w = l.find("toy");
    QVERIFY(w);
    QVERIFY(!w->evalTimed);
    QCOMPARE(evaluations(*w, 5000, 100), 0.0);
    QCOMPARE(evaluations(toyTable(), 5000, 100), 5.0); // the same workload, timed: every 1000

    const Workload *sd = Library::builtin().find("stable_diffusion");
    QVERIFY(sd);
    QVERIFY(!sd->evalTimed); // training_rules.adoc: scored offline, not timed
    QCOMPARE(evaluations(*sd, 2.048e6, 256), 0.0);
}

// MLPerf Stable Diffusion's table is the v4.1 RCPs (its calibration rows are v3.1 to v4.1), in
// samples: the olympic mean of the runs' checkpoint counts.
void TestWorkload::stableDiffusionTableMatchesRcps()
{
    namespace fs = std::filesystem;
    const fs::path file = fs::path(CLAB_SHARED_DIR) / "reference" / "mlperf_rcps" / "training_4.1.0"
                          / "rcps_stable_diffusion.json";
    if (!fs::exists(file))
        QSKIP("no ../shared/reference/mlperf_rcps/training_4.1.0 here");
    const Json records = parseJson(readTextFile(file.string()), file.string());
    const Workload *w = Library::builtin().find("stable_diffusion");
    QVERIFY(w);
    QCOMPARE(w->convergence.size(), records.size());
    for (const auto &[name, rec] : records.items()) {
        const int batch = rec.at("BS").get<int>();
        const double expected
            = olympicMean(rec.at("Epochs to converge").get<std::vector<double>>(), 1);
        const ConvergencePoint *p = pointAt(*w, batch);
        QVERIFY2(p, name.c_str());
        QVERIFY2(std::abs(p->samples - expected) <= 0.5, name.c_str());
    }
    // Hand check: at batch 256 the olympic mean of the runs' checkpoints (1.536 M to 2.56 M
    // samples) comes to four 512,000-image checkpoints.
    QCOMPARE(*samplesToConverge(*w, 256), 4 * 512000.0);
}

// Llama 2 70B LoRA (MLPerf v4.0+): only the rank-16 adapters on the attention's QKV and output
// projections train; the 70B base model is frozen and stored in FP8.
void TestWorkload::loraHandWorked()
{
    const Workload *w = Library::builtin().find("llama2_70b_lora");
    QVERIFY(w);
    const double layers = 80, h = 8192, kv = 1024, ffn = 28672, vocab = 32000, s = 8192;
    // Rank 16: QKV adapter 16 x (h + h + 2 kv), output adapter 16 x (h + h), per layer.
    const double lora = layers * 16 * ((h + h + 2 * kv) + (h + h));
    QCOMPARE(w->parameters, lora); // 44,564,480
    QCOMPARE(w->allreduceParameters, lora);
    // Linears (QKV, output, SwiGLU's three), embedding and output layer, two norms a layer + one.
    const double linear = layers * (h * (h + 2 * kv) + h * h + 3 * h * ffn);
    const double frozen = linear + 2 * vocab * h + (2 * layers + 1) * h;
    QCOMPARE(w->frozenParameters, frozen); // 68,976,648,192: the published 70B
    // FP8 linears at 1 B, the rest at 2 B.
    QVERIFY(std::abs(w->frozenBytesPerParam - (linear + 2 * (frozen - linear)) / frozen) < 1e-4);
    // Per token: frozen linears forward and input gradients, output layer the same, causal
    // attention 2 L s h forward and twice that backward, adapters 6 x their weights.
    const double perToken = 4 * linear + 4 * vocab * h + 3 * 2 * layers * s * h + 6 * lora;
    QVERIFY2(std::abs(w->trainFlopsPerSample - perToken * s) / (perToken * s) < 1e-3,
             std::to_string(perToken * s).c_str());
    QCOMPARE(w->evalRule, std::string("llama2_70b_lora"));
    QCOMPARE(w->evalSamples, 173.0);
    QCOMPARE(w->defaultPrecision, std::string("fp8"));
    QCOMPARE(w->contextParallelMax, 2); // NVIDIA's multi-node configs: CP 2
    QCOMPARE(w->convergence.size(), std::size_t(4));
    QCOMPARE(w->convergence.front().samples, 3179.0); // RCP olympic mean at 8, 3178.67
}

// training_rules.adoc: every 384 sequences (CEIL(384 / GBS) steps), skipping the first
// FLOOR(0.125 GBS + 2) evaluations; the last evaluation reaches the target.
void TestWorkload::loraEvaluations_data()
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<double>("samples");
    QTest::addColumn<double>("expected");
    // 8: skip 3, first at 4 x 384 = 1536; (3179 - 1536) / 384 = 4.3 -> 5 evaluations.
    QTest::newRow("8") << 8 << 3179.0 << 5.0;
    QTest::newRow("16") << 16 << 4032.0 << 6.0;     // first 1920
    QTest::newRow("128") << 128 << 11264.0 << 11.0; // skip 18, first 7296
    // 256 does not divide 384: every 2 steps = 512, skip 34, first 17,920.
    QTest::newRow("256") << 256 << 22528.0 << 10.0;
    QTest::newRow("before the first") << 8 << 1000.0 << 1.0;
}

void TestWorkload::loraEvaluations()
{
    QFETCH(int, batch);
    QFETCH(double, samples);
    QFETCH(double, expected);
    const Workload *w = Library::builtin().find("llama2_70b_lora");
    QVERIFY(w);
    QCOMPARE(evaluations(*w, samples, batch), expected);
    // The interval is the workload's: at 768 sequences, batch 8 skips 3 and starts at 3,072.
    Workload longer = *w;
    longer.evalEverySamples = 768;
    QCOMPARE(evaluations(longer, 3179, 8), 1.0);
    QCOMPARE(evaluations(longer, 3840, 8), 2.0);
}

// R-GAT (MLPerf gnn): the parameters counted from the layer shapes, the RCP table in epochs of
// the 94,605,581 training seeds, 20 evaluations an epoch, and the start a run loses, which
// shrinks as the nodes share out the loading of the feature store.
void TestWorkload::rgatHandWorked()
{
    const Workload *w = Library::builtin().find("rgat");
    QVERIFY(w);
    QCOMPARE(w->id, std::string("gnn"));
    // 11 relations a layer, each a shared projection plus two attention vectors and a bias.
    const double layer1 = 11 * (1024.0 * 512 + 3 * 512);
    const double inner = 11 * (512.0 * 512 + 3 * 512);
    const double head = 512.0 * 2983 + 2983;
    QCOMPARE(w->parameters, layer1 + 2 * inner + head); // 13,115,303
    QCOMPARE(w->datasetSamples, 94605581.0);            // 0.6 x 157,675,969 labelled papers
    // RCP at 16,384: 20 runs of 0.75 to 0.95 epochs; without the fastest and the slowest, 18
    // runs sum to 15.5 epochs.
    QCOMPARE(samplesToConverge(*w, 16384).value_or(0), std::round(15.5 / 18 * 94605581));
    // 0.86 epochs (most single-node runs stopped at the evaluation labelled 0.85): 17
    // evaluations of 0.05 epoch each.
    QCOMPARE(evaluations(*w, 0.86 * 94605581, 16384), 17.0);
    // 11.0 + 17.1 / nodes: 28.1 s on one node, 13.1 on 8, 11.3 on 64 (the logs: 28.0, 14.0,
    // 10.5).
    QCOMPARE(w->startOn(1), 28.1);
    QCOMPARE(w->startOn(8), 11.0 + 17.1 / 8);
    QCOMPARE(w->startOn(0), 28.1);
    QVERIFY(w->startOn(64) < w->startOn(8));
}

QTEST_APPLESS_MAIN(TestWorkload)
#include "tst_workload.moc"
