#pragma once

#include "llm/shape.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clab::catalog {
class Catalog;
}
namespace clab::perf {
struct Platform;
}

namespace clab::llm {

// How one training step of a Shape is spread over the GPUs (Megatron-LM's terms): data parallel
// replicas d = GPUs / (tensor x pipeline), each training globalBatch / d sequences a step in
// micro-batches of `micro`.
struct Plan
{
    long long tensor = 1;
    long long pipeline = 1;
    long long interleave = 1; // model chunks per pipeline stage (interleaved 1F1B)
    long long micro = 1;
    Recompute recompute = Recompute::None;
    bool sequenceParallel = false;
    int zero = 0; // ZeRO stage: 1 shards optimizer state, 2 also gradients, 3 also weights
    Attention attention = Attention::Unfused;
    long long globalBatch = 0;
};

// A step time or one of its parts with three figures whatever the model's size: "7.555 s",
// "12.3 ms", "41 us" (`micro` names the unit), "0".
std::string readableSeconds(double seconds, std::string_view micro = "us");

std::string describe(const Plan &p); // "T8 P16 V1 M1 full SP ZeRO-1 FA"

// The GPUs a plan runs on, reduced to what the model needs, each figure with its origin.
struct Hardware
{
    std::string gpu;
    long long gpus = 0;
    long long gpusPerNode = 8;
    double gemmFlops = 0;         // measured large-GEMM rate, 16-bit (perf/gpurates.h)
    double peakFlops = 0;         // dense datasheet peak, for MFU and HFU
    double efficiency = 0;        // share of gemmFlops a transformer layer reaches (LLM.md)
    std::string efficiencyOrigin; // where `efficiency` comes from, for the output
    double memBytesPerS = 0;      // measured HBM bandwidth (optimizer step)
    double streamBytesPerS = 0;   // element-wise kernels: HBM, or the SMs where they bind
    double memoryBytes = 0;       // HBM capacity
    double intraBytesPerS = 0;    // one GPU's bandwidth to its node's others: NVLink, else PCIe
    double intraLatencyS = 0;
    // A node whose GPUs are joined pair by pair (an AMD Instinct board's xGMI mesh): one link's
    // rate, so that a group of k of them moves at k - 1 links (0: a switch, any group at the full
    // rate).
    double intraLinkBytesPerS = 0;
    double netBytesPerS = 0; // one GPU's share of the inter-node network, achieved
    double netLatencyS = 0;
    std::vector<std::string> notes; // assumptions made, for the report
};

// Throws std::invalid_argument naming the GPU when the catalog does not know it.
Hardware hardwareOf(const catalog::Catalog &catalog, std::string_view gpu, long long gpus,
                    long long gpusPerNode, double networkGbpsPerGpu);
// The GPUs of a composed system as the fabric analysis found them (perf::platformOf, which must
// have a GPU): `nodes` copies of the system, each GPU's ring bandwidth inside it and its share of
// the network between them.
Hardware hardwareOf(const perf::Platform &platform, long long nodes);

// A plan that breaks one of Megatron-LM's rules; rule() is the rule in words.
class PlanError : public std::invalid_argument
{
public:
    explicit PlanError(const std::string &rule)
        : std::invalid_argument(rule)
    {
    }
};

// Throws PlanError for the first rule the plan breaks (LLM.md lists them).
void checkPlan(const Shape &s, const Hardware &hw, const Plan &p);

struct Memory // bytes per GPU, the most loaded pipeline stage
{
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double buffers = 0;
    double capacity = 0;
    double total() const { return weights + gradients + optimizer + activations + buffers; }
    bool fits() const { return total() <= capacity; }
};

struct StepTime // seconds of one step (global batch), and what it reaches
{
    long long microBatches = 0; // per replica, m
    double compute = 0;         // matrix FLOPs of all m micro-batches on the slowest stage
    double elementwise = 0;     // their element-wise kernels' traffic (HBM, or the SMs' rate)
    double tensorComm = 0;      // tensor-parallel collectives on the critical path
    double pipelineComm = 0;    // stage-to-stage sends
    double bubble = 0;          // pipeline fill and drain: (P-1)/(V m) of the above
    double dataParallel = 0;    // gradient all-reduce left exposed after backward
    double optimizer = 0;       // the Adam step over this GPU's shard
    double total = 0;
    double mfu = 0;          // model FLOPs / (time x GPUs x peak)
    double hfu = 0;          // with recomputation
    double tflopsPerGpu = 0; // hardware FLOPs per second per GPU, Narayanan et al.'s figure
};

// The plan must pass checkPlan.
Memory memoryPerGpu(const Shape &s, const Hardware &hw, const Plan &p);
StepTime stepTime(const Shape &s, const Hardware &hw, const Plan &p);

struct Evaluated
{
    Plan plan;
    Memory memory;
    StepTime time;
};

struct Search
{
    std::vector<Evaluated> plans; // fitting, fastest first
    long long valid = 0;          // plans meeting every rule
    long long tooLarge = 0;       // of those, not fitting in memory
};

// Every valid plan (tensor within a node and a power of two, ZeRO 0-3, the three recomputations,
// sequence parallelism with tensor > 1, micro-batches up to 16), those that fit, ranked.
Search searchPlans(const Shape &s, const Hardware &hw, long long globalBatch,
                   Attention attention = Attention::Unfused);

} // namespace clab::llm
