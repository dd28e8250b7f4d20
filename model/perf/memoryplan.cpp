#include "perf/model_p.h"

#include "catalog/catalog.h"
#include "perf/precision.h"

#include <algorithm>
#include <cmath>

// Memory per GPU and the parallel plan that fits it (model/perf/MODEL.md, Memory).

namespace clab::perf {

namespace detail {

namespace {

// Sharded embedding tables are plain fp32 rows updated in place by sparse SGD/Adagrad.
constexpr double kShardedBytesPerParam = 4;
// The framework, CUDA context and workspace take about this much of each GPU.
constexpr double kReservedGB = 2.0;

} // namespace

double memoryNeededGB(const workload::Workload &w, double microBatch, const Plan &plan, int gpus,
                      Precision p)
{
    const double shards = double(plan.tensor) * plan.pipeline;
    const double dense = w.allreduceParameters;
    const double sharded = w.parameters - dense;
    // Frozen weights: each replica holds its tensor x pipeline share, FP8 runs at the
    // workload's stored size.
    const double frozenBytes = p == Precision::Fp8 ? w.frozenBytesPerParam : elementBytes(p);
    // 16-bit weights and gradients (4 B; FP32 runs 8) on every replica, the rest of the 16 B
    // (master weights and moments) a 1/data-parallel share each.
    const double working = p == Precision::Fp32 || p == Precision::Tf32 ? 8 : 4;
    const double replicas = std::max(1.0, std::floor(gpus / shards));
    const double state = dense / shards * (working + (kStateBytesPerParam - working) / replicas)
                         + sharded / std::max(1, gpus) * kShardedBytesPerParam
                         + w.frozenParameters / shards * frozenBytes;
    // Without pipelining a replica keeps the activations of its micro-batch; with it (1F1B,
    // one-sample micro-batches) a stage keeps at most `pipeline` micro-batches of its
    // 1/pipeline of the layers. Activations are given for 16-bit; fp32 doubles them.
    const double inFlight = plan.pipeline > 1
                                ? std::min(microBatch, double(plan.pipeline)) / plan.pipeline
                                : microBatch;
    const double activations = inFlight * w.activationBytesPerSample * elementBytes(p) / 2
                               / plan.tensor * (1 - plan.recompute);
    return (state + activations) / 1e9 + kReservedGB;
}

bool planFits(const Platform &platform, const workload::Workload &w, int globalBatch,
              Precision precision, const Plan &plan)
{
    const int gpus = platform.gpusPerNode * platform.nodes;
    const double available = platform.gpu ? platform.gpu->memGB : 0;
    const int data = gpus / (plan.tensor * plan.pipeline);
    const double local = double(globalBatch) / std::max(1, data);
    // A sequence is split over at most contextParallelMax replicas.
    if (local * w.contextParallelMax < 1 && w.contextParallelMax > 1)
        return false;
    // Gradient accumulation lets a replica run its batch in micro-batches: the split is needed
    // only when even one sample does not fit; below one sample a replica holds its share of a
    // split sequence.
    const double micro = w.contextParallelMax > 1 ? std::min(local, 1.0) : 1.0;
    return memoryNeededGB(w, micro, plan, gpus, precision) <= available;
}

} // namespace detail

int defaultGlobalBatch(const workload::Workload &w, int gpus)
{
    for (const auto &c : w.convergence) {
        if (c.globalBatch >= gpus)
            return c.globalBatch;
    }
    return 32 * std::max(1, gpus);
}

Plan choosePlan(const Platform &platform, const workload::Workload &w, int globalBatch,
                Precision precision)
{
    const int gpus = platform.gpusPerNode * platform.nodes;
    for (int pipeline = 1; pipeline <= gpus; pipeline *= 2) {
        for (int tensor = 1; tensor <= platform.gpusPerNode && tensor * pipeline <= gpus;
             tensor *= 2) {
            if (detail::planFits(platform, w, globalBatch, precision, {tensor, pipeline}))
                return {tensor, pipeline};
        }
    }
    // Nothing fits: the split that needs the least memory, so the report shows how far off it is.
    const int tensor = std::max(1, platform.gpusPerNode);
    return Plan{tensor, std::max(1, gpus / tensor)};
}

} // namespace clab::perf
