#include "cli/planscommand.h"

#include "cli/validators.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "llm/plan.h"
#include "llm/shape.h"
#include "perf/platform.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <ostream>
#include <string>

namespace clab::cli {

namespace {

constexpr double kGiB = double(1ull << 30);

// "174.6 B", "124.4 M", "2.1 T", "96.0 k" parameters.
std::string count(double n)
{
    char buf[32];
    if (n >= 1e12)
        std::snprintf(buf, sizeof buf, "%.2f T", n / 1e12);
    else if (n >= 1e9)
        std::snprintf(buf, sizeof buf, "%.1f B", n / 1e9);
    else if (n >= 1e6)
        std::snprintf(buf, sizeof buf, "%.1f M", n / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.1f k", n / 1e3);
    return buf;
}

OrderedJson toJson(const llm::Evaluated &e)
{
    OrderedJson j;
    j["tensor"] = e.plan.tensor;
    j["pipeline"] = e.plan.pipeline;
    j["interleave"] = e.plan.interleave;
    j["micro_batch"] = e.plan.micro;
    j["recompute"] = llm::recomputeName(e.plan.recompute);
    j["sequence_parallel"] = e.plan.sequenceParallel;
    j["zero"] = e.plan.zero;
    j["attention"] = e.plan.attention == llm::Attention::Fused ? "fused" : "unfused";
    j["fits"] = e.memory.fits();
    j["memory_gib"]
        = {{"weights", e.memory.weights / kGiB},     {"gradients", e.memory.gradients / kGiB},
           {"optimizer", e.memory.optimizer / kGiB}, {"activations", e.memory.activations / kGiB},
           {"buffers", e.memory.buffers / kGiB},     {"total", e.memory.total() / kGiB},
           {"capacity", e.memory.capacity / kGiB}};
    const llm::StepTime &t = e.time;
    j["micro_batches"] = t.microBatches;
    j["step_s"] = {{"compute", t.compute},        {"elementwise", t.elementwise},
                   {"tensor_comm", t.tensorComm}, {"pipeline_comm", t.pipelineComm},
                   {"bubble", t.bubble},          {"data_parallel_exposed", t.dataParallel},
                   {"optimizer", t.optimizer},    {"total", t.total}};
    j["mfu"] = t.mfu;
    j["hfu"] = t.hfu;
    j["tflops_per_gpu"] = t.tflopsPerGpu;
    return j;
}

void printPlan(const llm::Evaluated &e, std::ostream &out)
{
    const llm::StepTime &t = e.time;
    const llm::Memory &m = e.memory;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "  %-28s step %10s  MFU %5.1f %%  HFU %5.1f %%  %6.1f TFLOP/s/GPU  "
                  "memory %5.1f of %.0f GiB\n",
                  llm::describe(e.plan).c_str(), llm::readableSeconds(t.total).c_str(), 100 * t.mfu,
                  100 * t.hfu, t.tflopsPerGpu, m.total() / kGiB, m.capacity / kGiB);
    out << buf;
    out << "      time: matrices " << llm::readableSeconds(t.compute) << ", element-wise "
        << llm::readableSeconds(t.elementwise) << ", tensor comm "
        << llm::readableSeconds(t.tensorComm) << ", pipeline comm "
        << llm::readableSeconds(t.pipelineComm) << ", bubble " << llm::readableSeconds(t.bubble)
        << ", data-parallel exposed " << llm::readableSeconds(t.dataParallel) << ", optimizer "
        << llm::readableSeconds(t.optimizer) << " (" << t.microBatches
        << (t.microBatches == 1 ? " micro-batch)\n" : " micro-batches)\n");
    std::snprintf(buf, sizeof buf,
                  "      memory GiB: weights %.1f, gradients %.1f, optimizer %.1f, activations "
                  "%.1f, buffers %.1f\n",
                  m.weights / kGiB, m.gradients / kGiB, m.optimizer / kGiB, m.activations / kGiB,
                  m.buffers / kGiB);
    out << buf;
}

// The hardware of one composed system of the design, as the fabric analysis finds it; 0, or
// the exit status after saying why not.
int designHardware(const PlansOptions &o, llm::Hardware &hw, std::string &where, std::ostream &err)
{
    const std::string who = "composelab plans: " + o.design + ": ";
    design::Design design;
    try {
        design = design::loadDesign(o.design);
    } catch (const InputError &e) {
        err << "composelab plans: " << e.what() << "\n";
        return 1;
    }
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    const fabric::Analysis analysis = fabric::analyze(design, cat);
    std::size_t index = analysis.systems.size();
    for (std::size_t i = 0; i < analysis.systems.size() && index == analysis.systems.size(); ++i) {
        const fabric::SystemReport &r = analysis.systems[i];
        if (o.system.empty() ? !r.gpus.empty() : r.name == o.system)
            index = i;
    }
    if (index == analysis.systems.size()) {
        if (o.system.empty())
            err << who << "no composed system has a GPU\n";
        else {
            err << who << "no composed system named \"" << o.system << "\"; the systems:";
            for (const fabric::SystemReport &r : analysis.systems)
                err << " " << r.name;
            err << "\n";
        }
        return 1;
    }
    const perf::Platform platform = perf::platformOf(design, analysis, index, cat);
    const std::string &name = analysis.systems[index].name;
    if (!platform.gpu) {
        err << who << "system \"" << name << "\" has no GPU\n";
        return 1;
    }
    if (o.nodes > 1 && platform.networkGBps <= 0) {
        err << who << "system \"" << name
            << "\" has no NIC and no network path to another system, so "
            << "--nodes " << o.nodes << " cannot join copies of it; compose a NIC to it\n";
        return 1;
    }
    hw = llm::hardwareOf(platform, o.nodes);
    where = "system " + name + " of " + o.design
            + (o.nodes > 1 ? " x " + std::to_string(o.nodes) + " nodes" : "");
    return 0;
}

} // namespace

int plansCommand(const PlansOptions &o, std::ostream &out, std::ostream &err)
{
    const char *who = "composelab plans: ";
    llm::Shape shape;
    try {
        shape = llm::parseShape(o.benchmark);
    } catch (const InputError &e) {
        err << who << "--benchmark: " << e.what() << "\n";
        return 1;
    }
    llm::Hardware hw;
    std::string where; // "system B of seed.clab" when planned on a design
    if (!o.design.empty()) {
        const int status = designHardware(o, hw, where, err);
        if (status != 0)
            return status;
    } else if (o.gpu.empty() || o.gpus <= 0) {
        err << who << "give a design, or --gpu and --gpus\n";
        return 2;
    } else {
        try {
            hw = llm::hardwareOf(catalog::Catalog::builtin(), o.gpu, o.gpus, o.gpusPerNode,
                                 o.networkGbps);
        } catch (const std::invalid_argument &e) {
            err << who << e.what() << "\n";
            return 2;
        }
    }
    const long long batch = o.globalBatch > 0 ? o.globalBatch : shape.globalBatch;
    if (batch <= 0) {
        err << who << shape.name << " has no published global batch: give --global-batch\n";
        return 2;
    }

    const llm::Attention attention
        = o.fusedAttention ? llm::Attention::Fused : llm::Attention::Unfused;
    std::vector<llm::Evaluated> shown;
    long long valid = 1, tooLarge = 0;
    if (o.tensor > 0) {
        llm::Plan p;
        p.tensor = o.tensor;
        p.pipeline = o.pipeline;
        p.interleave = o.interleave;
        p.micro = o.micro;
        p.recompute = o.recompute == "full"        ? llm::Recompute::Full
                      : o.recompute == "selective" ? llm::Recompute::Selective
                                                   : llm::Recompute::None;
        p.sequenceParallel = o.sequenceParallel;
        p.zero = o.zero;
        p.attention = attention;
        p.globalBatch = batch;
        try {
            llm::checkPlan(shape, hw, p);
        } catch (const llm::PlanError &e) {
            err << who << "the plan " << llm::describe(p) << " breaks a rule: " << e.what() << "\n";
            return 2;
        }
        llm::Evaluated e{p, llm::memoryPerGpu(shape, hw, p), llm::stepTime(shape, hw, p)};
        tooLarge = e.memory.fits() ? 0 : 1;
        shown.push_back(e);
    } else {
        llm::Search found = llm::searchPlans(shape, hw, batch, attention);
        valid = found.valid;
        tooLarge = found.tooLarge;
        if (found.plans.size() > std::size_t(o.top))
            found.plans.resize(std::size_t(o.top));
        shown = std::move(found.plans);
    }

    if (o.json) {
        OrderedJson j;
        j["benchmark"] = shape.name;
        j["parameters"] = llm::parameters(shape);
        j["gpu"] = hw.gpu;
        j["gpus"] = hw.gpus;
        j["gpus_per_node"] = hw.gpusPerNode;
        if (!o.design.empty())
            j["system"] = where;
        j["global_batch"] = batch;
        j["gemm_efficiency"] = hw.efficiency;
        j["gemm_efficiency_origin"] = hw.efficiencyOrigin;
        j["valid_plans"] = valid;
        j["not_fitting"] = tooLarge;
        j["notes"] = hw.notes;
        OrderedJson list = OrderedJson::array();
        for (const llm::Evaluated &e : shown)
            list.push_back(toJson(e));
        j["plans"] = std::move(list);
        out << j.dump(2) << "\n";
        return 0;
    }
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s (%s parameters) on %lld x %s (%lld a node), global batch %lld\n",
                  shape.name.c_str(), count(llm::parameters(shape)).c_str(), hw.gpus,
                  hw.gpu.c_str(), hw.gpusPerNode, batch);
    out << buf;
    if (!where.empty())
        out << "  on " << where << "\n";
    if (o.tensor > 0) {
        const llm::Evaluated &e = shown.front();
        printPlan(e, out);
        if (!e.memory.fits()) {
            std::snprintf(buf, sizeof buf, "  does not fit: %.1f GiB over the %.0f GiB a GPU has\n",
                          (e.memory.total() - e.memory.capacity) / kGiB, e.memory.capacity / kGiB);
            out << buf;
        }
    } else {
        out << "  " << valid << " valid plans, " << tooLarge << " do not fit in memory";
        if (valid == 0)
            out << ": no plan meets the rules; the data-parallel replicas (GPUs / (tensor x "
                   "pipeline)) must divide the global batch: try a batch that "
                << hw.gpus << " divides\n";
        else if (shown.empty())
            out << ": no plan fits; try more GPUs, a larger GPU or a smaller batch\n";
        else
            out << "; the " << shown.size() << " fastest:\n";
        for (const llm::Evaluated &e : shown)
            printPlan(e, out);
    }
    std::snprintf(buf, sizeof buf, "  compute at %.0f TFLOP/s (measured GEMM rate) x %.3f (%s)\n",
                  hw.gemmFlops / 1e12, hw.efficiency, hw.efficiencyOrigin.c_str());
    out << buf;
    for (const std::string &note : hw.notes)
        out << "  " << note << "\n";
    return 0;
}

void addPlansSubcommand(CLI::App &app, PlansOptions &o)
{
    CLI::App *cmd = app.add_subcommand(
        "plans", "Rank the parallel plans (tensor, pipeline, data) of a transformer on N GPUs");
    cmd->add_option("--benchmark", o.benchmark,
                    "A preset (gpt3-175b, megatron-530b, llama3.1-405b, ...) or "
                    "llm:layers=L,hidden=H,heads=A,seq=S[,ffn=F][,vocab=V][,kv_heads=K]"
                    "[,mlp=gelu|swiglu]")
        ->required();
    CLI::Option *design = cmd->add_option(
        "design", o.design, "A design: plan on one of its composed systems, as its fabric is");
    cmd->add_option("--system", o.system, "With a design: the system (default: the first)")
        ->needs(design);
    cmd->add_option("--nodes", o.nodes, "With a design: copies of the system (default 1)")
        ->check(wholeNumber(1, 100'000))
        ->needs(design);
    cmd->add_option("--gpu", o.gpu, "Without a design: catalog GPU id, e.g. A100-SXM4-80GB")
        ->excludes(design);
    cmd->add_option("--gpus", o.gpus, "Without a design: GPUs in all")
        ->check(wholeNumber(1, 1'000'000))
        ->excludes(design);
    cmd->add_option("--gpus-per-node", o.gpusPerNode, "Without a design: GPUs a node (default 8)")
        ->check(wholeNumber(1, 256))
        ->excludes(design);
    cmd->add_option("--global-batch", o.globalBatch,
                    "Sequences a step (default: the preset's published batch)")
        ->check(wholeNumber(1, 100'000'000));
    cmd->add_option("--network-gbps", o.networkGbps,
                    "Without a design: inter-node line rate per GPU, Gb/s (default 200: one HDR "
                    "port a GPU)")
        ->check(CLI::Range(0.001, 100000.0))
        ->excludes(design);
    cmd->add_option("--top", o.top, "Plans to print (default 10)")->check(wholeNumber(1, 100000));
    CLI::Option *tensor
        = cmd->add_option("--tensor", o.tensor, "Evaluate one plan: tensor-parallel size")
              ->check(wholeNumber(1, 1'000'000));
    cmd->add_option("--pipeline", o.pipeline, "With --tensor: pipeline stages (default 1)")
        ->check(wholeNumber(1, 1'000'000))
        ->needs(tensor);
    cmd->add_option("--interleave", o.interleave, "With --tensor: model chunks a stage (default 1)")
        ->check(wholeNumber(1, 1000))
        ->needs(tensor);
    cmd->add_option("--micro-batch", o.micro, "With --tensor: micro-batch (default 1)")
        ->check(wholeNumber(1, 1'000'000))
        ->needs(tensor);
    cmd->add_option("--recompute", o.recompute, "With --tensor: none (default), selective, full")
        ->check(CLI::IsMember({"none", "selective", "full"}))
        ->needs(tensor);
    cmd->add_flag("--sequence-parallel", o.sequenceParallel, "With --tensor: sequence parallelism")
        ->needs(tensor);
    cmd->add_option("--zero", o.zero, "With --tensor: ZeRO stage 0-3 (default 0)")
        ->check(wholeNumber(0, 3))
        ->needs(tensor);
    cmd->add_flag("--fused-attention", o.fusedAttention,
                  "Attention fused on chip (FlashAttention): no scores kept or moved through HBM");
    cmd->add_flag("--json", o.json, "Machine-readable output");
}

} // namespace clab::cli
