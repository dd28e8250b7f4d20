#include "perf/model_p.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cmath>

// Which plan and which global batch a prediction runs at when the request leaves them open:
// the fastest split that fits (or a replica that recomputes), the convergence table's fastest
// batch (model/perf/MODEL.md, One step of one GPU). The step itself is detail::predictWith.

namespace clab::perf {

namespace detail {

bool batchFillsGpus(const Platform &platform, const workload::Workload &w, int globalBatch)
{
    const int gpus = std::max(1, platform.gpusPerNode * platform.nodes);
    const int split
        = w.contextParallelMax > 1 ? w.contextParallelMax * std::max(1, platform.gpusPerNode) : 1;
    return double(globalBatch) * split >= gpus;
}

} // namespace detail

Prediction predict(const Platform &platform, const workload::Workload &w, int globalBatch,
                   Precision precision, const Calibration &cal, std::string_view software,
                   std::optional<Plan> chosen)
{
    Request r;
    r.globalBatch = std::max(1, globalBatch);
    r.precision = precision;
    r.software = std::string(software);
    r.plan = chosen;
    return predict(platform, w, r, cal);
}

namespace {

// Without a plan given, the plan is the fastest split that fits. The least model parallelism
// that fits (choosePlan) is not always it: more pipeline stages over the same GPUs carry fewer
// layers' tensor-parallel collectives each, fewer tensor-parallel ranks move less, at the cost
// of the pipeline's idle ticks; so every tensor x pipeline split (powers of two, tensor within a
// node) that fits is tried, as a tuned submission searches them. Where the split needs tensor
// or pipeline parallelism, a replica of one GPU might instead recompute some layers'
// activations in the backward pass (full activation checkpointing of a share of the layers, as
// AMD's MLPerf Llama 2 LoRA does on 192 GB MI300Xs); the faster of the two is the plan.
Prediction predictAt(const Platform &platform, const workload::Workload &w, int globalBatch,
                     const Request &request, const Calibration &cal)
{
    Prediction base = detail::predictWith(platform, w, globalBatch, request, cal);
    const int gpus = std::max(1, platform.gpusPerNode * platform.nodes);
    if (request.plan || (base.plan.tensor == 1 && base.plan.pipeline == 1) || !platform.gpu
        || double(globalBatch) < gpus)
        return base;
    for (int pipeline = 1; pipeline <= gpus; pipeline *= 2) {
        for (int tensor = 1; tensor <= platform.gpusPerNode && tensor * pipeline <= gpus;
             tensor *= 2) {
            const Plan plan{tensor, pipeline};
            if ((tensor == base.plan.tensor && pipeline == base.plan.pipeline)
                || !detail::planFits(platform, w, globalBatch, base.precision, plan))
                continue;
            Request r = request;
            r.plan = plan;
            Prediction alt = detail::predictWith(platform, w, globalBatch, r, cal);
            if (alt.fits && (!base.fits || alt.stepS < base.stepS))
                base = std::move(alt);
        }
    }
    Plan alone;
    const double full = detail::memoryNeededGB(w, 1.0, alone, gpus, base.precision);
    alone.recompute = 1;
    const double bare = detail::memoryNeededGB(w, 1.0, alone, gpus, base.precision);
    const double available = platform.gpu->memGB;
    if (bare > available || full <= bare)
        return base;
    // Recomputation stops short of the checkpoints each layer keeps; a plan that must drop
    // nearly all of them is no plan.
    // In whole percent, rounded up (less a rounding error's worth, so that 9 % is not 10 %).
    alone.recompute = std::ceil((full - available) / (full - bare) * 100 - 1e-9) / 100;
    if (alone.recompute > detail::kMaxRecompute)
        return base;
    Request r = request;
    r.plan = alone;
    Prediction alt = detail::predictWith(platform, w, globalBatch, r, cal);
    if (!alt.fits || (base.fits && alt.stepS >= base.stepS))
        return base;
    return alt;
}

} // namespace

Prediction predict(const Platform &platform, const workload::Workload &w, const Request &request,
                   const Calibration &cal)
{
    if (request.globalBatch > 0)
        return predictAt(platform, w, request.globalBatch, request, cal);
    const int gpus = std::max(1, platform.gpusPerNode * platform.nodes);
    // The batch of the convergence table that trains fastest on this system; a batch must give
    // every GPU a sample (or a share of a split sequence).
    std::optional<Prediction> best;
    int tried = 0;
    for (const workload::ConvergencePoint &c : w.convergence) {
        if (!detail::batchFillsGpus(platform, w, c.globalBatch))
            continue;
        ++tried;
        Prediction p = predictAt(platform, w, c.globalBatch, request, cal);
        if (!p.timeToTrainMin)
            continue;
        const bool better = !best || (p.fits && !best->fits)
                            || (p.fits == best->fits && *p.timeToTrainMin < *best->timeToTrainMin);
        if (better)
            best = std::move(p);
    }
    if (!best) {
        best = predictAt(platform, w, defaultGlobalBatch(w, gpus), request, cal);
        best->notes.push_back("global batch " + std::to_string(best->globalBatch)
                              + " chosen by default (32 per GPU, or the table's smallest that "
                                "gives every GPU a sample)");
    } else {
        best->notes.push_back(
            "global batch " + std::to_string(best->globalBatch)
            + (tried == 1 ? " chosen: the only batch of the convergence table large enough"
                          : " chosen: the shortest time to train of the " + std::to_string(tried)
                                + " batches of the convergence table"));
    }
    best->batchChosen = true;
    return *best;
}
} // namespace clab::perf
