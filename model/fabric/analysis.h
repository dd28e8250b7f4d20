#pragma once

#include "design/rules.h"
#include "fabric/routes.h"
#include "fabric/stepflows.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace clab::fabric {

struct HostToDevice
{
    std::string device;
    double aloneGBps = 0;      // the only transfer on the fabric
    double concurrentGBps = 0; // all GPUs of this system reading at once
    double allSystemsGBps = 0; // all GPUs of every system reading at once
    std::string bottleneck;    // the link that limits it when its system reads at once
    std::vector<std::string> route;
    std::optional<double> measuredGBps; // the real machine's, when the design has it
    std::string measuredBy;             // its tool and test
    bool operator==(const HostToDevice &) const = default;
};

struct PeerToPeer
{
    std::string from;
    std::string to;
    RouteKind kind = RouteKind::None;
    double GBps = 0;
    double latencyUs = 0;
    std::vector<std::string> route;
    std::optional<double> measuredGBps;
    std::string measuredBy;
    bool operator==(const PeerToPeer &) const = default;
};

struct StorageRead
{
    std::string device;
    double aloneGBps = 0;      // drive rate or path, whichever is lower
    double concurrentGBps = 0; // all drives of the system read at once
    bool operator==(const StorageRead &) const = default;
};

// A part of the pool that several systems use: what it costs this system when all are busy.
struct SharedCost
{
    std::string part;
    std::vector<std::string> sharedWith;
    double lostGBps = 0; // host-to-device bandwidth this system loses to the others, summed
    bool operator==(const SharedCost &) const = default;
};

struct SystemReport
{
    std::string name;
    std::string host;
    std::vector<std::string> gpus;
    std::vector<std::string> drives;
    std::vector<std::string> nics;
    std::vector<HostToDevice> h2d;
    std::vector<PeerToPeer> p2p;
    std::vector<StorageRead> storage;
    std::vector<SharedCost> sharing;
    // A ring over the GPUs in their listed order, every GPU sending to the next at once, as a
    // ring all-reduce does: the slowest hop's share is the ring's per-GPU bandwidth.
    double ringGBps = 0;
    double ringLatencyUs = 0; // slowest hop
    // Where every pair of GPUs is joined directly (a full mesh): the slowest pair's rate with
    // every pair busy, so that a collective over k of the GPUs moves at k - 1 of it; else 0.
    double meshPairGBps = 0;
    // nccl-tests' bus bandwidth on the real machine, to set beside ringGBps.
    std::optional<double> measuredBusGBps;
    std::string measuredBusBy;
    // A training step's transfers at once (ring, input copies, drive reads, GPU to NIC), for the
    // performance model's sharing of links between them.
    StepFlows flows;
    bool operator==(const SystemReport &) const = default;
};

struct NetworkPath
{
    std::string from; // system names
    std::string to;
    double GBps = 0; // all NICs of the smaller side at once
    double latencyUs = 0;
    std::vector<std::string> route; // one NIC-to-NIC route, as an example
    bool operator==(const NetworkPath &) const = default;
};

struct Analysis
{
    std::vector<SystemReport> systems;
    std::vector<NetworkPath> network;
    std::vector<design::Finding> findings;
    bool operator==(const Analysis &) const = default;
};

// Every rule's findings: the design's (design::checkDesign) and its cluster's
// (cluster::checkCluster).
std::vector<design::Finding> findingsOf(const design::Design &design,
                                        const catalog::Catalog &catalog);

// The full analysis: design rules, and for every composed system its host-to-device table (alone,
// system busy, every system busy), peer-to-peer matrix, drive reads, and what shared parts cost.
Analysis analyze(const design::Design &design, const catalog::Catalog &catalog);

// Sets the measured values of the design's measurements beside the modelled ones (called by
// analyze). A measurement for a transfer the analysis does not have is left out.
void attachMeasurements(Analysis &analysis, const design::Design &design);
// The same for measurements from elsewhere (the experiment store's for the same system): only
// transfers that have no measurement yet get one, so the design's own come first.
void attachMeasurements(Analysis &analysis, const std::vector<design::Measurement> &measurements);

// How far a model value is from a measurement: model / measured. Pairs off by more than
// kMeasuredTolerance (either way) are flagged.
inline constexpr double kMeasuredTolerance = 0.15;
inline bool offByMoreThanTolerance(double modelGBps, double measuredGBps)
{
    return measuredGBps > 0 && std::abs(modelGBps / measuredGBps - 1) > kMeasuredTolerance;
}

} // namespace clab::fabric
