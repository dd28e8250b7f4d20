#pragma once

#include "cluster/allreduce.h"
#include "cluster/cost.h"
#include "cluster/metrics.h"

#include <functional>
#include <string>
#include <vector>

namespace clab::cluster {

// Every number `composelab topo` prints, computed once.
struct TopologyReport
{
    std::string kind, description;
    Structure structure;
    int diameter = 0;
    Bisection bisection;
    double injectionGBps = 0; // per accelerator, one direction
    Alltoall alltoall;
    std::vector<AllreducePoint> allreduce;
    Cost cost;
    double costPerAccelerator = 0;
    // Cost per accelerator divided by its bandwidth: what one GB/s of all-reduce (at the largest
    // message) or of alltoall costs.
    double costPerAllreduceGBps = 0;
    double costPerAlltoallGBps = 0;
};

TopologyReport reportOf(const Topology &t, const PriceTable &prices,
                        const std::vector<double> &sizes = defaultMessageSizes());

// Bodies for `composelab bench`: build and measure the 16,384-accelerator Hx2Mesh (64×64 boards
// of 2×2) and a 16,384-endpoint nonblocking fat tree of radix 64 (goal ≤ 1 s each).
struct ClusterBenchmark
{
    const char *name;
    const char *goal;
    std::function<void()> body;
};
std::vector<ClusterBenchmark> clusterBenchmarks();

} // namespace clab::cluster
