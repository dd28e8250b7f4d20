#pragma once

#include "perf/calibration.h"
#include "perf/energy.h"
#include "perf/platform.h"
#include "perf/precision.h"
#include "workload/workload.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::perf {

struct Plan
{
    int tensor = 1;   // tensor-parallel GPUs (inside a node)
    int pipeline = 1; // pipeline stages
    // data parallelism is what is left: GPUs / (tensor * pipeline)
    // Share of the layers whose activations are dropped and computed again in the backward pass
    // (full activation checkpointing of that share), 0 to 1.
    double recompute = 0;
    bool operator==(const Plan &) const = default;
};

// What to predict: the benchmark and how it is run. Everything left empty takes a documented
// default, and the prediction says which one it took.
struct Request
{
    int globalBatch = 0; // 0: the batch of the convergence table that trains fastest here
    std::optional<Precision> precision; // the benchmark's default precision
    std::string software;               // a stack of the calibration; "" its default
    std::string loader;                 // a loader of the workload; "" its default
    std::optional<Plan> plan;           // the fastest split that fits in memory
    bool operator==(const Request &) const = default;
};

// Where a step's time goes, and what it adds up to. All times in seconds unless the name says.
struct Prediction
{
    int globalBatch = 0;
    bool batchChosen = false; // the model chose the global batch (Request::globalBatch was 0)
    Precision precision = Precision::Fp16;
    std::string software; // the stack whose factors were used
    std::string loader;
    double localBatch = 0; // samples per data-parallel replica per step
    double microBatch = 0; // samples per forward/backward pass (gradient accumulation)
    Plan plan;
    int dataParallel = 1;
    // Compute of one step of one GPU, summed (model/perf/MODEL.md):
    double mathS = 0;          // matrix FLOPs at the benchmark's share of the measured GEMM rate
    double memoryS = 0;        // memory-bound bytes at HBM's rate, or the SMs' where lower
    double optimizerS = 0;     // the optimizer reading and writing its state
    double overheadS = 0;      // launch and framework time per forward/backward pass
    double kernelFixedS = 0;   // of overheadS: the matrix kernels' fixed time (size-independent)
    double computeS = 0;       // the four above, times the software factor
    double gemmEfficiency = 0; // share of the measured GEMM rate the math reaches
    double utilization = 0;    // model FLOPs / (step time x dense peak of the precision)
    double communicationS = 0; // all-reduce (before overlap) + tensor + all-to-all + node sync
    double allreduceS = 0;     // gradient all-reduce alone, sharing links with the step's input
    double alltoallS = 0;      // embedding all-to-all (part of communicationS)
    double syncS = 0;          // waiting for the slowest node at the step's collectives
    double exposedCommS = 0;   // what the backward pass does not hide
    double inputS = 0;         // slowest input stage (read, decode, copy)
    double stallS = 0;         // input time not hidden behind compute
    // While the drives are read the first time (a dataset the page cache keeps afterwards):
    // the step's input time and how many steps that lasts; 0 when every epoch reads the drives.
    double coldInputS = 0;
    double coldSteps = 0;
    double stepS = 0;
    double throughput = 0;         // samples/s, whole system
    std::optional<double> samples; // to converge; nullopt without a convergence table
    double steps = 0;
    double evaluations = 0;
    double evaluationPassS = 0; // one evaluation
    double evaluationS = 0;     // whole run
    std::optional<double> timeToTrainMin;
    struct
    {
        double compute = 0, communication = 0, input = 0, evaluation = 0;
    } breakdownMin; // sums to timeToTrainMin
    // 80 % interval (held-out P10-P90) of the time to train and of the throughput.
    std::array<double, 2> intervalMin{};
    std::array<double, 2> intervalThroughput{};
    // Why the interval is wider than the calibration's own: what the model has not seen.
    std::vector<std::string> extrapolation;
    std::string bindingLink; // the link that limits the gradient ring or the input, if shared
    double requiredGB = 0;
    double availableGB = 0;
    bool fits = true;
    // Power, energy and cost of the run; set by predictSystem and studies (perf/energy.h),
    // empty for a platform without a bill of parts.
    std::optional<EnergyCost> energy;
    std::vector<std::string> notes;
};

// Data-parallel by default; `plan` splits each replica over tensor and pipeline parallel GPUs.
Prediction predict(const Platform &platform, const workload::Workload &w, const Request &request,
                   const Calibration &calibration);
// The same with the batch, precision and software given (what calibration and validation use).
Prediction predict(const Platform &platform, const workload::Workload &w, int globalBatch,
                   Precision precision, const Calibration &calibration,
                   std::string_view software = {}, std::optional<Plan> plan = std::nullopt);

// A global batch for a quick look: the smallest batch of the convergence table that gives every
// GPU at least one sample, or 32 per GPU without a table. predict() with no batch does better: it
// tries every batch of the table.
int defaultGlobalBatch(const workload::Workload &w, int gpus);

// The smallest tensor x pipeline split that fits the model in memory at `precision` (tensor
// inside a node).
Plan choosePlan(const Platform &platform, const workload::Workload &w, int globalBatch,
                Precision precision);

} // namespace clab::perf
