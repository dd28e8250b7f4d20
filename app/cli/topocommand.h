#pragma once

#include "cluster/topologyspec.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab topo KIND [params] [--json]`: structure, bandwidth, all-reduce and cost of a
// scale-out topology (model/cluster). The topology's parameters are TopologySpec's; those a kind
// does not use are ignored.
struct TopoOptions : cluster::TopologySpec
{
    std::string prices;        // price table file; empty: the shipped one
    std::vector<double> sizes; // all-reduce message sizes in bytes; empty: 1 KiB .. 1 GiB
    // hammingmesh job placement instead of the network report (model/cluster/placementstudy.h)
    std::string place;           // "submesh", "sorted", "greedy", "both" or "all"; empty: none
    std::string queue = "trace"; // "trace" or "paper" (when jobs is empty)
    double faulty = 0;           // fraction of faulty boards; above 0 adds runs with faults
    std::vector<long long> faultyBoards; // exact counts of faulty boards; each adds runs
    std::uint64_t seed = 1;              // of the job queue and the faults
    int seeds = 1;                       // seed..seed+seeds-1, utilisation the median
    long long jobsBoards = 0;            // boards the trace-like queue asks for; 0: the grid's
    int maxJob = 0;                      // largest trace job in boards; 0: a quarter of the grid
    std::vector<int> jobs;               // the queue itself, in boards; empty: trace-like
    bool json = false;
};

// 0 done, 1 bad input (impossible shape, bad price file: message on err), 2 unknown kind or
// --place with another kind than hammingmesh or an unknown policy.
int topoCommand(const TopoOptions &options, std::ostream &out, std::ostream &err);

// Adds the `topo` subcommand and its options; after parsing, app.get_subcommand("topo")->parsed()
// tells whether it was chosen.
void addTopoSubcommand(CLI::App &app, TopoOptions &options);

} // namespace clab::cli
