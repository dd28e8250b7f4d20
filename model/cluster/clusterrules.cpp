#include "cluster/clusterrules.h"

#include "catalog/catalog.h"
#include "cluster/clusterspec.h"
#include "util/inputerror.h"

#include <set>

namespace clab::cluster {

using design::Finding;
using design::quoted;
using design::Severity;

std::vector<Finding> checkCluster(const design::Design &d, const catalog::Catalog &catalog)
{
    std::vector<Finding> out;
    if (!d.cluster)
        return out;
    const design::Cluster &c = *d.cluster;
    const design::System *s = d.system(c.system);
    if (!s) {
        out.push_back(
            {Severity::Error,
             "the cluster joins system " + quoted(c.system) + ", which is not in the design",
             {}});
        return out;
    }
    const design::DesignIndex index(d);
    std::vector<std::string> hostItem; // the finding's item on the canvas, when there is one
    if (index.host(s->host))
        hostItem.push_back(s->host);
    if (c.nodes < 1 || c.nodes > design::kMaxClusterNodes) {
        out.push_back({Severity::Error,
                       "the cluster has " + std::to_string(c.nodes) + " nodes; expected 1 to "
                           + std::to_string(design::kMaxClusterNodes),
                       hostItem});
        return out;
    }
    std::set<std::string> gpus;
    for (const auto &id : s->devices) {
        const design::Device *dev = index.device(id);
        if (dev && catalog.gpu(dev->model))
            gpus.insert(id);
    }
    if (gpus.empty()) {
        out.push_back({Severity::Error,
                       "the cluster joins system " + quoted(c.system) + ", which has no GPU",
                       hostItem});
        return out;
    }
    try {
        checkClusterNetwork(c.topology, c.nodes, int(gpus.size()));
    } catch (const InputError &e) {
        out.push_back({Severity::Error,
                       "the cluster's topology " + quoted(c.topology) + " does not fit "
                           + std::to_string(c.nodes) + " nodes of " + std::to_string(gpus.size())
                           + " GPUs: " + e.place() + ": " + e.message(),
                       hostItem});
    }
    return out;
}

} // namespace clab::cluster
