#include "perf/model.h"

#include "catalog/catalog.h"
#include "cluster/allreduce.h"
#include "perf/contention.h"
#include "perf/gpurates.h"
#include "perf/model_p.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

// The performance model: every term is in model/perf/MODEL.md with its source.

namespace clab::perf {

using detail::featureFetchS;
using detail::kStateBytesPerParam;
using detail::memoryNeededGB;
using detail::placeFeatureStore;

namespace {

// The optimizer reads and writes its state once per step.
constexpr double kOptimizerPasses = 2;
// Backward is about two thirds of a step's math: it computes two gradients per forward product.
constexpr double kBackwardShare = 2.0 / 3.0;
// Share of the tensor-parallel traffic that overlapping it with the GEMMs (Transformer Engine's
// userbuffers) hides. MLPerf Training v4.0, Llama 2 70B LoRA on one 8 x H100-SXM node, TP 4, the
// same NeMo 24.04 software (training_results_v4.0 @6fe95437, tracked_stats throughput medians):
// overlap off 0.2458 and 0.2429 samples/s a GPU (Dell XE9680, Supermicro AS-8125GS), on 0.2592
// (median of 8 systems): the step is 0.23 s longer without it, a third of the ~0.65 s the
// collectives take at the NVSwitch ring's rate in this model (below).
constexpr double kTensorOverlapHidden = 1.0 / 3.0;
// A GPU's share of a sequence split over two (context parallelism) runs slower than whole
// sequences do: MLPerf Training Llama 2 70B LoRA on H100 at tensor 4, the same software on both
// sides, measured this share of the whole-sequence rate a GPU: 0.730 (v4.0 HPE XD670 1 -> 2 nodes
// at the same batch and accumulation), 0.728, 0.731 and 0.762 (v4.0 NVIDIA Eos, SMC, Supermicro
// 1 -> 8 nodes) and 0.848, 0.835 (v4.1 NVIDIA Eos, Dell: the split runs also turned on layer CUDA
// graphs). The key-value exchange does not explain it (about 1 GB a step a GPU over NVLink, a few
// milliseconds); the halved matrices, the split causal attention and the tensor-parallel overlap
// tuned for whole sequences may. The model takes the geometric middle of the two rounds for the
// kernels (math and memory, about nine tenths of a LoRA step, so the step's rate falls to about
// 0.80). The interval needs no widening: LoRA's held-out residuals already include these rows.
// The model sees a split only where a replica holds less than a sample; runs that split
// sequences they could hold whole (HPE's two nodes at batch 8) are predicted as whole.
constexpr double kSplitSequenceRate = 0.78;
// When a host's cores are not known.
constexpr int kDefaultHostCores = 64;
// The share of a host's memory the page cache may keep a dataset in; the rest holds the training
// processes, their pinned buffers and the loaders' queues. An assumption.
constexpr double kPageCacheShare = 0.5;
// Extrapolation widens the interval by these log-factors (a third more than the calibration's
// held-out spread for a batch beyond the convergence table, and so on); see MODEL.md.
constexpr double kWidenBatch = 0.15;
constexpr double kWidenEstimatedGpu = 0.10;
constexpr double kWidenSoftware = 0.10;
constexpr double kUncalibratedWorkload = 0.7; // e^0.7 = 2x either way
// A benchmark fitted on fewer rows than this has no held-out spread of its own worth the name.
constexpr int kFewRows = 8;
constexpr double kWidenFewRows = 0.3;

struct Widening
{
    double lo = 0, hi = 0;
    void add(double by)
    {
        lo += by;
        hi += by;
    }
};

void setInterval(Prediction &out, const Calibration &cal, const workload::Workload &w,
                 const catalog::Gpu &gpu, const Widening &extra)
{
    Interval i = cal.interval(w.calibrationKey(), gpu.arch);
    if (!cal.params(w.calibrationKey())) {
        i = {-kUncalibratedWorkload, kUncalibratedWorkload, 0};
    } else if (!cal.sawArchitecture(gpu.arch)) {
        // The error of fits that had not seen a whole architecture.
        if (const auto it = cal.intervals.find("arch-out"); it != cal.intervals.end())
            i = it->second;
    }
    const double lo = i.p10 - extra.lo, hi = i.p90 + extra.hi;
    if (out.timeToTrainMin)
        out.intervalMin
            = {*out.timeToTrainMin * std::exp(-hi), *out.timeToTrainMin * std::exp(-lo)};
    out.intervalThroughput = {out.throughput * std::exp(lo), out.throughput * std::exp(hi)};
    // The interval is the point moved by held-out residuals; when those were all of one sign the
    // point lies outside it, and the reader should know which to believe.
    if (lo > 0 || hi < 0)
        out.notes.push_back(std::string("the prediction lies outside its interval: at least 9 of "
                                        "10 held-out rows like this one ran ")
                            + (lo > 0 ? "faster" : "slower")
                            + " than the model said; expect the interval");
}

// The 16 bits an FP8 run falls back to where it cannot run FP8.
Precision sixteenBits(const catalog::Gpu &gpu)
{
    return gpu.tflops.bf16 ? Precision::Bf16 : Precision::Fp16;
}

} // namespace

namespace detail {

Prediction predictWith(const Platform &platform, const workload::Workload &w, int globalBatch,
                       const Request &request, const Calibration &cal)
{
    Prediction out;
    out.globalBatch = globalBatch;
    out.precision
        = request.precision.value_or(parsePrecision(w.defaultPrecision).value_or(Precision::Fp16));
    out.software = request.software.empty() ? cal.defaultSoftware : request.software;
    if (!platform.gpu) {
        out.notes.push_back("no GPU in the system");
        out.fits = false;
        return out;
    }
    const catalog::Gpu &gpu = *platform.gpu;
    const catalog::Catalog &catalog
        = platform.catalog ? *platform.catalog : catalog::Catalog::builtin();
    const int gpus = std::max(1, platform.gpusPerNode * platform.nodes);
    // The plan is sized at the run's precision, 16-bit where the GPU or the implementation runs
    // no FP8 (the fallback below that depends on the local batch keeps FP8's plan).
    const auto &archs = w.fp8Architectures;
    const bool archRunsFp8
        = archs.empty() || std::find(archs.begin(), archs.end(), gpu.arch) != archs.end();
    const Precision sized = out.precision == Precision::Fp8 && !(gpu.tflops.fp8 && archRunsFp8)
                                ? sixteenBits(gpu)
                                : out.precision;
    out.plan = request.plan ? *request.plan : choosePlan(platform, w, globalBatch, sized);
    out.plan.tensor = std::clamp(out.plan.tensor, 1, std::max(1, platform.gpusPerNode));
    out.plan.pipeline = std::clamp(out.plan.pipeline, 1, std::max(1, gpus / out.plan.tensor));
    const double shards = double(out.plan.tensor) * out.plan.pipeline;
    out.dataParallel = std::max(1, int(gpus / shards));
    out.localBatch = double(globalBatch) / out.dataParallel;
    // FP8 runs (and is reported) in 16 bits on a GPU without FP8 tensor cores, as Transformer
    // Engine falls back, and where the implementation itself runs 16-bit (NVIDIA's MLPerf BERT:
    // FP8 only at 8 or more sequences a GPU, and only on Hopper and Blackwell).
    if (out.precision == Precision::Fp8) {
        std::string why;
        if (!gpu.tflops.fp8) {
            why = gpu.name + " has no FP8 tensor cores: runs in ";
        } else if (!archRunsFp8) {
            std::string where;
            for (const std::string &a : archs)
                where += (where.empty() ? "" : ", ") + a;
            why = w.name + "'s implementation runs FP8 only on " + where + " GPUs, not " + gpu.arch
                  + ": ";
        } else if (out.localBatch < w.fp8MinLocalBatch) {
            char local[32];
            std::snprintf(local, sizeof local, "%g", out.localBatch);
            why = w.name + "'s implementation runs FP8 only at "
                  + std::to_string(w.fp8MinLocalBatch) + " or more samples a GPU, not " + local
                  + ": ";
        }
        if (!why.empty()) {
            out.precision = sixteenBits(gpu);
            out.notes.push_back(why + precisionName(out.precision)
                                + (gpu.tflops.fp8 ? " here" : ""));
        }
    }
    Widening widen;

    // Memory: the largest micro-batch that fits (gradient accumulation), at least one sample;
    // below one sample a GPU holds its share of the sequence where the implementation splits
    // sequences (context parallelism), else a whole sample.
    out.availableGB = gpu.memGB;
    const bool splitsSequence = out.localBatch < 1 && w.contextParallelMax > 1;
    out.microBatch = splitsSequence ? out.localBatch : std::max(1.0, out.localBatch);
    if (splitsSequence) {
        char split[256];
        std::snprintf(split, sizeof split,
                      "each sample is split over %g GPUs (context parallelism): each runs its "
                      "share at %g of the rate of whole samples, as MLPerf's Llama 2 LoRA runs "
                      "measured (0.73 to 0.85)",
                      1 / out.localBatch, kSplitSequenceRate);
        out.notes.push_back(split);
    }
    while (out.microBatch > 1
           && memoryNeededGB(w, out.microBatch, out.plan, gpus, out.precision) > out.availableGB)
        out.microBatch = std::max(1.0, std::floor(out.microBatch / 2));
    out.requiredGB = memoryNeededGB(w, out.microBatch, out.plan, gpus, out.precision);
    out.fits = out.requiredGB <= out.availableGB * (1 + 1e-12); // a sum exactly at capacity fits
    if (!out.fits)
        out.notes.push_back("does not fit: needs " + std::to_string(int(std::ceil(out.requiredGB)))
                            + " GB per GPU, " + gpu.name + " has " + std::to_string(int(gpu.memGB))
                            + " GB");
    const double passes = std::ceil(out.localBatch / out.microBatch);
    // A store the samples gather rows from (R-GAT's node features): on the GPUs or in host memory.
    const bool gathers = w.featureBytesPerSample > 0;
    const bool storeOnGpus = gathers && placeFeatureStore(w, platform, gpus, out);

    // Compute: matrix FLOPs at the benchmark's share of the measured GEMM rate, plus the
    // memory-bound bytes at the measured memory bandwidth (or the SMs' rate where that is lower,
    // GpuRates::streamBytesPerS), plus optimizer and launch overhead.
    const GpuRates rates = gpuRates(gpu, out.precision, catalog);
    if (!rates.note.empty())
        out.notes.push_back(rates.note);
    if (gpu.user) {
        out.extrapolation.push_back(gpu.name
                                    + " is a user-defined part: its figures are the "
                                      "user's, not measurements");
        widen.add(kWidenEstimatedGpu);
    }
    if (rates.estimated) {
        out.extrapolation.push_back("not every rate of " + gpu.name
                                    + " is measured here: the missing ones are estimated from "
                                      "measured parts (see the notes)");
        widen.add(kWidenEstimatedGpu);
    }
    const BenchParams *calibrated = cal.params(w.calibrationKey());
    const BenchParams bp = calibrated ? *calibrated : cal.typical();
    if (!calibrated) {
        out.extrapolation.push_back(w.name
                                    + " has no calibration rows: physics with the median "
                                      "factors of the calibrated benchmarks");
    } else if (calibrated->rows > 0 && calibrated->rows < kFewRows) {
        out.extrapolation.push_back(w.name + " is calibrated on " + std::to_string(calibrated->rows)
                                    + (calibrated->rows == 1 ? " row" : " rows")
                                    + ": too few to know its spread");
        widen.add(kWidenFewRows);
    }
    if (!cal.sawArchitecture(gpu.arch))
        out.extrapolation.push_back("no " + gpu.arch
                                    + " GPU among the calibration rows (or fewer than 8)");
    std::string softwareNote;
    const double software = cal.softwareFactor(w.calibrationKey(), out.software, &softwareNote);
    if (!softwareNote.empty()) {
        out.extrapolation.push_back(softwareNote);
        if (!out.software.empty() && !workload::isMlperfRound(out.software)) {
            // A framework stack of its own: it may run as fast or as slow as the calibrated
            // framework stacks do (time scales with the factor; held out, these stacks are
            // missed by up to 3x), not merely within a round's drift.
            const auto [fast, slow] = cal.frameworkSpread(w.calibrationKey());
            widen.lo += std::max(kWidenSoftware, std::log(slow));
            widen.hi += std::max(kWidenSoftware, -std::log(fast));
        } else {
            widen.add(kWidenSoftware);
        }
    }
    // Software speeds the memory-bound kernels and overheads, and the matrix math only up to the
    // measured GEMM rate: no benchmark runs faster than the GPU's own large GEMMs.
    // Kernels on the older warp-level instructions (their share of the matrix FLOPs) do not reach
    // a warpgroup path's rate; FP32 runs on the plain cores either way. The reported efficiency
    // is the share of the measured GEMM rate the matrix math really reaches.
    const double warp = out.precision == Precision::Fp32 ? 0 : w.warpMmaFlopShare;
    const double path = 1 / (1 - warp + warp / rates.warpMmaShare);
    out.gemmEfficiency = std::min(1.0, bp.gemmEfficiency / software) * path;
    if (path < 1)
        out.notes.push_back(
            std::to_string(int(warp * 100 + 0.5)) + " % of " + w.name
            + "'s matrix FLOPs run in warp-level mma.sync kernels, at "
            + std::to_string(int(rates.warpMmaShare * 100 + 0.5)) + " % of the " + gpu.name
            + "'s GEMM rate"
            + (rates.warpMmaFromPeers ? " (as measured " + gpu.arch + " parts reach)" : ""));
    const double fp8 = out.precision == Precision::Fp8 && rates.fp8Flops > 0 ? w.fp8Share : 0;
    const double secondsPerFlop
        = ((1 - fp8) / rates.gemmFlops + (fp8 > 0 ? fp8 / rates.fp8Flops : 0)) / out.gemmEfficiency;
    const double mathPerSample = w.trainFlopsPerSample * secondsPerFlop;
    // An FP8 run's casts and transposes are memory-bound traffic of the same kind.
    const double castBytes = fp8 > 0 ? w.fp8CastBytesPerSample : 0;
    const double memoryPerSample
        = (w.memoryBytesPerSample * elementBytes(out.precision) / 2 + castBytes) * bp.memoryScale
          / rates.streamBytesPerS;
    double bubble = 1;
    if (out.plan.pipeline > 1) {
        // GPipe/1F1B bubble with one-sample micro-batches: (m + p - 1) / m.
        const double micro = std::max(1.0, out.localBatch);
        bubble = (micro + out.plan.pipeline - 1) / micro;
    }
    const double split = splitsSequence ? 1 / kSplitSequenceRate : 1;
    // Recomputed layers run their forward pass again in the backward pass: the forward's share
    // of a training step's work (the evaluation's FLOPs over training's, a third where the
    // workload gives none; about a half for LoRA, whose frozen weights get no gradient).
    const double forwardShare = w.evalFlopsPerSample > 0
                                    ? std::min(1.0, w.evalFlopsPerSample / w.trainFlopsPerSample)
                                    : 1.0 / 3;
    const double again = 1 + out.plan.recompute * forwardShare;
    if (out.plan.recompute > 0) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "activations of %.0f %% of the layers recomputed in the backward pass "
                      "(+%.0f %% compute) to fit without model parallelism",
                      100 * out.plan.recompute, 100 * (again - 1));
        out.notes.push_back(text);
    }
    out.mathS = out.localBatch * mathPerSample / shards * bubble * split * again;
    out.memoryS = out.localBatch * memoryPerSample / shards * bubble * software * split * again;
    // The update is sharded over the data-parallel replicas, as the distributed optimizers of
    // MLPerf submissions do (NVIDIA's DistributedFusedLAMB and DistributedFusedAdam: each GPU
    // updates its 1/DP of the state after a reduce-scatter and all-gathers the weights, the same
    // traffic as an all-reduce). Sharded embeddings are updated sparsely: only the rows a step
    // looked up, which the memory traffic above already counts.
    out.optimizerS = w.allreduceParameters / shards / out.dataParallel * kStateBytesPerParam
                     * kOptimizerPasses / rates.memBytesPerS * software;
    // Every matrix kernel also takes a fixed time whatever its size (the GPU's measured t0): a
    // pass of few samples a GPU reaches less of the GEMM rate. A pipeline stage runs its share,
    // stretched by the bubble as its math is; no software factor (the hardware's own time).
    out.kernelFixedS
        = passes * double(w.matrixKernelsPerPass) / out.plan.pipeline * bubble * rates.gemmFixedS;
    if (out.kernelFixedS > 0 && !rates.fixedNote.empty())
        out.notes.push_back(rates.fixedNote);
    out.overheadS = passes * bp.overheadMs / 1000 * software + out.kernelFixedS;
    out.computeS = out.mathS + out.memoryS + out.optimizerS + out.overheadS;

    // Transfers of the step, sharing links: the gradient ring inside the node, the input copies,
    // the drive reads and the traffic to the NICs.
    const int perNode = std::max(1, platform.gpusPerNode / out.plan.tensor);
    const int ringSize = std::min(perNode, out.dataParallel);
    const int nodeGroups = out.dataParallel / ringSize;
    const double grad = w.allreduceParameters / shards * elementBytes(out.precision);
    // "synthetic": samples made on the GPU (framework benchmark scripts), no input pipeline.
    const bool synthetic = request.loader == "synthetic";
    const workload::Loader *load = synthetic ? nullptr : workload::loader(w, request.loader);
    if (!load && !synthetic) {
        out.notes.push_back("no loader \"" + request.loader + "\" for " + w.name
                            + ": using its default");
        load = workload::loader(w);
    }
    out.loader = synthetic ? request.loader : load ? load->name : std::string();
    const double nodeSamples = out.localBatch * perNode;
    ClassTimes bytes{};
    const double ringBytes = ringSize > 1 ? 2.0 * (ringSize - 1) / ringSize * grad : 0;
    // On a full mesh the fabric's ring flows are the direct pairs, all sending at once: a GPU's
    // bytes split over the k - 1 links to the others of its group.
    const bool mesh = platform.meshPairGBps > 0 && ringSize > 1;
    bytes[std::size_t(fabric::FlowClass::Ring)] = mesh ? ringBytes / (ringSize - 1) : ringBytes;
    bytes[std::size_t(fabric::FlowClass::Input)]
        = out.localBatch
          * ((load ? load->hostToDeviceBytesPerSample : 0)
             + (gathers && !storeOnGpus && !synthetic ? w.featureBytesPerSample : 0));
    if (platform.flows.count[std::size_t(fabric::FlowClass::Storage)] > 0)
        bytes[std::size_t(fabric::FlowClass::Storage)]
            = nodeSamples * w.inputBytesPerSample
              / platform.flows.count[std::size_t(fabric::FlowClass::Storage)];
    if (nodeGroups > 1)
        bytes[std::size_t(fabric::FlowClass::Network)]
            = 2.0 * (nodeGroups - 1) / nodeGroups * grad / ringSize;
    ClassTimes took{};
    double copyS = 0;   // the input copies' own time, for the report
    double drivesS = 0; // the drive reads' own time
    const auto inputClass = std::size_t(fabric::FlowClass::Input);
    const auto storageClass = std::size_t(fabric::FlowClass::Storage);
    if (!platform.flows.resources.empty()) {
        // The gradient ring is a burst; the input copies and drive reads are prefetched through
        // the step, so each asks only for its bytes over the step's compute time and leaves the
        // rest of a shared link to the ring. Past what a link carries, they take longer.
        ClassTimes demand{};
        for (const std::size_t c : {inputClass, storageClass})
            demand[c] = out.computeS > 0 ? bytes[c] / 1e9 / out.computeS : 0;
        took = shareLinks(platform.flows, bytes, demand);
        // A stage that got what it asked for takes its own time, as if the ring were not there
        // (it spreads its bytes over the step); one that did not takes what the links gave it.
        ClassTimes stages{};
        stages[inputClass] = bytes[inputClass];
        stages[storageClass] = bytes[storageClass];
        const ClassTimes alone = shareLinks(platform.flows, stages);
        auto stage = [&](std::size_t c) {
            return took[c] <= out.computeS * (1 + 1e-9) ? alone[c] : took[c];
        };
        copyS = stage(inputClass);
        drivesS = stage(storageClass);
    } else {
        // A platform without its flows (made by hand): each class alone at its own bandwidth.
        const auto ring = std::size_t(fabric::FlowClass::Ring);
        const auto input = std::size_t(fabric::FlowClass::Input);
        took[ring] = platform.ringGBps > 0 ? ringBytes / (platform.ringGBps * 1e9) : 0;
        took[input] = platform.h2dGBps > 0 ? bytes[input] / (platform.h2dGBps * 1e9) : 0;
        copyS = took[input];
    }
    for (double &t : took)
        if (!std::isfinite(t))
            t = 0; // a class with no path: the fabric analysis reports it as a finding
    if (!std::isfinite(copyS))
        copyS = 0;
    if (gathers && !storeOnGpus && !synthetic && !(copyS > 0))
        out.notes.push_back("no host-to-GPU path: the gathers from the host's feature store are "
                            "not counted");
    if (!std::isfinite(drivesS))
        drivesS = 0;
    double ringS = took[std::size_t(fabric::FlowClass::Ring)];
    // One collective's latency (ring hops, and the tree between nodes below); every bucket's
    // collective pays it. The cluster topologies' all-reduce gives its latency within its time.
    double latencyS = 0;
    if (ringSize > 1)
        latencyS += 2.0 * (ringSize - 1) * platform.ringLatencyUs * 1e-6;
    ringS += latencyS;
    double interS = 0, treeS = 0;
    if (nodeGroups > 1 && platform.cluster) {
        // Every GPU all-reduces its 1/ringSize shard with its peers in the other nodes, all at
        // once over the cluster's topology (model/cluster's algorithm for that family).
        interS = cluster::allreduce(*platform.cluster, grad / ringSize).seconds;
        // The topology gives every GPU its own endpoints (four 400 Gb/s ports by default); a
        // node whose NICs carry less cannot send its shards faster than they do.
        if (platform.networkGBps > 0)
            interS = std::max(interS, 2.0 * (nodeGroups - 1) / nodeGroups * grad
                                          / (platform.networkGBps * 1e9));
    } else if (nodeGroups > 1 && platform.networkGBps > 0) {
        // After the reduce-scatter each GPU holds 1/ringSize of the gradients; all GPUs of a node
        // exchange theirs between nodes at once over the node's NICs. Large jobs use trees, whose
        // latency grows with log2 of the node count.
        treeS = 2.0 * std::log2(double(nodeGroups)) * platform.networkLatencyUs * 1e-6;
        interS = 2.0 * (nodeGroups - 1) / nodeGroups * grad / (platform.networkGBps * 1e9) + treeS;
    }
    interS = std::max(interS, took[std::size_t(fabric::FlowClass::Network)] + treeS);
    latencyS += treeS;
    // Gradients leave in buckets while the backward pass runs, each its own collective. Counted
    // as a share (not whole buckets), so that more gradient never shows less.
    const double buckets
        = w.allreduceAfterBackward ? 1.0 : std::max(1.0, grad / w.gradientBucketBytes);
    out.allreduceS = grad > 0 ? ringS + interS + (buckets - 1) * latencyS : 0;
    double tensorS = 0;
    const double intraGBps = platform.ringGBps > 0 ? platform.ringGBps : 1;
    if (out.plan.tensor > 1) {
        // Tensor parallelism all-reduces activations inside the node, twice per layer forward
        // and twice backward, over NVLink or PCIe, on the critical path. On a pairwise mesh a
        // group of T GPUs has only the T - 1 links between them. Every GPU of the group
        // all-reduces the whole s x h activations of its stage's layers (each holds a 1/T slice
        // of the weights, not of the activations), again for the forward passes recomputed; they
        // sit inside each micro-batch's passes, so the pipeline's idle ticks stretch them as they
        // stretch the math. Without that figure, a 1/T share of the activation memory.
        const double act = w.tensorParallelBytesPerSample > 0
                               ? out.localBatch * w.tensorParallelBytesPerSample / out.plan.pipeline
                                     * (1 + out.plan.recompute / 2) * bubble
                               : out.localBatch * w.activationBytesPerSample / out.plan.tensor;
        const double groupGBps
            = platform.meshPairGBps > 0
                  ? std::min(intraGBps, (out.plan.tensor - 1) * platform.meshPairGBps)
                  : intraGBps;
        tensorS = 2.0 * (out.plan.tensor - 1) / out.plan.tensor * act / (groupGBps * 1e9);
    }
    const double fetchS
        = storeOnGpus ? featureFetchS(w, platform, gpus, out.localBatch, intraGBps, out.notes) : 0;
    if (w.alltoallBytesPerSample > 0 && gpus > 1) {
        // Model-parallel embeddings: every GPU sends each sample's looked-up rows to the GPU that
        // trains it, forward and back. The share for GPUs in other nodes crosses the network.
        const double sent = 2 * out.localBatch * w.alltoallBytesPerSample;
        const double local = double(platform.gpusPerNode - 1) / gpus;
        const double remote = double(gpus - platform.gpusPerNode) / gpus;
        if (platform.gpusPerNode > 1)
            out.alltoallS += sent * local / (intraGBps * 1e9);
        if (remote > 0 && platform.networkGBps > 0)
            out.alltoallS += sent * remote * platform.gpusPerNode / (platform.networkGBps * 1e9);
    }
    // The step's collectives wait for the slowest node. What varies from node to node is the
    // step's fixed time (the host's launches, framework and OS noise, and the fixed part of each
    // kernel, which launch queues and clocks stretch where long kernels average it out), all of
    // a node's passes together, so the delay scales with the per-step overhead. The expected
    // maximum of N normal delays grows as sqrt(2 ln N) for large N (Gumbel's extreme-value limit,
    // an overstatement on a few nodes; Hoefler et al., SC10, on noise at scale). A node's GPUs
    // share its host's noise.
    if (platform.nodes > 1 && gpus > platform.gpusPerNode)
        out.syncS
            = cal.hostJitter * out.overheadS * std::sqrt(2 * std::log(double(platform.nodes)));
    out.communicationS = out.allreduceS + tensorS + out.alltoallS + out.syncS;
    // Buckets go while the backward pass of the last micro-batch runs; the last bucket waits.
    // A distributed optimizer sends half the ring's traffic (the reduce-scatter) that way and
    // the other half (the parameter all-gather) after the step, where nothing hides it.
    const double window = kBackwardShare * (out.mathS + out.memoryS) / passes;
    // An implementation that reduces only after the whole backward pass hides nothing.
    double exposedAllreduce = out.allreduceS;
    if (out.allreduceS > 0 && !w.allreduceAfterBackward) {
        const double half = w.parameterGatherAfterStep ? 0.5 : 1;
        const double gatherS = out.allreduceS * (1 - half);
        const double hideable = out.allreduceS - gatherS;
        // The last bucket: its share of the bytes and a whole collective's latency.
        const double lastBucket
            = (hideable - buckets * latencyS * half) / buckets + latencyS * half;
        exposedAllreduce = gatherS + std::max(lastBucket, hideable - cal.overlap * window);
    }
    // Tensor-parallel and all-to-all traffic sit between layers: nothing hides them, unless the
    // implementation splits each GEMM to overlap them (over NVLink only), which hides a measured
    // share of it (kTensorOverlapHidden), as long as there is math to hide it behind.
    double exposedTensor = tensorS;
    const bool nvlink = platform.linkKey == "nvswitch" || platform.linkKey == "nvlink-mesh";
    if (w.tensorParallelOverlap && nvlink)
        exposedTensor = tensorS - std::min(kTensorOverlapHidden * tensorS, cal.overlap * out.mathS);
    out.exposedCommS = exposedAllreduce + exposedTensor + out.alltoallS + out.syncS;

    // Input pipeline, per node per step; its stages run in parallel with each other and with
    // the GPUs (prefetching), so the slowest stage is what the GPUs may wait for.
    const int cores = platform.hostCores > 0 ? platform.hostCores : kDefaultHostCores;
    if (platform.hostCores <= 0)
        out.notes.push_back("host cores unknown: assumed " + std::to_string(kDefaultHostCores));
    double readS = 0;
    if (platform.flows.count[std::size_t(fabric::FlowClass::Storage)] > 0)
        readS = drivesS;
    else if (std::isfinite(platform.storageGBps) && platform.storageGBps > 0)
        readS = nodeSamples * w.inputBytesPerSample / (platform.storageGBps * 1e9);
    const double decodeS = load ? nodeSamples * load->decodeCoreSecondsPerSample / cores : 0;
    const double busy = out.computeS + out.exposedCommS;
    // A dataset that fits in the page cache is read from the drives once: each node's first
    // pass over it (one epoch on one node, up to one per node on several) waits for the drives,
    // later ones read host memory. Larger ones, or on a host of unknown memory, every epoch.
    const double datasetBytes = w.datasetSamples * w.inputBytesPerSample;
    if (readS > 0 && datasetBytes > 0 && nodeSamples > 0) {
        // Said only where the drives are the slowest stage; otherwise the reads hide anyway.
        const bool drivesBind = readS > std::max(decodeS, copyS);
        if (platform.hostMemGB <= 0) {
            if (drivesBind)
                out.notes.push_back("host memory unknown: the drives are read every epoch");
        } else if (datasetBytes <= kPageCacheShare * platform.hostMemGB * 1e9) {
            if (drivesBind) {
                out.coldInputS = readS;
                out.coldSteps = w.datasetSamples / nodeSamples;
                char text[160];
                std::snprintf(text, sizeof text,
                              "the dataset (%.1f GB) fits in the page cache (half the host's "
                              "%.0f GB): the drives are read in its first pass only",
                              datasetBytes / 1e9, platform.hostMemGB);
                out.notes.push_back(text);
            }
            readS = 0;
        }
    }
    out.inputS = std::max({readS, decodeS, copyS, fetchS});
    out.stallS = std::max(0.0, out.inputS - busy);
    out.stepS = busy + out.stallS;
    out.throughput = globalBatch / out.stepS;
    out.utilization = rates.peakFlops > 0
                          ? out.throughput * w.trainFlopsPerSample / (gpus * rates.peakFlops)
                          : 0;

    // Time to train: steps to converge at this batch, plus evaluation.
    out.samples = workload::samplesToConverge(w, globalBatch);
    if (!out.samples) {
        out.notes.push_back(w.name + " has no convergence table: time-to-train not predicted");
        setInterval(out, cal, w, gpu, widen);
        return out;
    }
    if (!workload::withinConvergenceTable(w, globalBatch)) {
        out.extrapolation.push_back("global batch " + std::to_string(globalBatch)
                                    + " is outside the convergence table ("
                                    + std::to_string(w.convergence.front().globalBatch) + " to "
                                    + std::to_string(w.convergence.back().globalBatch) + ")");
        widen.add(kWidenBatch);
    }
    // A table measured under other rules (MLPerf changes a benchmark's hyperparameters between
    // rounds) may be off by as much as a batch outside it: widen as much.
    const auto &rounds = w.convergenceRounds;
    if (!rounds.empty() && workload::isMlperfRound(out.software)
        && std::find(rounds.begin(), rounds.end(), out.software) == rounds.end()) {
        std::string list;
        for (const std::string &r : rounds)
            list += (list.empty() ? "" : ", ") + r;
        out.extrapolation.push_back("the convergence table of " + w.name + " holds for " + list
                                    + ", not " + out.software
                                    + ": that round may need a different number of samples");
        widen.add(kWidenBatch);
    }
    out.steps = std::ceil(*out.samples / globalBatch);
    out.evaluations = workload::evaluations(w, *out.samples, globalBatch);
    // An evaluation is a pass over the evaluation set, shared by every GPU, plus a fixed cost.
    // Where MLPerf logs measured it, a sample costs its measured share of a training sample;
    // elsewhere its forward FLOPs' share, and the fixed cost is the calibration's.
    const double trainPerSample = mathPerSample + memoryPerSample * software;
    // Where the host scores the samples, each node's CPUs take their share while the GPUs infer:
    // the slower of the two sets the pass.
    double evalPass = 0;
    if (w.evalTimed && w.measuredEval) {
        const auto &m = *w.measuredEval;
        const double onGpus = w.evalSamples / gpus * trainPerSample * m.costRatio;
        const double onHosts = w.evalSamples / std::max(1, platform.nodes) * m.hostS;
        // An evaluation sample gathers its rows of the store as a training sample does.
        const double gathering
            = gathers && out.localBatch > 0
                  ? w.evalSamples / gpus * std::max(copyS, fetchS) / out.localBatch
                  : 0;
        evalPass = std::max({onGpus, onHosts, gathering}) + m.fixedS;
    } else if (w.evalTimed) {
        evalPass
            = w.evalSamples / gpus * trainPerSample * w.evalFlopsPerSample / w.trainFlopsPerSample
              + bp.evalOverheadS;
    }
    out.evaluationPassS = evalPass;
    out.evaluationS = out.evaluations * evalPass;
    // A measured one-time loss (workload startSeconds, and its share of a load every node
    // takes a part of) counts as compute.
    out.breakdownMin.compute = (out.steps * out.computeS + w.startOn(platform.nodes)) / 60;
    out.breakdownMin.communication = out.steps * out.exposedCommS / 60;
    // The first pass over a cached dataset stalls for the drives (at most every step).
    out.coldSteps = std::min(out.coldSteps, out.steps);
    const double coldStallS = std::max(0.0, out.coldInputS - out.computeS - out.exposedCommS);
    out.breakdownMin.input
        = (out.steps * out.stallS + out.coldSteps * std::max(0.0, coldStallS - out.stallS)) / 60;
    out.breakdownMin.evaluation = out.evaluationS / 60;
    out.timeToTrainMin = out.breakdownMin.compute + out.breakdownMin.communication
                         + out.breakdownMin.input + out.breakdownMin.evaluation;
    setInterval(out, cal, w, gpu, widen);
    return out;
}

} // namespace detail

} // namespace clab::perf
