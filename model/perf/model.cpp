#include "perf/model.h"

#include "catalog/catalog.h"
#include "cluster/allreduce.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace clab::perf {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Mixed-precision training with Adam/LAMB keeps per parameter: fp16/bf16 weights (2 B), fp32
// master weights (4), gradients (2) and two fp32 moments (8): 16 bytes (Rajbhandari et al.,
// ZeRO, SC20, §3.1). Full fp32 training needs the same 16 (4 + 4 + 8).
constexpr double kStateBytesPerParam = 16;
// The framework, CUDA context and workspace take about this much of each GPU.
constexpr double kReservedGB = 2.0;
// A stored activation crosses device memory at least twice: written in the forward pass, read
// in the backward pass (what fused kernels keep in caches does not count; the efficiency factors
// absorb the rest).
constexpr double kActivationPasses = 2;
// Memory-bound kernels reach about this share of peak memory bandwidth (STREAM-like copies
// reach 80-90 % on HBM; see the hbm2 device_memcpy rows of interconnect_bandwidth.csv).
constexpr double kMemoryEfficiency = 0.8;
// The optimizer reads and writes the state once per step.
constexpr double kOptimizerPasses = 2;
// Backward is about two thirds of a step's math (it computes two gradients per forward product).
constexpr double kBackwardShare = 2.0 / 3.0;
// When a host's cores are not known.
constexpr int kDefaultHostCores = 64;

double gradientBytes(Precision p)
{
    // FP8 training keeps fp16/bf16 gradients (Transformer Engine).
    return (p == Precision::Fp16 || p == Precision::Bf16 || p == Precision::Fp8) ? 2 : 4;
}

} // namespace

std::optional<Precision> parsePrecision(std::string_view text)
{
    const std::string t = lower(text);
    if (t.find("fp8") != std::string::npos)
        return Precision::Fp8;
    if (t.find("amp") != std::string::npos || t.find("fp16") != std::string::npos
        || t.find("mixed") != std::string::npos || t == "half")
        return Precision::Fp16;
    if (t.find("bf16") != std::string::npos || t.find("bfloat16") != std::string::npos)
        return Precision::Bf16;
    if (t.find("tf32") != std::string::npos)
        return Precision::Tf32;
    if (t.find("fp32") != std::string::npos || t == "float" || t == "single")
        return Precision::Fp32;
    return std::nullopt;
}

const char *precisionName(Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return "fp32";
    case Precision::Tf32:
        return "tf32";
    case Precision::Fp16:
        return "fp16";
    case Precision::Bf16:
        return "bf16";
    case Precision::Fp8:
        return "fp8";
    }
    return "?";
}

double peakTflops(const catalog::Gpu &gpu, Precision p, std::string *note)
{
    const catalog::Tflops &t = gpu.tflops;
    auto fallback = [&](const std::optional<double> &want, const std::optional<double> &instead,
                        const char *from, const char *to) {
        if (want)
            return *want;
        if (note)
            *note = gpu.name + " has no " + from + " tensor cores; using its " + to + " peak";
        return instead.value_or(t.fp32.value_or(0));
    };
    switch (p) {
    case Precision::Fp32:
        return t.fp32.value_or(0);
    case Precision::Tf32:
        return fallback(t.tf32, t.fp32, "TF32", "FP32");
    case Precision::Fp16:
        return fallback(t.fp16, t.fp32, "FP16", "FP32");
    case Precision::Bf16:
        return fallback(t.bf16, t.fp16, "BF16", "FP16");
    case Precision::Fp8:
        return fallback(t.fp8, t.fp16, "FP8", "FP16");
    }
    return 0;
}

namespace {

// Sharded embedding tables are plain fp32 rows updated in place by sparse SGD/Adagrad.
constexpr double kShardedBytesPerParam = 4;

double memoryNeededGB(const workload::Workload &w, double localBatch, const Plan &plan, int gpus)
{
    const double shards = double(plan.tensor) * plan.pipeline;
    const double dense = w.allreduceParameters;
    const double sharded = w.parameters - dense;
    const double state = dense / shards * kStateBytesPerParam
                         + sharded / std::max(1, gpus) * kShardedBytesPerParam;
    // Without pipelining a replica keeps the activations of its whole batch; with it (1F1B,
    // one-sample micro-batches) a stage keeps at most `pipeline` micro-batches of its
    // 1/pipeline of the layers.
    const double inFlight = plan.pipeline > 1
                                ? std::min(localBatch, double(plan.pipeline)) / plan.pipeline
                                : localBatch;
    const double activations = inFlight * w.activationBytesPerSample / plan.tensor;
    return (state + activations) / 1e9 + kReservedGB;
}

} // namespace

int defaultGlobalBatch(const workload::Workload &w, int gpus)
{
    for (const auto &c : w.convergence) {
        if (c.globalBatch >= gpus)
            return c.globalBatch;
    }
    return 32 * std::max(1, gpus);
}

Plan choosePlan(const Platform &platform, const workload::Workload &w, int globalBatch)
{
    const int gpus = platform.gpusPerNode * platform.nodes;
    const double available = platform.gpu ? platform.gpu->memGB : 0;
    for (int pipeline = 1; pipeline <= gpus; pipeline *= 2) {
        for (int tensor = 1; tensor <= platform.gpusPerNode && tensor * pipeline <= gpus;
             tensor *= 2) {
            const Plan plan{tensor, pipeline};
            const int data = gpus / (tensor * pipeline);
            const double local = double(globalBatch) / std::max(1, data);
            // Gradient accumulation lets a replica run its batch in micro-batches: the split is
            // needed only when even one sample does not fit.
            if (memoryNeededGB(w, std::min(local, 1.0), plan, gpus) <= available)
                return plan;
        }
    }
    // Nothing fits: the split that needs the least memory, so the report shows how far off it is.
    const int tensor = std::max(1, platform.gpusPerNode);
    return Plan{tensor, std::max(1, gpus / tensor)};
}

Prediction predict(const Platform &platform, const workload::Workload &w, int globalBatch,
                   Precision precision, const Calibration &cal, std::string_view round,
                   std::optional<Plan> chosen)
{
    Prediction out;
    out.globalBatch = globalBatch;
    if (!platform.gpu) {
        out.notes.push_back("no GPU in the system");
        out.fits = false;
        return out;
    }
    const catalog::Gpu &gpu = *platform.gpu;
    const int gpus = std::max(1, platform.gpusPerNode * platform.nodes);
    out.plan = chosen ? *chosen : choosePlan(platform, w, globalBatch);
    out.plan.tensor = std::clamp(out.plan.tensor, 1, platform.gpusPerNode);
    out.plan.pipeline = std::clamp(out.plan.pipeline, 1, gpus / out.plan.tensor);
    const double shards = double(out.plan.tensor) * out.plan.pipeline;
    out.dataParallel = std::max(1, int(gpus / shards));
    out.localBatch = double(globalBatch) / out.dataParallel;

    // Compute: a roofline over math and memory traffic, at the calibrated share of peak.
    std::string note;
    const double peak = peakTflops(gpu, precision, &note) * 1e12;
    if (!note.empty())
        out.notes.push_back(note);
    out.efficiency = std::min(0.95, cal.efficiency(w.id) * cal.arch(gpu.arch) * cal.gpu(gpu)
                                        * cal.benchArch(w.id, gpu.arch) * cal.round(round)
                                        * cal.benchRound(w.id, round));
    const double flops = out.localBatch * w.trainFlopsPerSample / shards;
    const double mathS = flops / (peak * out.efficiency);
    const double memBytes
        = out.localBatch * w.activationBytesPerSample * kActivationPasses / shards;
    const double memS = memBytes / (gpu.memBwGBps * 1e9 * kMemoryEfficiency);
    double bubble = 1;
    if (out.plan.pipeline > 1) {
        // GPipe/1F1B bubble with one-sample micro-batches: (m + p - 1) / m.
        const double micro = std::max(1.0, out.localBatch);
        bubble = (micro + out.plan.pipeline - 1) / micro;
    }
    // Sharded embeddings are updated sparsely: only the rows a step looked up, which the
    // activation traffic above already counts.
    const double stateBytes = w.allreduceParameters / shards * kStateBytesPerParam;
    const double optimizerS
        = stateBytes * kOptimizerPasses / (gpu.memBwGBps * 1e9 * kMemoryEfficiency);
    out.computeS = std::max(mathS, memS) * bubble + optimizerS + cal.overheadS(w.id);

    // Gradient all-reduce: ring inside the node, then between nodes (hierarchical).
    const double grad = w.allreduceParameters / shards * gradientBytes(precision);
    const int perNode = std::max(1, platform.gpusPerNode / out.plan.tensor);
    const int ringSize = std::min(perNode, out.dataParallel);
    double comm = 0;
    if (ringSize > 1) {
        const double ring = platform.ringGBps * cal.link(platform.linkKey) * 1e9;
        comm += 2.0 * (ringSize - 1) / ringSize * grad / ring
                + 2.0 * (ringSize - 1) * platform.ringLatencyUs * 1e-6;
    }
    const int nodeGroups = out.dataParallel / ringSize;
    if (nodeGroups > 1 && platform.cluster) {
        // Every GPU all-reduces its 1/ringSize shard with its peers in the other nodes, all at
        // once over the cluster's topology (model/cluster's algorithm for that family).
        comm += cluster::allreduce(*platform.cluster, grad / ringSize).seconds;
    } else if (nodeGroups > 1 && platform.networkGBps > 0) {
        // After the reduce-scatter each GPU holds 1/ringSize of the gradients; all GPUs of a node
        // exchange theirs between nodes at once over the node's NICs. Large jobs use trees, whose
        // latency grows with log2 of the node count.
        comm += 2.0 * (nodeGroups - 1) / nodeGroups * grad / (platform.networkGBps * 1e9)
                + 2.0 * std::log2(double(nodeGroups)) * platform.networkLatencyUs * 1e-6;
    }
    if (out.plan.tensor > 1) {
        // Tensor parallelism all-reduces activations inside the node, twice per layer forward
        // and twice backward: about the activation memory, over NVLink or PCIe.
        const double act = out.localBatch * w.activationBytesPerSample / out.plan.tensor;
        comm += 2.0 * (out.plan.tensor - 1) / out.plan.tensor * act
                / (platform.ringGBps * cal.link(platform.linkKey) * 1e9);
    }
    if (w.alltoallBytesPerSample > 0 && gpus > 1) {
        // Model-parallel embeddings: every GPU sends each sample's looked-up rows to the GPU that
        // trains it, forward and back. The share for GPUs in other nodes crosses the network.
        const double bytes = 2 * out.localBatch * w.alltoallBytesPerSample;
        const double local = double(platform.gpusPerNode - 1) / gpus;
        const double remote = double(gpus - platform.gpusPerNode) / gpus;
        const double ring = platform.ringGBps * cal.link(platform.linkKey) * 1e9;
        if (platform.gpusPerNode > 1 && ring > 0)
            out.alltoallS += bytes * local / ring;
        if (remote > 0 && platform.networkGBps > 0)
            out.alltoallS += bytes * remote * platform.gpusPerNode / (platform.networkGBps * 1e9);
    }
    out.communicationS = comm + out.alltoallS;
    // The all-to-all sits between the embedding lookup and the MLPs: nothing hides it.
    out.exposedCommS
        = std::max(0.0, comm - cal.overlap * kBackwardShare * mathS * bubble) + out.alltoallS;

    // Input pipeline, per node per step; its stages run in parallel with each other and with
    // the GPUs (prefetching), so the slowest stage is what the GPUs may wait for.
    const double nodeSamples = out.localBatch * perNode;
    const int cores = platform.hostCores > 0 ? platform.hostCores : kDefaultHostCores;
    if (platform.hostCores <= 0)
        out.notes.push_back("host cores unknown: assumed " + std::to_string(kDefaultHostCores));
    const double readS = std::isfinite(platform.storageGBps) && platform.storageGBps > 0
                             ? nodeSamples * w.inputBytesPerSample / (platform.storageGBps * 1e9)
                             : 0;
    const double decodeS = nodeSamples * w.decodeCoreSecondsPerSample / cores;
    const double copyS = platform.h2dGBps > 0
                             ? out.localBatch * w.inputBytesPerSample / (platform.h2dGBps * 1e9)
                             : 0;
    out.inputS = std::max({readS, decodeS, copyS});
    const double busy = out.computeS + out.exposedCommS;
    out.stallS = std::max(0.0, out.inputS - busy);
    out.stepS = busy + out.stallS;
    out.throughput = globalBatch / out.stepS;

    // Memory fit.
    out.availableGB = gpu.memGB;
    // The largest micro-batch that fits (gradient accumulation), at least one sample.
    out.microBatch = out.localBatch;
    while (out.microBatch > 1
           && memoryNeededGB(w, out.microBatch, out.plan, gpus) > out.availableGB)
        out.microBatch = std::max(1.0, std::floor(out.microBatch / 2));
    out.requiredGB = memoryNeededGB(w, out.microBatch, out.plan, gpus);
    out.fits = out.requiredGB <= out.availableGB;
    if (!out.fits)
        out.notes.push_back("does not fit: needs " + std::to_string(int(std::ceil(out.requiredGB)))
                            + " GB per GPU, " + gpu.name + " has " + std::to_string(int(gpu.memGB))
                            + " GB");

    // Time to train: steps to converge at this batch, plus evaluation.
    out.samples = workload::samplesToConverge(w, globalBatch);
    if (!out.samples) {
        out.notes.push_back(w.name + " has no convergence table: time-to-train not predicted");
        return out;
    }
    out.steps = std::ceil(*out.samples / globalBatch);
    const double evals = w.evalEverySamples > 0 ? std::floor(*out.samples / w.evalEverySamples) : 1;
    const double evalFlops = w.evalSamples * w.evalFlopsPerSample;
    out.evaluationS = evals * evalFlops / (gpus * peak * out.efficiency);
    out.breakdownMin.compute = out.steps * out.computeS / 60;
    out.breakdownMin.communication = out.steps * out.exposedCommS / 60;
    out.breakdownMin.input = out.steps * out.stallS / 60;
    out.breakdownMin.evaluation = out.evaluationS / 60;
    out.timeToTrainMin = out.breakdownMin.compute + out.breakdownMin.communication
                         + out.breakdownMin.input + out.breakdownMin.evaluation;
    return out;
}

} // namespace clab::perf
