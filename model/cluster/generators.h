#pragma once

#include "cluster/topology.h"

namespace clab::cluster {

// Every generator checks its parameters and throws clab::InputError (file = the kind, place = the
// parameter) for shapes that cannot be built.

inline constexpr int kSwitchedPlanes = 4; // HammingMesh, SC22: switched baselines are 4 × 400 Gb/s

struct FatTreeParams
{
    int endpoints = 1024;
    int radix = 64;
    int taper = 1;  // leaf down-links per up-link (1 = nonblocking, 2 = 2:1, 4 = 4:1)
    int levels = 0; // 0: as few as the endpoints need (1 to 3)
};
// Folded Clos tapered at the leaf only: leaves have d = t·⌊R/(t+1)⌋ down and u = ⌊R/(t+1)⌋ up
// (nonblocking: R/2 and R/2); two levels join ≤ R leaves; three levels group R/2 leaves with their
// u aggregation switches into pods and join the pods through u groups of core switches.
Topology fatTree(const FatTreeParams &params);
// fatTree's checks alone, without building anything; returns the levels it would build.
int checkFatTree(const FatTreeParams &params);

struct RailParams
{
    int servers = 128;
    int perServer = 8; // accelerators per server = rails
    int radix = 64;
};
// Rail-optimised: accelerator r of every server plugs into the leaves of rail r (R/2 servers a
// leaf); a nonblocking spine layer joins all leaves (two levels, like NVIDIA's DGX SuperPOD).
Topology railFatTree(const RailParams &params);
void checkRailFatTree(const RailParams &params); // its checks alone

struct DragonflyParams
{
    int p = 4;      // accelerators per router
    int a = 8;      // routers per group, joined all-to-all
    int h = 4;      // global links per router
    int groups = 0; // 0: a·h + 1, the largest with one global link between every pair of groups
};
// Kim, Dally, Scott, Abts, "Technology-Driven, Highly-Scalable Dragonfly Topology" (ISCA 2008).
Topology dragonfly(const DragonflyParams &params);

// k1×k2(×k3) torus, one accelerator per router: the accelerator is the router (2·d ports).
Topology torus(const std::vector<int> &dims);
// 2D HyperX k1×k2 (Ahn et al., SC09): routers all-to-all along each row and column, one
// accelerator per router; switched, so 4 planes like the other baselines.
Topology hyperX(const std::vector<int> &dims);

struct HammingMeshParams
{
    int a = 2, b = 2;   // board of a×b accelerators (2D mesh on the board)
    int x = 16, y = 16; // grid of x×y boards
    int radix = 64;
};
// HammingMesh (Hoefler et al., SC22): a·x row trees over the W/E board edges, b·y column trees
// over N/S; each tree by addTree's rule.
Topology hammingMesh(const HammingMeshParams &params);

} // namespace clab::cluster
