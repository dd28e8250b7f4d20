#pragma once

#include "cluster/topology.h"

#include <string>

namespace clab::cluster {

// A topology chosen by kind and parameters, as `composelab topo` and the Cluster view take them;
// each kind reads only its own fields.
struct TopologySpec
{
    std::string kind = "hammingmesh"; // one of kTopologyKinds
    // fattree, rail, hammingmesh
    int radix = 64;
    // fattree
    int endpoints = 1024;
    int taper = 1;
    int levels = 0;
    // rail
    int servers = 128;
    int perServer = 8;
    // torus, hyperx: "32x32", "8x8x8"
    std::string dims = "32x32";
    // dragonfly
    int p = 4, a = 8, h = 4, groups = 0;
    // hammingmesh: board of AxB accelerators, grid of XxY boards
    std::string board = "2x2";
    std::string grid = "16x16";
};

inline constexpr const char *kTopologyKinds
    = "fattree, rail, dragonfly, torus, hyperx, hammingmesh";
bool isTopologyKind(const std::string &kind);

// Accelerators the spec would have, without building it (to refuse or defer big ones first).
// Throws InputError for sizes that do not parse; an unknown kind counts 0.
long long acceleratorCount(const TopologySpec &spec);

// Builds it; InputError (file: the kind, place: the parameter) for a shape that cannot be built
// or an unknown kind.
Topology buildTopology(const TopologySpec &spec);

// Board or grid "AxB" of a HammingMesh as two sizes; InputError naming `parameter` otherwise.
std::pair<int, int> parsePair(const std::string &text, const std::string &kind,
                              const std::string &parameter);

} // namespace clab::cluster
