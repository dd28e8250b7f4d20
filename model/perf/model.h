#pragma once

#include "perf/calibration.h"
#include "perf/platform.h"
#include "workload/workload.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::perf {

enum class Precision { Fp32, Tf32, Fp16, Bf16, Fp8 };
std::optional<Precision> parsePrecision(std::string_view text); // "fp16", "AMP", "TF32", ...
const char *precisionName(Precision p);
// Dense peak of the GPU at a precision, in TFLOPS; a precision the GPU lacks falls back to the
// nearest one it has (FP8 -> FP16, BF16 -> FP16, TF32 -> FP32), which `note` then says.
double peakTflops(const catalog::Gpu &gpu, Precision p, std::string *note = nullptr);

struct Plan
{
    int tensor = 1;   // tensor-parallel GPUs (inside a node)
    int pipeline = 1; // pipeline stages
    // data parallelism is what is left: GPUs / (tensor * pipeline)
};

// Where a step's time goes, and what it adds up to. All times in seconds unless the name says.
struct Prediction
{
    int globalBatch = 0;
    double localBatch = 0; // samples per data-parallel replica per step
    double microBatch = 0; // samples per forward/backward pass (gradient accumulation)
    Plan plan;
    int dataParallel = 1;
    double efficiency = 0;     // fraction of peak the math reaches, from the calibration
    double computeS = 0;       // per step: math or memory (roofline) + optimizer + overhead
    double communicationS = 0; // per step: gradient all-reduce (before overlap) + all-to-all
    double alltoallS = 0;      // per step: embedding all-to-all (part of communicationS)
    double exposedCommS = 0;   // per step: what the backward pass does not hide
    double inputS = 0;         // per step: slowest input stage (read, decode, copy)
    double stallS = 0;         // per step: input time not hidden behind compute
    double stepS = 0;
    double throughput = 0;         // samples/s, whole system
    std::optional<double> samples; // to converge; nullopt without a convergence table
    double steps = 0;
    double evaluationS = 0; // whole run
    std::optional<double> timeToTrainMin;
    struct
    {
        double compute = 0, communication = 0, input = 0, evaluation = 0;
    } breakdownMin; // sums to timeToTrainMin
    double requiredGB = 0;
    double availableGB = 0;
    bool fits = true;
    std::vector<std::string> notes;
};

// Data-parallel by default; `plan` splits each replica over tensor and pipeline parallel GPUs.
// `round` names the software year (MLPerf round "4.0", or "" for the newest calibrated).
Prediction predict(const Platform &platform, const workload::Workload &w, int globalBatch,
                   Precision precision, const Calibration &calibration, std::string_view round = {},
                   std::optional<Plan> plan = std::nullopt);

// A global batch when the user gives none: the smallest batch of the convergence table that
// gives every GPU at least one sample, or 32 per GPU without a table.
int defaultGlobalBatch(const workload::Workload &w, int gpus);

// The smallest tensor x pipeline split that fits the model in memory (tensor inside a node).
Plan choosePlan(const Platform &platform, const workload::Workload &w, int globalBatch);

} // namespace clab::perf
