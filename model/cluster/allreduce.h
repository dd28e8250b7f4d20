#pragma once

#include "cluster/topology.h"

#include <string>
#include <vector>

namespace clab::cluster {

// All-reduce cost models, α-β style: T = steps·α(hops) + volume / bandwidth.
// α(h) = 20 ns in + 40 ns per link + 20 ns out (HammingMesh, SC22), so α(1) = 80 ns, the paper's α.
double alphaSeconds(int hops);

// The bounds of the HammingMesh paper's (SC22) plots (B = one link, bytes/s):
// torus algorithm on a k×k torus (k = √N): T = 4(k−1)·α + ((k−1)/k)·S/B  → bandwidth → B
double torusAllreduceSeconds(double bytes, int k, double linkBytesPerS);
// two edge-disjoint rings on a torus or HammingMesh: T = 2(N−1)·α + ((N−1)/N)·(S/2)/B → 2B
double twoRingsAllreduceSeconds(double bytes, long long n, double linkBytesPerS);

struct AllreducePoint
{
    double bytes = 0;
    double seconds = 0;
    double GBps = 0;       // S / T ("algorithm bandwidth")
    std::string algorithm; // the fastest applicable one at this size
};

// The fitting algorithms per family, the fastest at each size:
//  - torus: torus algorithm (square 2D only) or two rings;
//  - HammingMesh: two rings (each accelerator's 4 ports carry two bidirectional rings);
//  - fat trees: hierarchical — ring reduce-scatter among the d accelerators of a leaf, ring
//    all-reduce of the 1/d shards among the leaves (d parallel rings sharing the leaf's u·planes
//    up-links), ring all-gather in the leaf. Nonblocking, it sums to 2(N−1)/N·S/(planes·B),
//    which equals the two-ring bandwidth for 4 ports;
//  - rail, Dragonfly, HyperX: one ring per plane over all accelerators, 2(N−1) steps.
AllreducePoint allreduce(const Topology &t, double bytes);
std::vector<AllreducePoint> allreduceSweep(const Topology &t, const std::vector<double> &sizes);
std::vector<double> defaultMessageSizes(); // 1 KiB to 1 GiB, ×16

} // namespace clab::cluster
