#pragma once

#include "design/design.h"
#include "design/designindex.h"
#include "fabric/analysis.h"
#include "perf/energy.h"
#include "perf/systemspec.h"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace clab::catalog {
struct Gpu;
class Catalog;
} // namespace clab::catalog

namespace clab::cluster {
struct Topology;
}

namespace clab::perf {

// The hardware of a training run in the numbers the performance model uses. Every bandwidth
// comes from the fabric analysis of a (real or synthesized) node design, so a shared chassis
// uplink, a socket crossing or PCIe instead of NVLink changes the term it really affects.
struct Platform
{
    const catalog::Gpu *gpu = nullptr;
    int gpusPerNode = 1;
    int nodes = 1;
    int hostCores = 0;    // per node
    double hostMemGB = 0; // per node; 0: unknown (the drives are then read every epoch)
    double ringGBps = 0;  // per GPU, ring over the node's GPUs all sending at once
    double ringLatencyUs = 0;
    // GPUs joined pair by pair (a full mesh: HGX 4-GPU boards, AMD Instinct's xGMI): one pair's
    // rate, so that a collective over k of them (tensor parallelism) moves at k - 1 of it; 0
    // where a switch gives any group the ring's rate.
    double meshPairGBps = 0;
    double h2dGBps = 0; // per GPU with every GPU of the node reading at once
    double storageGBps = std::numeric_limits<double>::infinity(); // per node; inf: page cache
    double networkGBps = 0;      // per node, achieved, between nodes
    double networkLatencyUs = 5; // per message between nodes
    std::string linkKey;         // intra-node link kind: "nvswitch", "pcie", "composable-pcie", ...
    // The transfers of one step and the links they share (ring, input copies, drive reads, GPU
    // to NIC), from the fabric analysis; empty for a hand-made platform, which then uses the
    // bandwidths above as if each class ran alone.
    fabric::StepFlows flows;
    const catalog::Catalog *catalog = nullptr; // of `gpu`; nullptr: the built-in one
    // The scale-out network joining the nodes, one endpoint per GPU (rail-style NICs). When set,
    // traffic between nodes takes the all-reduce time this topology gives; else networkGBps.
    std::shared_ptr<const cluster::Topology> cluster;
    // The parts of one node, for its power and price (perf/energy.h); empty for a hand-made
    // platform.
    std::vector<BillItem> bill;
    std::vector<std::string> notes;
    bool operator==(const Platform &) const = default;
};

// The platform of one composed system of an analysed design. With `nodes` > 1 the system is one
// of that many identical nodes joined by the network the analysis found from it to the others.
Platform platformOf(const design::Design &design, const fabric::Analysis &analysis,
                    std::size_t systemIndex, const catalog::Catalog &catalog);
// The same, for callers that go through every system of a design: one index serves them all.
Platform platformOf(const design::DesignIndex &index, const fabric::Analysis &analysis,
                    std::size_t systemIndex, const catalog::Catalog &catalog);

// A node design built from a system description (an MLPerf row, a throughput table row): the
// host, GPUs behind PCIe switches or a composable chassis, NVLink as described.
design::Design nodeDesign(const SystemSpec &spec, const catalog::Catalog &catalog);
Platform platformOf(const SystemSpec &spec, const catalog::Catalog &catalog);
// The two-socket host a node of that PCIe generation gets when its processor is not known.
std::string defaultHostModel(int pcieGen);

} // namespace clab::perf
