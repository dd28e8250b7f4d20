#include "cluster/report.h"

#include "cluster/generators.h"
#include "cluster/paperqueue.h"
#include "cluster/placement.h"

namespace clab::cluster {

TopologyReport reportOf(const Topology &t, const PriceTable &prices,
                        const std::vector<double> &sizes)
{
    TopologyReport r;
    r.kind = t.kind;
    r.description = t.description;
    r.structure = structureOf(t);
    r.diameter = diameter(t);
    r.bisection = bisection(t);
    r.injectionGBps = t.injectionGBps();
    r.alltoall = alltoall(t, r.bisection);
    r.allreduce = allreduceSweep(t, sizes);
    r.cost = costOf(r.structure, prices);
    r.costPerAccelerator = t.accelerators ? r.cost.total() / t.accelerators : 0;
    if (!r.allreduce.empty() && r.allreduce.back().GBps > 0)
        r.costPerAllreduceGBps = r.costPerAccelerator / r.allreduce.back().GBps;
    if (r.alltoall.GBps > 0)
        r.costPerAlltoallGBps = r.costPerAccelerator / r.alltoall.GBps;
    return r;
}

std::vector<ClusterBenchmark> clusterBenchmarks()
{
    return {
        {"topo_hx2_64x64", "<= 1 s",
         [] {
             const Topology t = hammingMesh({2, 2, 64, 64, 64});
             volatile double v = reportOf(t, defaultPriceTable()).cost.total();
             (void)v;
         }},
        // The paper's queue on Hx2Mesh 64×64 with 100 faulty boards, drawn and placed by each
        // of the three policies (topo hammingmesh --place all --queue paper).
        {"place_hx_64x64", "<= 100 ms",
         [] {
             const auto faults = faultyBoards(64, 64, 100, 1);
             const auto jobs = paperJobSizes(64, 64, 4096 - 100, 1);
             long long placed = 0;
             for (auto policy :
                  {PlacementPolicy::Submesh, PlacementPolicy::Sorted, PlacementPolicy::Greedy})
                 placed += placeJobs(64, 64, jobs, policy, faults).placedJobs;
             volatile long long v = placed;
             (void)v;
         }},
        {"topo_fattree_16k", "<= 1 s",
         [] {
             const Topology t = fatTree({16384, 64, 1, 0});
             volatile double v = reportOf(t, defaultPriceTable()).cost.total();
             (void)v;
         }},
    };
}

} // namespace clab::cluster
