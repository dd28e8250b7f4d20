// `composelab plans`: the ranked search and one plan, in text and JSON, on catalog GPUs and on a
// design's composed system, and bad input named with the right exit status (1 for a bad shape or
// design, 2 for a plan breaking a rule or wrong usage).
#include "app/clirun.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace clab;

class TestPlansCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void searchJson();
    void onePlanText();
    void badInput();
    void onADesign();
    void extrapolatedOffTheFittedGpu_data();
    void extrapolatedOffTheFittedGpu();
};

void TestPlansCli::searchJson()
{
    const auto r = test::run({"plans", "--benchmark", "gpt3-175b", "--gpu", "A100-SXM4-80GB",
                              "--gpus", "1024", "--top", "5", "--json"});
    QVERIFY2(r.status == 0, r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("global_batch").get<long long>(), 1536LL); // the preset's (Narayanan 2021)
    QCOMPARE(j.at("plans").size(), std::size_t(5));
    QVERIFY(j.at("not_fitting").get<long long>() > 0);
    double last = 0;
    for (const auto &p : j.at("plans")) {
        QVERIFY(p.at("fits").get<bool>());
        const double total = p.at("step_s").at("total").get<double>();
        QVERIFY(total >= last);
        last = total;
        // Each plan's step is the sum of its parts.
        const auto &s = p.at("step_s");
        const double sum = s.at("compute").get<double>() + s.at("elementwise").get<double>()
                           + s.at("tensor_comm").get<double>() + s.at("pipeline_comm").get<double>()
                           + s.at("bubble").get<double>()
                           + s.at("data_parallel_exposed").get<double>()
                           + s.at("optimizer").get<double>();
        QVERIFY(std::abs(sum - total) < 1e-9 * total);
        // 1024 GPUs over tensor x pipeline replicas must divide the batch of 1,536.
        const long long d
            = 1024 / (p.at("tensor").get<long long>() * p.at("pipeline").get<long long>());
        QCOMPARE(1536 % d, 0LL);
        QVERIFY(p.at("mfu").get<double>() < p.at("hfu").get<double>()
                || p.at("recompute").get<std::string>() == "none");
    }
}

void TestPlansCli::onePlanText()
{
    // A toy shape: per layer 12 h^2 + 13 h = 49,152 + 832 = 49,984, two layers 99,968;
    // embeddings (51,200 + 16) x 64 = 3,277,824; final LayerNorm 128: 3,377,920 parameters.
    const std::string toy = "llm:layers=2,hidden=64,heads=4,seq=16";
    auto r = test::run({"plans", "--benchmark", toy, "--gpu", "A100-SXM4-80GB", "--gpus", "8",
                        "--global-batch", "8", "--tensor", "2", "--pipeline", "2", "--json"});
    QVERIFY2(r.status == 0, r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("parameters").get<double>(), 3377920.0);
    QCOMPARE(j.at("plans").size(), std::size_t(1));
    // d = 8 / 4 = 2 replicas of 4 sequences, micro-batch 1: 4 micro-batches.
    QCOMPARE(j.at("plans")[0].at("micro_batches").get<long long>(), 4LL);

    // GPT-3 unsharded without recomputation on 64 GPUs does not fit, and says by how much.
    r = test::run({"plans", "--benchmark", "gpt3-175b", "--gpu", "A100-SXM4-80GB", "--gpus", "64",
                   "--global-batch", "64", "--tensor", "8", "--pipeline", "8"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY2(r.out.find("T8 P8 V1 M1 none") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("does not fit: ") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("GiB over the 80 GiB") != std::string::npos, r.out.c_str());

    // A tiny model's figures keep three digits: parameters in millions, times in ms or us.
    r = test::run({"plans", "--benchmark", toy, "--gpu", "A100-SXM4-80GB", "--gpus", "8",
                   "--global-batch", "8", "--tensor", "2", "--pipeline", "2"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY2(r.out.find("(3.4 M parameters)") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find(" us") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("0.000 s") == std::string::npos, r.out.c_str());

    // --fused-attention: the plans say FA, and the same plan spends less on element-wise work.
    const std::vector<std::string> llama = {"plans",
                                            "--benchmark",
                                            "llama2-7b",
                                            "--gpu",
                                            "A100-SXM4-80GB",
                                            "--gpus",
                                            "8",
                                            "--global-batch",
                                            "64",
                                            "--tensor",
                                            "1",
                                            "--micro-batch",
                                            "1",
                                            "--recompute",
                                            "selective",
                                            "--json"};
    std::vector<std::string> fused = llama;
    fused.push_back("--fused-attention");
    const auto elementwise = [](const test::Outcome &o) {
        return nlohmann::json::parse(o.out)
            .at("plans")[0]
            .at("step_s")
            .at("elementwise")
            .get<double>();
    };
    const auto a = test::run(llama);
    const auto b = test::run(fused);
    QVERIFY2(a.status == 0 && b.status == 0, (a.err + b.err).c_str());
    QCOMPARE(nlohmann::json::parse(b.out).at("plans")[0].at("attention").get<std::string>(),
             std::string("fused"));
    QVERIFY(elementwise(b) < elementwise(a) / 2);
}

void TestPlansCli::badInput()
{
    const std::vector<std::string> base
        = {"plans", "--benchmark", "gpt3-175b", "--gpu", "A100-SXM4-80GB", "--gpus", "3072"};
    const auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return test::run(args);
    };
    // T x P not dividing the GPUs, T above the heads, a micro-batch not dividing the local batch
    // (3072 / 64 = 48 replicas of 32 sequences): usage errors naming the rule.
    auto r = with({"--tensor", "8", "--pipeline", "5"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("must divide the GPUs (3072)") != std::string::npos, r.err.c_str());
    r = with({"--tensor", "128"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("must not exceed the heads (96)") != std::string::npos, r.err.c_str());
    r = with({"--tensor", "8", "--pipeline", "8", "--micro-batch", "5"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("must divide the local batch (32") != std::string::npos, r.err.c_str());
    // A shape with a zero or negative size is bad input naming the field.
    r = test::run({"plans", "--benchmark", "llm:layers=4,hidden=0,heads=4,seq=16", "--gpu",
                   "A100-SXM4-80GB", "--gpus", "8", "--global-batch", "8"});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("hidden: must be a positive whole number") != std::string::npos,
             r.err.c_str());
    r = test::run({"plans", "--benchmark", "llm:layers=-4,hidden=64,heads=4,seq=16", "--gpu",
                   "A100-SXM4-80GB", "--gpus", "8", "--global-batch", "8"});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("layers:") != std::string::npos, r.err.c_str());
    // An unknown GPU, and a shape without a published batch and no --global-batch.
    r = test::run({"plans", "--benchmark", "gpt3-175b", "--gpu", "A100-SXM4-80", "--gpus", "8"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("unknown GPU \"A100-SXM4-80\"; did you mean ") != std::string::npos,
             r.err.c_str());
    QVERIFY2(r.err.find("A100-SXM4-80GB") != std::string::npos, r.err.c_str());
    // A node larger than any NVSwitch system of the GPU's NVLink generation (8 H100s on an HGX
    // board) would plan tensor groups over links that do not exist; the GB200's rack joins 72.
    r = test::run({"plans", "--benchmark", "gpt3-175b", "--gpu", "H100-SXM5-80GB", "--gpus", "576",
                   "--gpus-per-node", "72"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("72 GPUs a node: the largest NVLink 4 switch system in the catalog "
                        "(hgx-h100-8gpu) joins 8")
                 != std::string::npos,
             r.err.c_str());
    r = test::run({"plans", "--benchmark", "gpt3-175b", "--gpu", "GB200-186GB", "--gpus", "576",
                   "--gpus-per-node", "72", "--top", "1"});
    QCOMPARE(r.status, 0);
    r = test::run(
        {"plans", "--benchmark", "llama3.1-8b", "--gpu", "H100-SXM5-80GB", "--gpus", "8"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("--global-batch") != std::string::npos, r.err.c_str());
}

// The planner's efficiency is fitted on A100-SXM4-80GB runs: every other GPU, an Ampere one
// included, is flagged as extrapolated.
void TestPlansCli::extrapolatedOffTheFittedGpu_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<bool>("flagged");
    QTest::newRow("fitted") << QStringLiteral("A100-SXM4-80GB") << false;
    QTest::newRow("A100 PCIe") << QStringLiteral("A100-PCIe-80GB") << true;
    QTest::newRow("H100") << QStringLiteral("H100-SXM5-80GB") << true;
}

void TestPlansCli::extrapolatedOffTheFittedGpu()
{
    QFETCH(QString, gpu);
    QFETCH(bool, flagged);
    const auto r = test::run({"plans", "--benchmark", "gpt3-175b", "--gpu", gpu.toStdString(),
                              "--gpus", "1024", "--top", "1"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QCOMPARE(r.out.find("it is extrapolated") != std::string::npos, flagged);
}

void TestPlansCli::onADesign()
{
    // System A of the seed testbed: 4 A100-PCIe-40GB behind one chassis uplink, a ring of
    // 25.83 GB/s a GPU with a 2.305 us slowest hop (`composelab analyze --json`). T2 on a toy
    // shape (2 layers, h 64, s 16): d = 2, batch 4, 2 micro-batches; each layer 4 all-reduces of
    // 2 x 16 x 64 = 2,048 B over 2 GPUs: (2,048 + 10 MB n-half) / 25.83e9 + 2 x 2.305 us.
    const std::string toy = "llm:layers=2,hidden=64,heads=4,seq=16";
    const std::vector<std::string> plan
        = {"--benchmark", toy, "--global-batch", "4", "--tensor", "2", "--json"};
    auto run = [&](const std::string &design, std::vector<std::string> extra) {
        std::vector<std::string> args = {"plans", test::examplePath(design)};
        args.insert(args.end(), extra.begin(), extra.end());
        args.insert(args.end(), plan.begin(), plan.end());
        return test::run(args);
    };
    auto r = run("seed-testbed.clab", {"--system", "A: 4 GPUs on one uplink"});
    QVERIFY2(r.status == 0, r.err.c_str());
    auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("gpu").get<std::string>(), std::string("A100-PCIe-40GB"));
    QCOMPARE(j.at("gpus").get<long long>(), 4LL);
    const double one = (2048 + 10e6) / 25.83e9 + 2 * 2.305e-6;
    const double pcie = j.at("plans")[0].at("step_s").at("tensor_comm").get<double>();
    QVERIFY2(std::abs(pcie / (2 * 2 * 4 * one) - 1) < 1e-3, r.out.c_str());
    // The same plan on a DGX A100's NVSwitch (264 GB/s a GPU) spends less on it.
    r = run("dgx-a100-nvswitch.clab", {});
    QVERIFY2(r.status == 0, r.err.c_str());
    j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("gpus").get<long long>(), 8LL);
    QVERIFY(j.at("plans")[0].at("step_s").at("tensor_comm").get<double>() < pcie / 5);

    // Bad input: a system the design lacks (exit 1, the systems listed), a design and --gpu
    // (exit 2), neither (exit 2).
    r = run("seed-testbed.clab", {"--system", "Z"});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("no composed system named \"Z\"") != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find("B: 6 GPUs over two switches") != std::string::npos, r.err.c_str());
    r = run("seed-testbed.clab", {"--gpu", "A100-SXM4-80GB"});
    QCOMPARE(r.status, 2);
    r = test::run({"plans", "--benchmark", toy, "--global-batch", "4"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("give a design, or --gpu and --gpus") != std::string::npos, r.err.c_str());
}

QTEST_GUILESS_MAIN(TestPlansCli)
#include "tst_planscli.moc"
