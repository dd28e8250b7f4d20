#pragma once

#include "cluster/topology.h"

#include <memory>
#include <string>

namespace clab::cluster {

// The network of a cluster of `nodes` nodes with `gpusPerNode` GPUs each, one endpoint per GPU,
// from a short description: "fattree", "fattree:taper=2,radix=64", "rail:radix=64". Fat trees
// and rail-optimised trees are what GPU clusters are built as; the other families take shapes of
// their own (see `composelab topo`). Throws InputError naming the spec and what was expected.
std::shared_ptr<const Topology> clusterNetwork(const std::string &spec, int nodes, int gpusPerNode);

} // namespace clab::cluster
