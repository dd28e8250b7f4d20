#pragma once

// Pieces of the step model shared by model.cpp (the prediction), memoryplan.cpp (memory per GPU
// and the parallel plan) and featurestore.cpp (a store the samples gather rows from). Private to
// model/perf: not part of the library's interface.

#include "perf/model.h"

#include <string>
#include <vector>

namespace clab::perf::detail {

// Mixed-precision training with Adam/LAMB keeps per parameter: fp16/bf16 weights (2 B), fp32
// master weights (4), gradients (2) and two fp32 moments (8): 16 bytes (Rajbhandari et al.,
// ZeRO, SC20, §3.1). Full fp32 training needs the same 16 (4 + 4 + 8).
constexpr double kStateBytesPerParam = 16;

// The most of its layers a replica recomputes to fit: each recomputed layer still keeps its
// input (for Llama 2 70B, s h 2 B = 134 MB of a layer's ~2 GB), which this leaves for.
constexpr double kMaxRecompute = 0.9;

// One prediction at a given global batch, under the request's plan or the least split that fits
// (model.cpp); choice.cpp picks the plan and batch around it.
Prediction predictWith(const Platform &platform, const workload::Workload &w, int globalBatch,
                       const Request &request, const Calibration &cal);

// GB a GPU needs for a micro-batch under a plan: weights and optimizer state, activations and
// the framework's reserve. The optimizer's own state (fp32 master weights and moments) is
// sharded over the data-parallel replicas, as the distributed optimizers of MLPerf submissions
// keep it; the working weights and gradients are on every replica.
double memoryNeededGB(const workload::Workload &w, double microBatch, const Plan &plan, int gpus,
                      Precision p);

// The plan can run a global batch: every replica gets a sample (or its share of a split
// sequence), and one micro-batch fits in memory.
bool planFits(const Platform &platform, const workload::Workload &w, int globalBatch,
              Precision precision, const Plan &plan);

// Where a workload's feature store goes (it has featureBytesPerSample): true when a GPU's share
// fits beside out.requiredGB, which then grows by it; false for host memory. Says which in
// out.notes.
bool placeFeatureStore(const workload::Workload &w, const Platform &platform, int gpus,
                       Prediction &out);

// Seconds a GPU takes to fetch the other GPUs' rows of a store spread over the GPUs, for its
// local batch: over the ring (intraGBps a GPU) and the network at once.
double featureFetchS(const workload::Workload &w, const Platform &platform, int gpus,
                     double localBatch, double intraGBps, std::vector<std::string> &notes);

// A batch can keep every GPU busy: a sample on each, or where the implementation splits a
// sequence (context parallelism), a share of one inside the largest tensor x context group.
bool batchFillsGpus(const Platform &platform, const workload::Workload &w, int globalBatch);

} // namespace clab::perf::detail
