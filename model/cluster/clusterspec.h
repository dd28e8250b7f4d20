#pragma once

#include "cluster/topology.h"
#include "cluster/topologyspec.h"

#include <memory>
#include <string>

namespace clab::cluster {

// Nodes × GPUs per node at most: more than any fat tree of radix 64 joins (65,536 endpoints in
// three levels) and far from int overflow.
inline constexpr long long kMaxClusterEndpoints = 1'000'000;

// The network of a cluster of `nodes` nodes with `gpusPerNode` GPUs each, one endpoint per GPU,
// from a short description: "fattree", "fattree:taper=2,radix=64", "rail:radix=64". Fat trees
// and rail-optimised trees are what GPU clusters are built as; the other families take shapes of
// their own (see `composelab topo`). Throws InputError naming the spec and what was expected.

std::shared_ptr<const Topology> clusterNetwork(const std::string &spec, int nodes, int gpusPerNode);

// The spec as a topology of nodes × gpusPerNode accelerators (what the Cluster view shows).
TopologySpec clusterTopologySpec(const std::string &spec, int nodes, int gpusPerNode);

// The same checks without building the network (microseconds instead of milliseconds for a
// large cluster): what the design rules run after every edit.
void checkClusterNetwork(const std::string &spec, int nodes, int gpusPerNode);

} // namespace clab::cluster
