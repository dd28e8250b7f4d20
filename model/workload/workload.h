#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::workload {

// A training benchmark as the performance model needs it. Read from resources/workloads/*.json
// (format and sources: resources/workloads/README.md). All per-sample figures are for one
// training sample (an image, a sequence, ...) of the benchmark's reference configuration.

struct ConvergencePoint
{
    int globalBatch = 0;
    double samples = 0; // training samples to reach the quality target (mean of the runs)
    std::string source; // e.g. "mlperf_rcps training_3.1.0 rcps_resnet.json resnet_ref_3264"
};

// How samples reach the GPUs: what the host's cores spend decoding and augmenting one sample,
// and the bytes each sample then crosses host-to-device with (compressed for a GPU decoder such
// as DALI with nvJPEG, decoded and cropped for a CPU loader).
struct Loader
{
    std::string name; // "dali", "cpu"
    double decodeCoreSecondsPerSample = 0;
    double hostToDeviceBytesPerSample = 0;
};

struct Workload
{
    std::string id;                   // "resnet50"
    std::string name;                 // "ResNet-50 v1.5 (ImageNet)"
    std::vector<std::string> aliases; // benchmark names as MLPerf writes them: "resnet"
    std::string source;               // where the figures below come from
    // Another workload whose calibration this one shares: the same model and kernels run on other
    // data (BERT padded to 512 tokens shares MLPerf BERT's factors); empty: its own.
    std::string calibrateAs;
    const std::string &calibrationKey() const { return calibrateAs.empty() ? id : calibrateAs; }
    double parameters = 0; // trainable parameters
    // Dense parameters whose gradients are all-reduced every step; the rest (recommender
    // embedding tables) are sharded over all GPUs, updated sparsely, never all-reduced.
    double allreduceParameters = 0;
    double alltoallBytesPerSample = 0; // model-parallel embedding exchange, each way, per sample
    // Weights that run but never train (a LoRA fine-tune's base model): held by every replica,
    // split only by tensor x pipeline, never reduced or updated. An FP8 run stores them at
    // `frozenBytesPerParam` (FP8 linears, 16-bit embeddings); other runs at the element size.
    double frozenParameters = 0;
    double frozenBytesPerParam = 2;
    // The implementation reduces the gradients only after the whole backward pass (one bucket,
    // or after gradient accumulation), so no backward computation hides the reduction.
    bool allreduceAfterBackward = false;
    // Gradients leave in buckets of this size while the backward pass runs (PyTorch
    // DistributedDataParallel's bucket_cap_mb default, 25 MB); the last one cannot be hidden.
    double gradientBucketBytes = 25e6;
    // A distributed optimizer: the gradients are reduce-scattered (in buckets, overlapped) and
    // the updated parameters all-gathered after the step, where nothing hides them.
    bool parameterGatherAfterStep = false;
    // Bytes one sample's tensor-parallel collectives carry over all layers, forward and
    // backward (a transformer: 4 a layer, two all-reduces or reduce-scatter/all-gather pairs of
    // its s x h activations forward and two of their gradients backward, 4 x layers x s x h x 2 B).
    // A pipeline stage carries its share of the layers; 0: the activation memory stands in.
    double tensorParallelBytesPerSample = 0;
    // The implementation overlaps the tensor-parallel collectives with the GEMMs that produce
    // and consume them (Transformer Engine's userbuffers), which it can only over NVLink.
    bool tensorParallelOverlap = false;
    // The implementation may split one sample's sequence over up to this many GPUs (context
    // parallelism: NVIDIA's Llama 2 70B LoRA runs 2); 1: a sample never spans replicas.
    int contextParallelMax = 1;
    // Measured time a run loses once beyond its steady steps and evaluations (Llama 2 70B LoRA:
    // 8-10 s in its first block of steps), paid once.
    double startSeconds = 0;
    // Measured time one node takes, inside the timed run, to load the data every node shares
    // out (R-GAT's feature store): N nodes load a share each, so a run pays this over N.
    double startLoadSeconds = 0;
    // A store every sample gathers rows from (R-GAT's node features, 560 GB at fp8): sharded
    // over the GPUs' memory where a GPU's share fits beside what it holds, else kept in host
    // memory. featureBytesPerSample is what one sample gathers; 0: no such store.
    double featureStoreBytes = 0;
    double featureBytesPerSample = 0;
    // What a run on `nodes` nodes loses once: startSeconds + startLoadSeconds / nodes.
    double startOn(int nodes) const
    {
        return startSeconds + startLoadSeconds / (nodes > 1 ? nodes : 1);
    }
    double trainFlopsPerSample = 0; // forward + backward FLOPs of one sample
    // Share of its matrix FLOPs done by kernels built on warp-level mma.sync (LSTMs, 3D
    // convolutions), which on a GPU with a faster warpgroup path reach only the GPU's
    // `warpMmaShare` of its GEMM rate.
    double warpMmaFlopShare = 0;
    double activationBytesPerSample
        = 0; // activation memory kept for the backward pass, at the default precision
    // Device-memory traffic of the memory-bound kernels of one training sample (normalisation,
    // activations, element-wise, softmax), forward and backward, with 16-bit activations.
    double memoryBytesPerSample = 0;
    // Share of the matrix FLOPs that an FP8 run does in FP8 (Transformer Engine runs the linear
    // layers in FP8 and keeps attention's batched products in 16 bits); 0 when none.
    double fp8Share = 0;
    // Memory-bound traffic an FP8 run adds per sample: Transformer Engine casts the inputs and
    // output gradients of its FP8 GEMMs to 8 bits and writes transposed copies for the weight
    // gradients, net of what 8-bit tensors save elsewhere; 0 when not counted.
    double fp8CastBytesPerSample = 0;
    // Matrix kernels (GEMMs, convolutions, fused attention) of one forward and backward pass of a
    // GPU's micro-batch: each costs the GPU's fixed kernel time on top of its FLOPs (catalog
    // `achieved.gemmFixedUs`); 0 when not counted (the fitted per-pass overhead stands in).
    int matrixKernelsPerPass = 0;
    // The implementation runs FP8 only at this many samples a GPU or more (0: at any), and only
    // on these GPU architectures (empty: any with FP8 tensor cores); otherwise 16-bit.
    int fp8MinLocalBatch = 0;
    std::vector<std::string> fp8Architectures;
    double inputBytesPerSample = 0;        // bytes read from storage per sample
    double decodeCoreSecondsPerSample = 0; // CPU core-seconds of the default loader per sample
    std::vector<Loader> loaders;           // the first is the default; never empty once read
    double datasetSamples = 0;             // samples in one epoch
    double evalSamples = 0;                // samples in one evaluation pass
    double evalFlopsPerSample = 0;         // forward FLOPs of one evaluation sample
    // Measured evaluation cost (MLPerf result logs, eval_start to eval_stop), when known: one
    // evaluation sample costs `costRatio` times a training sample's math and memory time, and a
    // pass adds `fixedS` (gathering and scoring). Where the host scores the samples (RetinaNet's
    // OpenImages metrics on the CPU), each node also spends `hostS` a sample of its share, and
    // the pass takes the slower of its GPU and host parts. Without it an evaluation sample costs
    // its forward FLOPs' share and the fixed cost is fitted.
    struct MeasuredEval
    {
        double costRatio = 0;
        double fixedS = 0;
        double hostS = 0;
    };
    std::optional<MeasuredEval> measuredEval;
    // False when the benchmark's rules leave evaluation out of the timed run (MLPerf Stable
    // Diffusion scores its checkpoints offline): no evaluation pass then costs any time.
    bool evalTimed = true;
    double evalEverySamples = 0; // training samples between evaluations (0: once at the end)
    double evalStartSamples = 0; // no evaluation before this many training samples
    // "bert": MLPerf BERT's interval, FLOOR(0.05 * (230.23 * batch + 3,000,000), 25,000) samples
    // (evalEverySamples is then the interval at the reference batch). "llama2_70b_lora": every
    // CEIL(evalEverySamples / GBS) steps (384 sequences in the rules), skipping the first
    // FLOOR(0.125 * GBS + 2) evaluations.
    // Empty: evalEverySamples.
    std::string evalRule;
    std::string defaultPrecision;              // "fp16", "bf16", "tf32", "fp32"
    std::string qualityTarget;                 // "75.9% top-1"
    std::vector<ConvergencePoint> convergence; // sorted by globalBatch
    // The MLPerf rounds ("mlperf-4.1") whose rules and reference hyperparameters the table holds
    // for; a prediction for another round says so. Empty: every round.
    std::vector<std::string> convergenceRounds;
};

// "mlperf-4.1" and the like: a software stack or key that names an MLPerf round.
bool isMlperfRound(std::string_view name);

class Library
{
public:
    static const Library &builtin();
    // Throws InputError naming the file and JSON pointer.
    void addFile(std::string_view text, const std::string &fileName);

    const Workload *find(std::string_view idOrAlias) const; // case-insensitive on aliases
    const std::map<std::string, Workload, std::less<>> &all() const { return m_workloads; }

private:
    std::map<std::string, Workload, std::less<>> m_workloads;
};

// Samples needed to converge at a global batch size: linear interpolation of the convergence
// table in batch size; below the smallest batch the smallest point's samples; above the largest,
// the largest point's samples scaled up in proportion to the batch; and never fewer than any
// point at a smaller or equal batch (the tables are means of noisy runs and may dip).
// Returns nullopt if the workload has no table.
std::optional<double> samplesToConverge(const Workload &w, int globalBatch);
// True when a global batch lies within the convergence table (between its smallest and largest
// batch): outside it the samples are an extrapolation.
bool withinConvergenceTable(const Workload &w, int globalBatch);
// Evaluations an MLPerf run makes before it reaches its target after `samples` training samples;
// 0 when evaluation is not timed.
double evaluations(const Workload &w, double samples, int globalBatch);
// The loader of that name, or the default (first) one for an empty name; nullptr if unknown.
const Loader *loader(const Workload &w, std::string_view name = {});

} // namespace clab::workload
