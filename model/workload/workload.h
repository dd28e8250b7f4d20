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

struct Workload
{
    std::string id;                   // "resnet50"
    std::string name;                 // "ResNet-50 v1.5 (ImageNet)"
    std::vector<std::string> aliases; // benchmark names as MLPerf writes them: "resnet"
    std::string source;               // where the figures below come from
    double parameters = 0;            // trainable parameters
    // Dense parameters whose gradients are all-reduced every step; the rest (recommender
    // embedding tables) are sharded over all GPUs, updated sparsely, never all-reduced.
    double allreduceParameters = 0;
    double alltoallBytesPerSample = 0; // model-parallel embedding exchange, each way, per sample
    double trainFlopsPerSample = 0;    // forward + backward FLOPs of one sample
    double activationBytesPerSample
        = 0; // activation memory kept for the backward pass, at the default precision
    double inputBytesPerSample = 0;        // bytes read from storage per sample
    double decodeCoreSecondsPerSample = 0; // CPU core-seconds to decode/augment one sample
    double datasetSamples = 0;             // samples in one epoch
    double evalSamples = 0;                // samples in one evaluation pass
    double evalFlopsPerSample = 0;         // forward FLOPs of one evaluation sample
    double evalEverySamples = 0;  // training samples between evaluations (0: once at the end)
    std::string defaultPrecision; // "fp16", "bf16", "tf32", "fp32"
    std::string qualityTarget;    // "75.9% top-1"
    std::vector<ConvergencePoint> convergence; // sorted by globalBatch
};

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

} // namespace clab::workload
