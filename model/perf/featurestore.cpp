#include "perf/model_p.h"

#include "cluster/topology.h"

#include <algorithm>
#include <cstdio>

// A store every sample gathers rows from (R-GAT's node features; model/perf/MODEL.md, Input
// pipeline): where it lives and what fetching from the other GPUs costs.

namespace clab::perf::detail {

// Sharded over the GPUs' memory where a GPU's share fits beside what it holds (the gathers then
// cross NVLink and the network), else in host memory (they cross the host-to-GPU links, as
// NVIDIA's 8 x H100-80GB configs keep R-GAT's 560 GB).
bool placeFeatureStore(const workload::Workload &w, const Platform &platform, int gpus,
                       Prediction &out)
{
    const double shareGB = w.featureStoreBytes / std::max(1, gpus) / 1e9;
    const bool onGpus = out.requiredGB + shareGB <= out.availableGB;
    char where[200];
    std::snprintf(where, sizeof where,
                  onGpus ? "the %.0f GB feature store is spread over the GPUs' memory (%.1f GB a "
                           "GPU)"
                         : "the %.0f GB feature store stays in host memory (%.1f GB a GPU does "
                           "not fit beside the rest)",
                  w.featureStoreBytes / 1e9, shareGB);
    out.notes.push_back(where);
    if (onGpus)
        out.requiredGB += shareGB;
    else if (platform.hostMemGB > 0 && w.featureStoreBytes / 1e9 > platform.hostMemGB)
        out.notes.push_back("the feature store does not fit in the host's "
                            + std::to_string(int(platform.hostMemGB))
                            + " GB of memory either: a real run needs more host memory or more "
                              "GPUs");
    return onGpus;
}

// The rows come while the previous step computes: over NVLink from the node's GPUs, over the
// network from the other nodes. The two paths carry their shares at once: the slower sets the
// time.
double featureFetchS(const workload::Workload &w, const Platform &platform, int gpus,
                     double localBatch, double intraGBps, std::vector<std::string> &notes)
{
    if (gpus <= 1)
        return 0;
    const double gathered = localBatch * w.featureBytesPerSample;
    const double local = double(platform.gpusPerNode - 1) / gpus;
    const double remote = double(gpus - platform.gpusPerNode) / gpus;
    double seconds = 0;
    if (platform.gpusPerNode > 1)
        seconds = gathered * local / (intraGBps * 1e9);
    // A GPU's share of the network: an equal share of the node's NICs, and no more than its own
    // endpoint in a cluster topology.
    const double nicShare = platform.networkGBps / platform.gpusPerNode;
    const double perGpuGBps = !platform.cluster ? nicShare
                              : nicShare > 0 ? std::min(nicShare, platform.cluster->injectionGBps())
                                             : platform.cluster->injectionGBps();
    if (remote > 0 && perGpuGBps > 0)
        seconds = std::max(seconds, gathered * remote / (perGpuGBps * 1e9));
    else if (remote > 0)
        notes.push_back("no network bandwidth between the nodes is known: the feature gathers "
                        "from other nodes are not counted");
    return seconds;
}

} // namespace clab::perf::detail
