#include "perf/clusterplatform.h"

#include "cluster/clusterspec.h"
#include "util/inputerror.h"

namespace clab::perf {

std::optional<ClusterPlatform> clusterPlatformOf(const design::DesignIndex &index,
                                                 const fabric::Analysis &analysis,
                                                 const catalog::Catalog &catalog)
{
    const auto &c = index.design().cluster;
    if (!c)
        return std::nullopt;
    std::size_t i = 0;
    while (i < analysis.systems.size() && analysis.systems[i].name != c->system)
        ++i;
    if (i == analysis.systems.size())
        throw InputError("cluster", "system",
                         "\"" + c->system + "\" is not a composed system of the design");
    ClusterPlatform out{i, platformOf(index, analysis, i, catalog)};
    Platform &p = out.platform;
    if (!p.gpu)
        throw InputError("cluster", "system", "\"" + c->system + "\" has no GPU");
    p.nodes = c->nodes;
    try {
        p.cluster = cluster::clusterNetwork(c->topology, c->nodes, p.gpusPerNode);
    } catch (const InputError &e) {
        throw InputError("cluster", "topology",
                         "\"" + c->topology + "\": " + e.place() + ": " + e.message());
    }
    return out;
}

} // namespace clab::perf
