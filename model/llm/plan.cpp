// Parallel plans of a transformer: the rules, memory per GPU and the step time. Formulas and
// sources: model/llm/LLM.md.
#include "llm/plan.h"

#include "llm/published.h"

#include "catalog/catalog.h"
#include "perf/gpurates.h"
#include "perf/platform.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clab::llm {

namespace {

constexpr double kWeightBytes = 2; // bf16 weights
// fp32 gradients: Megatron-LM accumulates and all-reduces bf16 models' gradients in fp32
// (accumulate_allreduce_grads_in_fp32, forced for bf16): 18 B a parameter with Adam, or
// 6 + 12/d with its distributed optimizer (Megatron-LM docs, "Distributed Optimizer").
constexpr double kGradientBytes = 4;
constexpr double kOptimizerBytes = 12; // fp32 master weights, Adam's m and v (ZeRO, SC20 3.1)
constexpr double kActivationBytes = 2; // bf16 activations, as Korthikanti's formulas assume
constexpr double kBucketBytes = 25e6;  // PyTorch DDP's default bucket (bucket_cap_mb = 25)
constexpr double kReservedBytes = 1.0 * (1ull << 30); // CUDA context, NCCL, cuBLAS workspace
constexpr double kLogitBytes = 4;                     // fp32 logits for the cross entropy

// NCCL reaches half its bandwidth at about this message size (Hockney's n½): a least-squares
// fit of t = 2 (n-1)/n (bytes + n½) / bandwidth to nccl-tests all_reduce_perf on 8 A100-SXM4
// on NVSwitch, 1 MiB to 8 GiB (microsoft/superbenchmark tests/data/nccl_allreduce.log @700d650:
// 157 GB/s bus bandwidth at 32 MiB, 235 GB/s at 8 GiB) gives n½ = 10 MB within 12 % of every
// size. Applied to every collective: tensor-parallel messages are tens of MB, where it matters.
constexpr double kCollectiveHalfBytes = 10e6;
// The same fit levels at 224 GB/s of bus bandwidth, 85 % of the 264 GB/s the links carry point to
// point (p2pBandwidthLatencyTest, catalog nvlink3): NCCL's ring over an NVSwitch baseboard of A100s
// reduces and forwards, and does not reach the links' copy rate. Only NVLink 3 has this
// measurement; Hopper's and Blackwell's switches reduce in the switch (NVLink SHARP), a different
// ratio not measured here, so they keep the links' rate.
constexpr double kNvlink3CollectiveShare = 224.0 / 264.0;

// What NCCL's all-reduce keeps of an NVSwitch system's link rate on this GPU, and the note that
// says so (none where it keeps it all).
double switchCollectiveShare(const catalog::Gpu &gpu, std::vector<std::string> &notes)
{
    if (gpu.nvlinkGen != 3)
        return 1;
    notes.push_back("NCCL's all-reduce over NVLink 3 switches reaches 85 % of the links' copy "
                    "rate (224 of 264 GB/s, nccl-tests on 8 A100s)");
    return kNvlink3CollectiveShare;
}
// Megatron-LM's vocabulary-parallel cross entropy reads the fp32 logits three times (max, sum of
// exponentials, gradient) and writes their gradient once: 16 B a token and vocabulary entry.
constexpr double kCrossEntropyBytes = 16;

// Ring all-reduce of `bytes` over n GPUs: 2 (n-1)/n of the bytes (and n½) through each GPU's
// link, and 2 (n-1) steps of latency.
double allReduce(double bytes, long long n, double bytesPerS, double latencyS)
{
    if (n <= 1)
        return 0;
    const double k = double(n - 1) / double(n);
    return 2 * k * (bytes + kCollectiveHalfBytes) / bytesPerS + 2 * double(n - 1) * latencyS;
}

// One GPU's bandwidth inside its node for a collective over `group` of the node's GPUs: the
// node's rate, or on a pairwise mesh the links that join the group (a pair: one link).
double groupBytesPerS(const Hardware &hw, long long group)
{
    if (hw.intraLinkBytesPerS <= 0)
        return hw.intraBytesPerS;
    return std::min(hw.intraBytesPerS, double(std::max(1LL, group - 1)) * hw.intraLinkBytesPerS);
}

long long dataParallel(const Hardware &hw, const Plan &p)
{
    return hw.gpus / (p.tensor * p.pipeline);
}

// Parameters on one GPU of the most loaded stage: its layers and, on the first stage the
// embedding, on the last the output layer (and the copy of the embedding a tied output keeps
// there when the two are different stages), all split by tensor parallelism.
double parametersPerGpu(const Shape &s, const Plan &p)
{
    const double layers = double(s.layers) / double(p.pipeline) * layerParameters(s);
    const double tiedCopy = s.tiedEmbeddings ? double(s.vocab) * double(s.hidden) : 0;
    const double ends = p.pipeline == 1
                            ? embeddingParameters(s) + outputParameters(s)
                            : std::max(embeddingParameters(s), outputParameters(s) + tiedCopy);
    return (layers + ends) / double(p.tensor);
}

} // namespace

std::string readableSeconds(double seconds, std::string_view micro)
{
    char buf[32];
    if (seconds == 0)
        return "0";
    if (seconds >= 1)
        std::snprintf(buf, sizeof buf, "%.3f s", seconds);
    else if (seconds >= 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g ms", seconds * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g ", seconds * 1e6);
    return seconds >= 1e-3 ? std::string(buf) : buf + std::string(micro);
}

std::string describe(const Plan &p)
{
    std::string text = "T" + std::to_string(p.tensor) + " P" + std::to_string(p.pipeline) + " V"
                       + std::to_string(p.interleave) + " M" + std::to_string(p.micro) + " "
                       + recomputeName(p.recompute);
    if (p.sequenceParallel)
        text += " SP";
    if (p.zero > 0)
        text += " ZeRO-" + std::to_string(p.zero);
    if (p.attention == Attention::Fused)
        text += " FA";
    return text;
}

namespace {

// What a GPU computes and holds: its measured rates, capacity and the transformer efficiency.
Hardware computeOf(const catalog::Gpu &gpu, const catalog::Catalog &catalog)
{
    Hardware hw;
    hw.gpu = gpu.id;
    const perf::Precision precision
        = gpu.tflops.bf16 ? perf::Precision::Bf16 : perf::Precision::Fp16;
    const perf::GpuRates rates = perf::gpuRates(gpu, precision, catalog);
    hw.gemmFlops = rates.gemmFlops;
    hw.peakFlops = rates.peakFlops;
    hw.memBytesPerS = rates.memBytesPerS;
    hw.streamBytesPerS = rates.streamBytesPerS;
    // A card's "GB" are nearer GiB: NVIDIA's MLPerf v4.0 H200 system JSON gives the 141 GB card
    // 143,771 MiB (140.4 GiB); 141 x 10^9 would understate it by 7 %.
    hw.memoryBytes = gpu.memGB * double(1ull << 30);
    if (!rates.note.empty())
        hw.notes.push_back(rates.note);
    // One constant for every transformer: the GEMM efficiency fitted to Megatron-LM's published
    // A100 runs through this model's own terms (`composelab calibrate --llm`,
    // datasets/llm_calibration.json, always built in).
    hw.efficiency = fittedEfficiency();
    hw.efficiencyOrigin = "GEMM efficiency fitted to Megatron-LM's published A100 runs, "
                          "datasets/llm_calibration.json";
    // Fitted as a share of one GPU's measured GEMM rate: another GPU, even of the same
    // architecture (an A100 PCIe, an A40), may reach a different share.
    if (gpu.id != kPublishedGpu)
        hw.notes.push_back(std::string("the GEMM efficiency was fitted on ") + kPublishedGpu
                           + " runs: on " + gpu.name + " it is extrapolated"
                           + (gpu.user ? " (a user-defined part: its rates are the user's)" : ""));

    return hw;
}

} // namespace

Hardware hardwareOf(const catalog::Catalog &catalog, std::string_view gpuId, long long gpus,
                    long long gpusPerNode, double networkGbpsPerGpu)
{
    const catalog::Gpu *gpu = catalog.gpu(gpuId);
    if (!gpu) {
        // GPUs whose id starts with what was typed ("A100" names five), else the nearest ids.
        std::vector<std::string> ids;
        for (const auto &[id, g] : catalog.gpus()) {
            if (!gpuId.empty() && id.starts_with(gpuId))
                ids.push_back(id);
        }
        if (ids.empty())
            ids = catalog.suggest(gpuId, {catalog::Kind::Gpu});
        std::string like;
        for (const std::string &id : ids)
            like += (like.empty() ? "; did you mean " : ", ") + id;
        throw std::invalid_argument("unknown GPU \"" + std::string(gpuId) + "\"" + like);
    }
    Hardware hw = computeOf(*gpu, catalog);
    hw.gpus = gpus;
    hw.gpusPerNode = gpusPerNode;
    const catalog::LinkKind *nvlink = gpu->peerLink.empty() ? nullptr : catalog.link(gpu->peerLink);
    // Only SXM boards sit on an NVSwitch baseboard, and a GB200's GPUs on the NVL72's switch
    // trays; PCIe and NVL cards pair up over bridges, so a node's tensor-parallel group crosses
    // PCIe. AMD Instinct OAMs sit on a board that joins each pair by one xGMI link.
    const bool switched = gpu->formFactor.starts_with("SXM")
                          || (gpu->formFactor == "Superchip" && gpu->arch == "Blackwell");
    const bool mesh = gpu->formFactor == "OAM";
    if (nvlink && gpu->peerLinks > 0 && mesh) {
        const long long board = gpu->peerLinks + 1;
        if (gpusPerNode > board)
            throw std::invalid_argument(std::to_string(gpusPerNode) + " GPUs a node: a "
                                        + std::string(gpuId) + " board joins "
                                        + std::to_string(board)
                                        + " GPUs, one link between each pair; plan with "
                                        + std::to_string(board) + " or fewer a node");
        hw.intraLinkBytesPerS = nvlink->achievedGBps() * 1e9;
        hw.intraBytesPerS = hw.intraLinkBytesPerS * double(std::max(1LL, gpusPerNode - 1));
        hw.intraLatencyS = nvlink->latencyUs * 1e-6; // one direct link
        hw.notes.push_back("the " + std::to_string(gpusPerNode)
                           + " GPUs of a node joined pair by pair, one " + nvlink->id
                           + " link each: a collective over k of them moves at k - 1 links");
    } else if (nvlink && gpu->peerLinks > 0 && switched) {
        // A node is one NVLink domain: no larger than the largest NVSwitch system of the GPU's
        // generation (8 H100s on an HGX board; a 16-GPU node of them would be two domains).
        const catalog::NvSwitch *largest = nullptr;
        for (const auto &[id, s] : catalog.nvSwitches()) {
            if (s.nvlinkGen == gpu->nvlinkGen && (!largest || s.gpus > largest->gpus))
                largest = &s;
        }
        if (largest && gpusPerNode > largest->gpus)
            throw std::invalid_argument(
                std::to_string(gpusPerNode) + " GPUs a node: the largest NVLink "
                + std::to_string(gpu->nvlinkGen) + " switch system in the catalog (" + largest->id
                + ") joins " + std::to_string(largest->gpus) + " " + std::string(gpuId)
                + "; plan with " + std::to_string(largest->gpus) + " or fewer a node");
        hw.intraLatencyS = 2 * nvlink->latencyUs * 1e-6; // through the NVSwitch: two links
        hw.notes.push_back("the " + std::to_string(gpusPerNode)
                           + " GPUs of a node (NVLink domain) joined all-to-all by NVSwitch, "
                           + std::to_string(gpu->peerLinks) + " " + nvlink->id + " links each");
        hw.intraBytesPerS
            = nvlink->achievedGBps(gpu->peerLinks) * 1e9 * switchCollectiveShare(*gpu, hw.notes);
    } else if (const catalog::LinkKind *pcie = catalog.pcieLink(gpu->pcie.gen, gpu->pcie.lanes)) {
        hw.intraBytesPerS = pcie->achievedGBps() * 1e9;
        hw.intraLatencyS = pcie->latencyUs * 1e-6;
        hw.notes.push_back(std::string(nvlink ? "NVLink bridges join pairs only: " : "no NVLink: ")
                           + "GPUs of a node talk over " + pcie->id);
    }
    const catalog::LinkKind *ib = catalog.link("ib-hdr");
    const double fraction = ib ? ib->achievedFraction : 1;
    hw.netBytesPerS = networkGbpsPerGpu / 8 * fraction * 1e9;
    hw.netLatencyS = (ib ? ib->latencyUs : 1) * 1e-6;
    return hw;
}

Hardware hardwareOf(const perf::Platform &platform, long long nodes)
{
    const catalog::Catalog &catalog
        = platform.catalog ? *platform.catalog : catalog::Catalog::builtin();
    Hardware hw = computeOf(*platform.gpu, catalog);
    hw.gpusPerNode = platform.gpusPerNode;
    hw.gpus = platform.gpusPerNode * nodes;
    // Inside the system: the fabric analysis's ring, every GPU sending to the next at once, as a
    // tensor-parallel all-reduce does; its slowest hop's latency.
    const catalog::Gpu &gpu = *platform.gpu;
    hw.intraBytesPerS = platform.ringGBps * 1e9;
    hw.intraLatencyS = platform.ringLatencyUs * 1e-6;
    hw.intraLinkBytesPerS = platform.meshPairGBps * 1e9;
    if (hw.intraBytesPerS <= 0 && platform.gpusPerNode > 1) {
        // No ring found between the system's GPUs: take the GPU's own PCIe link, and say so.
        if (const catalog::LinkKind *pcie = catalog.pcieLink(gpu.pcie.gen, gpu.pcie.lanes)) {
            hw.intraBytesPerS = pcie->achievedGBps() * 1e9;
            hw.intraLatencyS = pcie->latencyUs * 1e-6;
        }
        hw.notes.push_back("the fabric analysis found no ring between the system's GPUs: "
                           "assumed their own PCIe links");
    }
    // Between systems: the network the analysis found from this one to the others, shared by
    // its GPUs.
    hw.netBytesPerS = platform.networkGBps * 1e9 / double(platform.gpusPerNode);
    hw.netLatencyS = platform.networkLatencyUs * 1e-6;
    char line[160];
    std::snprintf(line, sizeof line,
                  "the system's %d GPUs share a ring of %.1f GB/s a GPU (fabric analysis, %s)",
                  platform.gpusPerNode, platform.ringGBps,
                  platform.linkKey.empty() ? "no link" : platform.linkKey.c_str());
    hw.notes.push_back(line);
    if (platform.linkKey == "nvswitch")
        hw.intraBytesPerS *= switchCollectiveShare(gpu, hw.notes);
    if (nodes > 1) {
        std::snprintf(line, sizeof line, "%lld such systems, %.1f GB/s of network each", nodes,
                      platform.networkGBps);
        hw.notes.push_back(line);
    }
    return hw;
}

namespace {

// Megatron-LM's rules, checked in this order; the first one broken, or None.
enum class Rule {
    None,
    Positive,
    ZeroStage,
    GpusDivide,
    TensorHeads,
    TensorDividesHeads,
    TensorDividesKvHeads,
    LayersDivide,
    SequenceNeedsTensor,
    InterleaveNeedsPipeline,
    ZeroWithPipeline,
    BatchDivide,
    MicroDivides,
    InterleaveMicro
};

Rule brokenRule(const Shape &s, const Hardware &hw, const Plan &p)
{
    if (p.tensor < 1 || p.pipeline < 1 || p.interleave < 1 || p.micro < 1)
        return Rule::Positive;
    if (p.zero < 0 || p.zero > 3)
        return Rule::ZeroStage;
    if (hw.gpus % (p.tensor * p.pipeline) != 0)
        return Rule::GpusDivide;
    if (p.tensor > s.heads)
        return Rule::TensorHeads;
    if (s.heads % p.tensor != 0)
        return Rule::TensorDividesHeads;
    if (s.kvHeads % p.tensor != 0)
        return Rule::TensorDividesKvHeads;
    if (s.layers % (p.pipeline * p.interleave) != 0)
        return Rule::LayersDivide;
    if (p.sequenceParallel && p.tensor == 1)
        return Rule::SequenceNeedsTensor;
    if (p.interleave > 1 && p.pipeline == 1)
        return Rule::InterleaveNeedsPipeline;
    if (p.zero >= 2 && p.pipeline > 1)
        return Rule::ZeroWithPipeline;
    const long long d = dataParallel(hw, p);
    if (p.globalBatch < 1 || p.globalBatch % d != 0)
        return Rule::BatchDivide;
    const long long local = p.globalBatch / d;
    if (local % p.micro != 0)
        return Rule::MicroDivides;
    if (p.interleave > 1 && (local / p.micro) % p.pipeline != 0)
        return Rule::InterleaveMicro;
    return Rule::None;
}

} // namespace

void checkPlan(const Shape &s, const Hardware &hw, const Plan &p)
{
    const auto n = [](long long v) { return std::to_string(v); };
    const long long d = p.tensor * p.pipeline > 0 ? dataParallel(hw, p) : 0;
    const long long local = d > 0 ? p.globalBatch / d : 0;
    switch (brokenRule(s, hw, p)) {
    case Rule::None:
        return;
    case Rule::Positive:
        throw PlanError("tensor, pipeline, interleave and micro-batch must be at least 1");
    case Rule::ZeroStage:
        throw PlanError("the ZeRO stage must be 0, 1, 2 or 3");
    case Rule::GpusDivide:
        throw PlanError("tensor x pipeline (" + n(p.tensor * p.pipeline)
                        + ") must divide the GPUs (" + n(hw.gpus) + ")");
    case Rule::TensorHeads:
        throw PlanError("tensor (" + n(p.tensor) + ") must not exceed the heads (" + n(s.heads)
                        + ")");
    case Rule::TensorDividesHeads:
        throw PlanError("tensor (" + n(p.tensor) + ") must divide the heads (" + n(s.heads) + ")");
    case Rule::TensorDividesKvHeads:
        // Megatron-LM splits the key-value groups too (num_query_groups % tensor == 0).
        throw PlanError("tensor (" + n(p.tensor) + ") must divide the key-value heads ("
                        + n(s.kvHeads) + ")");
    case Rule::LayersDivide:
        throw PlanError("pipeline x interleave (" + n(p.pipeline * p.interleave)
                        + ") must divide the layers (" + n(s.layers) + ")");
    case Rule::SequenceNeedsTensor:
        throw PlanError("sequence parallelism needs tensor > 1");
    case Rule::InterleaveNeedsPipeline:
        throw PlanError("interleave > 1 needs pipeline > 1");
    case Rule::ZeroWithPipeline:
        // Each micro-batch's gradients would be reduce-scattered again: DeepSpeed refuses
        // ZeRO-2/3 with pipeline parallelism, and Megatron-LM shards only the optimizer state.
        throw PlanError("ZeRO-2 and ZeRO-3 need pipeline 1 (with pipelines, use ZeRO-1 or 0)");
    case Rule::BatchDivide:
        throw PlanError("the data-parallel replicas (" + n(d) + " = GPUs / (tensor x pipeline))"
                        + " must divide the global batch (" + n(p.globalBatch) + ")");
    case Rule::MicroDivides:
        throw PlanError("the micro-batch (" + n(p.micro) + ") must divide the local batch ("
                        + n(local) + " = global batch / data-parallel replicas)");
    case Rule::InterleaveMicro:
        throw PlanError("with interleave > 1 the micro-batches per replica (" + n(local / p.micro)
                        + ") must be a multiple of pipeline (" + n(p.pipeline) + ")");
    }
}

Memory memoryPerGpu(const Shape &s, const Hardware &hw, const Plan &p)
{
    Memory m;
    m.capacity = hw.memoryBytes;
    const double d = double(dataParallel(hw, p));
    const double params = parametersPerGpu(s, p);
    m.weights = kWeightBytes * params / (p.zero >= 3 ? d : 1);
    m.gradients = kGradientBytes * params / (p.zero >= 2 ? d : 1);
    m.optimizer = kOptimizerBytes * params / (p.zero >= 1 ? d : 1);

    // 1F1B: the first stage holds the activations of min(m, P) micro-batches of its L/P layers;
    // interleaving adds (1 + (P-1)/(P V)) (Korthikanti et al. 2022, section 4.2.3). The last
    // stage holds one micro-batch's, and the fp32 logits for the loss; the busier of the two is
    // the one that must fit.
    const long long micro = p.globalBatch / dataParallel(hw, p) / p.micro;
    const double inFlight = double(std::min(micro, p.pipeline));
    const double interleaved
        = p.interleave > 1 ? 1 + double(p.pipeline - 1) / double(p.pipeline * p.interleave) : 1;
    const double stage
        = layerActivationBytes(s, p.micro, p.tensor, p.recompute, p.sequenceParallel, p.attention)
          * double(s.layers) / double(p.pipeline) * interleaved;
    double recomputed = 0; // one layer's activations rebuilt during its backward
    if (p.recompute == Recompute::Full)
        recomputed = layerActivationBytes(s, p.micro, p.tensor, Recompute::None, p.sequenceParallel,
                                          p.attention);
    const double logits
        = kLogitBytes * double(s.seq) * double(p.micro) * double(s.vocab) / double(p.tensor);
    const double first = stage * inFlight + recomputed;
    const double last = stage + recomputed;
    const bool lastBusier = p.pipeline == 1 || last + logits > first;
    m.activations = lastBusier ? (p.pipeline == 1 ? first : last) : first;
    // ZeRO-3 gathers each layer's whole weights before using it: the layer being computed and
    // the next one being fetched.
    const double gathered
        = p.zero >= 3 ? 2 * kWeightBytes * layerParameters(s) / double(p.tensor) : 0;
    // CUDA context and workspaces, a gradient bucket being reduced and one filling.
    m.buffers = kReservedBytes + (lastBusier ? logits : 0) + gathered + 2 * kBucketBytes;
    return m;
}

StepTime stepTime(const Shape &s, const Hardware &hw, const Plan &p)
{
    StepTime t;
    const long long d = dataParallel(hw, p);
    t.microBatches = p.globalBatch / d / p.micro;
    const double mb = double(p.micro);
    const double layersPerStage = double(s.layers) / double(p.pipeline);
    const double rate = hw.gemmFlops * hw.efficiency;

    // The last stage is the slowest: its layers and the logits (LLM.md, "Compute").
    const double layerFlops = hardwareFlops(s, 1, p.recompute) - 3 * logitForwardFlops(s);
    const double stageFlops
        = mb * (layerFlops / double(s.layers) * layersPerStage + 3 * logitForwardFlops(s))
          / double(p.tensor);
    // The attention products move their score matrices through HBM as well as computing: the
    // two add up (LLM.md, "Attention products").
    const double productMb = layersPerStage
                             * layerProductBytes(s, p.micro, p.tensor, p.recompute, p.attention)
                             / hw.memBytesPerS;
    const double computeMb = stageFlops / rate + productMb;
    const double logitMb = mb * 3 * logitForwardFlops(s) / double(p.tensor) / rate;
    // Element-wise kernels stream their tensors through HBM, or as fast as the SMs issue them
    // where that is slower (LLM.md, "Element-wise traffic").
    const double crossEntropy
        = kCrossEntropyBytes * double(s.seq) * mb * double(s.vocab) / double(p.tensor);
    const double elementwiseMb = (layersPerStage
                                      * layerElementwiseBytes(s, p.micro, p.tensor, p.recompute,
                                                              p.sequenceParallel, p.attention)
                                  + crossEntropy)
                                 / hw.streamBytesPerS;

    // Tensor parallelism: 2 all-reduces a layer forward and 2 backward (and 2 more for the
    // forward a full recomputation runs again) of the layer's s b h output; sequence parallelism
    // turns each into a reduce-scatter and an all-gather of the same volume.
    double tensorMb = 0;
    if (p.tensor > 1) {
        const bool inNode = p.tensor <= hw.gpusPerNode;
        const double bw = inNode ? groupBytesPerS(hw, p.tensor) : hw.netBytesPerS;
        const double lat = inNode ? hw.intraLatencyS : hw.netLatencyS;
        const double bytes = kActivationBytes * double(s.seq) * mb * double(s.hidden);
        const double collectives = p.recompute == Recompute::Full ? 6 : 4;
        tensorMb = layersPerStage * collectives * allReduce(bytes, p.tensor, bw, lat);
    }

    // Pipeline: each micro-batch's activations forward and their gradients backward cross each of
    // a GPU's V chunk boundaries; Megatron sends 1/T of them per GPU (scatter-gather, Narayanan
    // et al. 2021 section 4.1) over the network when neighbouring stages are in other nodes.
    double pipelineMb = 0;
    if (p.pipeline > 1) {
        const bool inNode = p.tensor * p.pipeline <= hw.gpusPerNode;
        const double bw = inNode ? groupBytesPerS(hw, 2) : hw.netBytesPerS;
        const double lat = inNode ? hw.intraLatencyS : hw.netLatencyS;
        const double bytes
            = kActivationBytes * double(s.seq) * mb * double(s.hidden) / double(p.tensor);
        pipelineMb = 2 * double(p.interleave) * (bytes / bw + lat);
    }

    const double m = double(t.microBatches);
    t.compute = m * computeMb;
    t.elementwise = m * elementwiseMb;
    t.tensorComm = m * tensorMb;
    t.pipelineComm = m * pipelineMb;
    const double perMb = computeMb + elementwiseMb + tensorMb + pipelineMb;
    // The pipeline fills and drains through the other stages, which have no logits.
    const double otherStageMb = perMb - logitMb - crossEntropy / hw.streamBytesPerS;
    t.bubble = double(p.pipeline - 1) / double(p.interleave) * otherStageMb;

    // Data parallelism: the gradients all-reduced in buckets as backward produces them; what the
    // last micro-batch's backward cannot hide stays, at least the last bucket.
    const double params = parametersPerGpu(s, p);
    if (d > 1) {
        const bool inNode = p.tensor * p.pipeline * d <= hw.gpusPerNode;
        const double bw = inNode ? groupBytesPerS(hw, d) : hw.netBytesPerS;
        const double lat = inNode ? hw.intraLatencyS : hw.netLatencyS;
        const double bytes = kGradientBytes * params;
        const double buckets = std::max(1.0, std::ceil(bytes / kBucketBytes));
        const double backward = (computeMb + elementwiseMb) * 2.0 / 3.0;
        if (p.zero >= 2) {
            // Sharded gradients are reduce-scattered after every micro-batch (half a ring
            // all-reduce each); ZeRO-3 also gathers the bf16 weights for each micro-batch's
            // forward and again for its backward. A gather hides only behind the pass it feeds
            // (forward ⅓ of the compute, backward ⅔); at least one bucket shows.
            const double scatter = allReduce(bytes, d, bw, lat) / 2;
            const double gather
                = p.zero >= 3 ? allReduce(kWeightBytes * params, d, bw, lat) / 2 : 0;
            const double forward = computeMb + elementwiseMb - backward;
            const double exposedMb
                = std::max(gather - forward, 0.0) + std::max(gather + scatter - backward, 0.0);
            t.dataParallel = m * std::max((scatter + 2 * gather) / buckets, exposedMb);
        } else {
            const double reduce = allReduce(bytes, d, bw, lat);
            t.dataParallel = std::max(reduce / buckets, reduce - backward);
        }
    }
    // Adam reads and writes its 16 B a parameter once (as model/perf does), on this GPU's shard.
    const double shard = params / (p.zero >= 1 ? double(d) : 1);
    t.optimizer = shard * 16 * 2 / hw.memBytesPerS;

    t.total = t.compute + t.elementwise + t.tensorComm + t.pipelineComm + t.bubble + t.dataParallel
              + t.optimizer;
    const double gpuSeconds = t.total * double(hw.gpus);
    const double batch = double(p.globalBatch);
    t.mfu = modelFlops(s, batch) / (gpuSeconds * hw.peakFlops);
    t.hfu = hardwareFlops(s, batch, p.recompute) / (gpuSeconds * hw.peakFlops);
    t.tflopsPerGpu = hardwareFlops(s, batch, p.recompute) / gpuSeconds / 1e12;
    return t;
}

Search searchPlans(const Shape &s, const Hardware &hw, long long globalBatch, Attention attention)
{
    Search out;
    Plan p;
    p.globalBatch = globalBatch;
    p.attention = attention;
    const auto fits = [&] { return brokenRule(s, hw, p) == Rule::None; };
    for (long long t = 1; t <= std::min(hw.gpusPerNode, s.kvHeads); t *= 2) {
        for (long long pp = 1; pp <= s.layers; ++pp) {
            if (s.layers % pp != 0 || hw.gpus % (t * pp) != 0)
                continue;
            for (long long v = 1; v <= (pp > 1 ? 8 : 1); ++v) {
                for (long long micro = 1; micro <= 16; ++micro) {
                    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                        for (int sp = 0; sp <= (t > 1 ? 1 : 0); ++sp) {
                            for (int zero = 0; zero <= 3; ++zero) {
                                p.tensor = t;
                                p.pipeline = pp;
                                p.interleave = v;
                                p.micro = micro;
                                p.recompute = r;
                                p.sequenceParallel = sp == 1;
                                p.zero = zero;
                                if (!fits())
                                    continue;
                                if (zero > 0 && dataParallel(hw, p) == 1)
                                    continue; // nothing to shard over
                                ++out.valid;
                                Evaluated e{p, memoryPerGpu(s, hw, p), {}};
                                if (!e.memory.fits()) {
                                    ++out.tooLarge;
                                    continue;
                                }
                                e.time = stepTime(s, hw, p);
                                if (!std::isfinite(e.time.total))
                                    continue; // a link of no bandwidth: no time to rank
                                out.plans.push_back(e);
                            }
                        }
                    }
                }
            }
        }
    }
    // Equal times (sequence parallelism moves the same bytes) go to the plan using less memory.
    std::stable_sort(out.plans.begin(), out.plans.end(),
                     [](const Evaluated &a, const Evaluated &b) {
                         if (a.time.total != b.time.total)
                             return a.time.total < b.time.total;
                         return a.memory.total() < b.memory.total();
                     });
    return out;
}

} // namespace clab::llm
