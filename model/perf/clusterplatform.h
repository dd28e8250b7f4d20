#pragma once

#include "perf/platform.h"

#include <cstddef>
#include <optional>

namespace clab::perf {

// A design's cluster (design::Cluster) as the model predicts it: the platform of its composed
// system (platformOf) as one of `nodes` nodes, traffic between the nodes taking the all-reduce
// time of the cluster's topology, one endpoint per GPU: what `predict --nodes N --cluster SPEC`
// does for a system given on the command line.
struct ClusterPlatform
{
    std::size_t systemIndex = 0; // into the analysis' systems
    Platform platform;           // nodes and cluster set
};

// nullopt when the design has no cluster. Throws InputError (file "cluster", place "system" or
// "topology") when the system is not one of the analysis' systems, has no GPU, or the topology
// cannot be built for its GPUs; the design rules report the same as findings.
std::optional<ClusterPlatform> clusterPlatformOf(const design::DesignIndex &index,
                                                 const fabric::Analysis &analysis,
                                                 const catalog::Catalog &catalog);

} // namespace clab::perf
