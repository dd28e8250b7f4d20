// model/llm against Megatron-LM's published runs (tests/data/llm/megatron_mfu.json: Korthikanti
// et al. 2022, Tables 3 and 5; narayanan_table1.json: Narayanan et al. 2021, Table 1). Prints each
// row's error on the iteration time (with sequence parallelism and selective recomputation, and
// with full recomputation) and on the MFU; the target is a mean absolute error of at most 5
// % and a largest of at most 10 %. Where the model misses it the test says so (an expected failure)
// instead of passing quietly, so that a model change that meets it shows as XPASS.
#include "catalog/catalog.h"
#include "llm/plan.h"
#include "llm/shape.h"
#include "util/fileio.h"
#include "util/jsonreader.h"

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <optional>

using namespace clab;
using namespace clab::llm;

class TestLlmValidation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void megatronIterations();
    void narayananTable1();
};

void TestLlmValidation::megatronIterations()
{
    const std::string file = CLAB_TEST_DATA "/llm/megatron_mfu.json";
    const Json root = parseJson(readTextFile(file), file);
    const Json &rows = root.at("rows");
    QCOMPARE(rows.size(), std::size_t(4));
    double sum = 0, worst = 0;
    int n = 0;
    const auto score = [&](double model, double published) {
        const double error = model / published - 1;
        sum += std::abs(error);
        worst = std::max(worst, std::abs(error));
        ++n;
        return 100 * error;
    };
    for (const Json &row : rows) {
        const Shape s = parseShape(row.at("preset").get<std::string>());
        const Hardware hw = hardwareOf(catalog::Catalog::builtin(), "A100-SXM4-80GB",
                                       row.at("gpus").get<long long>(), 8, 200);
        Plan p;
        p.tensor = row.at("tensor").get<long long>();
        p.pipeline = row.at("pipeline").get<long long>();
        p.interleave = row.at("interleave").get<long long>();
        p.micro = row.at("micro").get<long long>();
        p.recompute = Recompute::Selective;
        p.sequenceParallel = true;
        p.globalBatch = row.at("globalBatch").get<long long>();
        checkPlan(s, hw, p);
        const StepTime t = stepTime(s, hw, p);
        QVERIFY(memoryPerGpu(s, hw, p).fits());
        Plan full = p;
        full.recompute = Recompute::Full;
        full.sequenceParallel = false;
        checkPlan(s, hw, full);
        const StepTime f = stepTime(s, hw, full);

        const double published = row.at("iterationS").get<double>();
        const double publishedFull = row.at("fullRecomputeS").get<double>();
        std::printf("  %-14s %s: %6.2f s published, %6.2f s model (%+5.1f %%); full recompute "
                    "%6.2f / %6.2f s (%+5.1f %%)\n",
                    s.name.c_str(), describe(p).c_str(), published, t.total,
                    score(t.total, published), publishedFull, f.total,
                    score(f.total, publishedFull));
        const double mfu = row.at("mfu").get<double>();
        std::printf("    MFU %5.1f %% published, %5.1f %% model; HFU / MFU published %.4f, "
                    "model %.4f\n",
                    100 * mfu, 100 * t.mfu, row.at("hfu").get<double>() / mfu, t.hfu / t.mfu);
        // Recomputing everything is slower, and no figure passes the GEMM ceiling.
        QVERIFY(f.total > t.total);
        QVERIFY(t.mfu > 0 && t.mfu < t.hfu && t.hfu < hw.efficiency * hw.gemmFlops / hw.peakFlops);
    }
    const double mean = sum / n;
    std::printf("  iteration times: mean absolute error %.1f %%, largest %.1f %% over %d (target "
                "5 %% and 10 %%)\n",
                100 * mean, 100 * worst, n);
    // No worse than recorded: a regression fails. Written at 11.5 % and 20.9 %; 12.8 % and
    // 22.8 % since the fit reads BERT's median samples (the GPT-3 efficiency, which these
    // iterations take without an MLPerf round's software factor, moved 0.726 to 0.712); 13.3 %
    // and 23.5 % since Stable Diffusion's rows joined the fit (11 of them v4.1: the mlperf-4.1
    // factor moved 0.994 to 0.976, and GPT-3's efficiency 0.712 to 0.708); 13.4 % and 23.7 %
    // since Stable Diffusion's all-gather alone is exposed (0.708 to 0.707); 10.8 % and 19.8 %
    // since the planner takes GPT-3's efficiency with the newest round's software factor, as
    // `predict` does (0.682 over mlperf-4.1's 0.948 x GPT-3's own 0.983 = 0.732), not the
    // factor-1 value that moves with every round factor the fit shares; 10.9 % and 20.1 % since
    // BERT runs FP16 where its configurations do (0.679 / (0.947 x 0.981) = 0.730); 10.8 % and
    // 19.9 % since RetinaNet's evaluation is the host's (0.676 / (0.941 x 0.982) = 0.731); 10.1 %
    // and 18.8 % since element-wise kernels run at the SMs' rate where it is below HBM's (H100 NVL,
    // H200, B200, GB200: 0.672 / (0.919 x 0.989) = 0.739); 10.0 % since Stable Diffusion's rows
    // are fitted on the samples their runs trained (0.671 / (0.918 x 0.990) = 0.739); 9.5 % and
    // 18.1 % since Llama 2 70B LoRA's rows joined the fit (0.671 / (0.907 x 0.994) = 0.744); 9.3 %
    // and 17.7 % since LoRA's split sequences and the measured start costs (0.668 / (0.898 x
    // 0.996) = 0.747); 9.2 % and 17.6 % since BERT's FP8 casts (0.663 / (0.890 x 0.997) = 0.748);
    // 9.4 % and 17.9 % since matrix kernels pay a fixed time (0.650 / (0.877 x 0.994) = 0.745);
    // 9.6 % and 18.2 % since a result listed in two rounds counts once (0.653 / (0.881 x 0.996)
    // = 0.743); 9.1 % and 17.4 % since R-GAT's rows joined the fit and moved the round-4.1
    // factor (0.652 / (0.870 x 1.001) = 0.749).
    QVERIFY2(mean <= 0.092 && worst <= 0.175, "worse than the recorded 9.1 % / 17.4 %");
    if (mean > 0.05 || worst > 0.10)
        QEXPECT_FAIL("", "model/llm does not meet the issue's validation target yet", Continue);
    QVERIFY(mean <= 0.05 && worst <= 0.10);
}

void TestLlmValidation::narayananTable1()
{
    // Narayanan et al. 2021 Table 1 gives tensor and pipeline sizes but not the micro-batch or the
    // interleaving, which the authors tuned: the model takes the fastest of those that fit
    // (micro-batch 1, 2, 4 or 8; 1 to 8 chunks a stage), with full recomputation, no sequence
    // parallelism, unfused attention and no ZeRO, as in 2021.
    const std::string file = CLAB_TEST_DATA "/llm/narayanan_table1.json";
    const Json root = parseJson(readTextFile(file), file);
    const Json &rows = root.at("rows");
    QCOMPARE(rows.size(), std::size_t(10));
    double sum = 0, worst = 0;
    for (const Json &row : rows) {
        const auto n = [&](const char *k) { return std::to_string(row.at(k).get<long long>()); };
        const Shape s = parseShape("llm:layers=" + n("layers") + ",hidden=" + n("hidden")
                                   + ",heads=" + n("heads") + ",seq=2048");
        const Hardware hw = hardwareOf(catalog::Catalog::builtin(), "A100-SXM4-80GB",
                                       row.at("gpus").get<long long>(), 8, 200);
        Plan p;
        p.tensor = row.at("tensor").get<long long>();
        p.pipeline = row.at("pipeline").get<long long>();
        p.recompute = Recompute::Full;
        p.globalBatch = row.at("batch").get<long long>();
        std::optional<StepTime> best;
        Plan chosen = p;
        for (long long micro : {1, 2, 4, 8}) {
            for (long long v = 1; v <= (p.pipeline > 1 ? 8 : 1); ++v) {
                Plan q = p;
                q.micro = micro;
                q.interleave = v;
                try {
                    checkPlan(s, hw, q);
                } catch (const PlanError &) {
                    continue;
                }
                if (!memoryPerGpu(s, hw, q).fits())
                    continue;
                const StepTime t = stepTime(s, hw, q);
                if (!best || t.total < best->total) {
                    best = t;
                    chosen = q;
                }
            }
        }
        QVERIFY2(best.has_value(), "no plan of the published sizes fits");
        const double published = row.at("tflops").get<double>();
        const double error = best->tflopsPerGpu / published - 1;
        sum += std::abs(error);
        worst = std::max(worst, std::abs(error));
        std::printf("  %6.1f B %-24s %5.0f TFLOP/s a GPU published, %5.1f model (%+5.1f %%)\n",
                    parameters(s) / 1e9, describe(chosen).c_str(), published, best->tflopsPerGpu,
                    100 * error);
    }
    const double mean = sum / double(rows.size());
    std::printf("  mean absolute error %.1f %%, largest %.1f %% (target 5 %% and 10 %%)\n",
                100 * mean, 100 * worst);
    // Within the target, and no worse than recorded (3.1 % and 5.9 %, 2026-12-06; 6.0 %
    // since RetinaNet's evaluation is the host's and GPT-3's efficiency moved 0.679 to 0.676; 3.3 %
    // and 6.8 % since η is 0.739, element-wise kernels at the SMs' rate where it binds; 6.9 % since
    // Stable Diffusion's rows are fitted on their runs' samples; 3.5 % and 7.4 % since η is 0.744,
    // Llama 2 70B LoRA's rows in the fit; 3.6 % and 7.7 % since η is 0.747, the LoRA rows that
    // split sequences at 0.78 of the rate and the measured start costs moving the shared
    // round-4.1 factor; 3.7 % and 7.8 % since η is 0.748, BERT's FP8 casts moving that factor
    // again; 3.6 % and 7.5 % since η is 0.745, matrix kernels paying a fixed time; 3.4 % and
    // 7.3 % since η is 0.743, each result counted once; 3.8 % and 7.9 % since η is 0.749, R-GAT's
    // rows moving the round-4.1 factor): a regression fails even while it stays inside the
    // target.
    QVERIFY2(mean <= 0.05 && worst <= 0.10, "outside the issue's 5 % / 10 % target");
    QVERIFY2(mean <= 0.0385 && worst <= 0.080, "worse than the recorded 3.8 % / 7.9 %");
}

QTEST_APPLESS_MAIN(TestLlmValidation)
#include "tst_llmvalidation.moc"
