#include "perf/service.h"

#include "cluster/topology.h"
#include "perf/clusterplatform.h"

namespace clab::perf {

namespace {

Prediction finish(Prediction p, const Platform &platform, const workload::Workload &w)
{
    p.notes.insert(p.notes.end(), platform.notes.begin(), platform.notes.end());
    if (!platform.bill.empty())
        p.energy = energyCostOf(platform, p, w, partPrices());
    return p;
}

} // namespace

Prediction predictSystem(const design::DesignIndex &index, const fabric::Analysis &analysis,
                         std::size_t system, const workload::Workload &w, const Request &request,
                         const Calibration &calibration, const catalog::Catalog &catalog,
                         const ScaleOut &scale)
{
    return predictSystem(index, analysis, system, {&w}, request, calibration, catalog, scale)
        .front();
}

std::vector<Prediction> predictSystem(const design::DesignIndex &index,
                                      const fabric::Analysis &analysis, std::size_t system,
                                      const std::vector<const workload::Workload *> &workloads,
                                      const Request &request, const Calibration &calibration,
                                      const catalog::Catalog &catalog, const ScaleOut &scale)
{
    Platform platform = platformOf(index, analysis, system, catalog);
    platform.nodes = std::max(1, scale.nodes);
    if (scale.network)
        platform.cluster = scale.network;
    std::vector<Prediction> out;
    out.reserve(workloads.size());
    for (const workload::Workload *w : workloads)
        out.push_back(finish(predict(platform, *w, request, calibration), platform, *w));
    return out;
}

std::optional<ClusterPrediction>
predictDesignCluster(const design::DesignIndex &index, const fabric::Analysis &analysis,
                     const workload::Workload &w, const Request &request,
                     const Calibration &calibration, const catalog::Catalog &catalog)
{
    const std::optional<ClusterPlatform> cp = clusterPlatformOf(index, analysis, catalog);
    if (!cp)
        return std::nullopt;
    const Platform &p = cp->platform;
    ClusterPrediction out;
    out.system = cp->systemIndex;
    out.gpus = p.gpusPerNode * p.nodes;
    out.network = p.cluster ? p.cluster->description : std::string();
    // A batch given for one node would starve a large cluster: the default for all its GPUs.
    Request r = request;
    r.globalBatch = defaultGlobalBatch(w, out.gpus);
    out.prediction = finish(predict(p, w, r, calibration), p, w);
    out.prediction.notes.push_back("global batch: the default for " + std::to_string(out.gpus)
                                   + " GPUs");
    return out;
}

} // namespace clab::perf
