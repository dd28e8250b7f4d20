#include "perf/service.h"

#include "cluster/topology.h"
#include "perf/clusterplatform.h"
#include "perf/model_p.h"

namespace clab::perf {

namespace {

Prediction finish(Prediction p, const Platform &platform, const workload::Workload &w)
{
    p.notes.insert(p.notes.end(), platform.notes.begin(), platform.notes.end());
    if (!platform.bill.empty())
        p.energy = energyCostOf(platform, p, w, partPrices());
    return p;
}

// A hash of what tells platforms apart most often: the GPU, its count, the bandwidths, the links
// the step's transfers share, the workload; equal keys are then compared in full.
std::size_t keyHash(const Platform &p, const workload::Workload *w, const Request &r)
{
    std::size_t h = std::hash<const void *>{}(p.gpu);
    auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    mix(std::hash<const void *>{}(w));
    mix(std::hash<int>{}(p.gpusPerNode));
    mix(std::hash<int>{}(p.nodes));
    mix(std::hash<double>{}(p.ringGBps));
    mix(std::hash<double>{}(p.meshPairGBps));
    mix(std::hash<double>{}(p.h2dGBps));
    mix(std::hash<double>{}(p.networkGBps));
    mix(std::hash<std::string>{}(p.linkKey));
    for (const fabric::SharedResource &link : p.flows.resources) // names the system's own links
        mix(std::hash<std::string>{}(link.label));
    mix(std::hash<int>{}(r.globalBatch));
    return h;
}

} // namespace

const Prediction &PredictionMemo::predict(const Platform &platform, const workload::Workload &w,
                                          const Request &request, const Calibration &calibration)
{
    const std::size_t hash = keyHash(platform, &w, request);
    const auto [first, last] = m_entries.equal_range(hash);
    for (auto it = first; it != last; ++it) {
        const Entry &e = it->second;
        if (e.workload == &w && e.calibration == &calibration && e.request == request
            && e.platform == platform) {
            ++m_hits;
            return e.prediction;
        }
    }
    if (m_entries.size() >= kLimit)
        m_entries.clear();
    Entry e{platform, &w, request, &calibration, perf::predict(platform, w, request, calibration)};
    return m_entries.emplace(hash, std::move(e))->second.prediction;
}

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
                                      const catalog::Catalog &catalog, const ScaleOut &scale,
                                      PredictionMemo *memo)
{
    Platform platform = platformOf(index, analysis, system, catalog);
    platform.nodes = std::max(1, scale.nodes);
    if (scale.network)
        platform.cluster = scale.network;
    std::vector<Prediction> out;
    out.reserve(workloads.size());
    for (const workload::Workload *w : workloads)
        out.push_back(finish(memo ? memo->predict(platform, *w, request, calibration)
                                  : predict(platform, *w, request, calibration),
                             platform, *w));
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
    // The user's global batch is the whole job's when it keeps every GPU of the cluster busy
    // (a sample each, or a share of a split sequence); one too small for so many GPUs (a node's
    // batch on a large cluster) would leave GPUs idle, so the model chooses the cluster's batch
    // (the convergence table's fastest here) and says why.
    Request r = request;
    const bool given = request.globalBatch > 0;
    if (!given || !detail::batchFillsGpus(p, w, request.globalBatch))
        r.globalBatch = 0;
    out.prediction = finish(predict(p, w, r, calibration), p, w);
    if (given && r.globalBatch == 0)
        out.prediction.notes.push_back(
            "the given global batch " + std::to_string(request.globalBatch)
            + " cannot keep the cluster's " + std::to_string(out.gpus) + " GPUs busy");
    return out;
}

} // namespace clab::perf
