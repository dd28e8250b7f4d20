#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::design {

// The composed-system document (a .clab file). The format is described in model/design/FORMAT.md.
// Items refer to catalog parts by id and to each other by their own ids; nothing here is computed.

inline constexpr int kFormatVersion = 2; // 2: links carry ids (version 1 files get them on read)
// No real cable bundle comes near this; the bound keeps lane and link sums far from overflow.
inline constexpr int kMaxLinkCount = 1024;

struct Host
{
    std::string id;
    std::string model; // catalog host id
    std::string name;
    bool operator==(const Host &) const = default;
};

struct Chassis
{
    std::string id;
    std::string model; // catalog chassis id
    std::string name;
    bool operator==(const Chassis &) const = default;
};

// A standalone switch: a PCIe switch in a server, a network switch or an NVSwitch baseboard.
struct Switch
{
    std::string id;
    std::string model;
    std::string name;
    bool operator==(const Switch &) const = default;
};

// A GPU, NVMe drive or NIC: pooled when it sits in a chassis slot, local when linked directly.
struct Device
{
    std::string id;
    std::string model;
    std::string name;
    std::string chassis; // empty for a device that is not in a chassis
    int slot = -1;
    bool operator==(const Device &) const = default;
};

// A cable, bridge or board trace between two ports. An endpoint is "item" or "item/port": hosts
// have ports cpu0, cpu1, ... (their sockets' root ports), chassis have up0, up1, ... (host ports).
// A link has an id of its own ("link1", ...; unique among the design's links), so that edits,
// undo and the canvas name it rather than its place in `links`.
struct Link
{
    std::string from;
    std::string to;
    std::string kind; // catalog link kind id
    int count = 1;    // parallel links, e.g. NVLink links in a bridge
    std::string id;
    bool operator==(const Link &) const = default;
};

// A named composed system: a host and the devices composed to it.
struct System
{
    std::string name;
    std::string host;
    std::vector<std::string> devices;
    bool operator==(const System &) const = default;
};

// A cluster: `nodes` copies of one composed system, joined by a scale-out topology with one
// endpoint per GPU ("fattree", "fattree:taper=2,radix=64", "rail:radix=64"; see
// model/cluster/clusterspec.h). The design rules check that the system exists and the topology
// can be built; the performance model predicts the system scaled to `nodes`.
struct Cluster
{
    std::string system;
    int nodes = 2;
    std::string topology = "fattree";
    bool operator==(const Cluster &) const = default;
};
// 16,384 GPUs at 8 a node, the largest scale the HammingMesh paper studies. The
// model builds the network after every edit, a few milliseconds at this size.
inline constexpr int kMaxClusterNodes = 2048;

struct Position
{
    double x = 0;
    double y = 0;
    bool operator==(const Position &) const = default;
};

// A bandwidth measured on the real machine the design describes (`composelab machine` attaches
// the p2pBandwidthLatencyTest, nvbandwidth, bandwidthTest and nccl-tests outputs given to it), to
// be shown beside the model's value for the same transfer.
struct Measurement
{
    std::string kind;   // "h2d", "d2h", "p2p" (from -> to), "collective" (a system's bus bandwidth)
    std::string from;   // device id; empty for the host (h2d) or for a collective
    std::string to;     // device id; empty for the host (d2h) or for a collective
    std::string system; // the composed system a collective ran on; empty: the design's only one
    double GBps = 0;
    std::string tool;   // "p2pBandwidthLatencyTest", "nvbandwidth", ...
    std::string test;   // the tool's test, e.g. "Unidirectional P2P=Enabled Bandwidth Matrix"
    std::string source; // the file it was read from
    bool operator==(const Measurement &) const = default;
};

struct Design
{
    std::string name;
    std::string description;
    std::vector<Host> hosts;
    std::vector<Chassis> chassis;
    std::vector<Switch> switches;
    std::vector<Device> devices;
    std::vector<Link> links;
    std::vector<System> systems;
    std::optional<Cluster> cluster;
    std::map<std::string, Position> layout; // canvas positions by item id; no meaning for analysis
    std::vector<Measurement> measurements;  // of the real machine, when the design is one
    // Definitions of the user-defined parts the design uses (catalog sections, canonical JSON
    // text), so that the file opens on a machine without them; "" when it uses none.
    std::string parts;

    const Host *host(std::string_view id) const;
    const Chassis *findChassis(std::string_view id) const;
    const Switch *findSwitch(std::string_view id) const;
    const Device *device(std::string_view id) const;
    const System *system(std::string_view systemName) const;
    const Link *link(std::string_view linkId) const;
    bool operator==(const Design &) const = default;
};

struct Endpoint
{
    std::string item;
    std::string port; // empty when the endpoint names the item alone
};
Endpoint splitEndpoint(std::string_view endpoint);

// Reads a design; throws InputError naming the file, the line or JSON pointer, and what was
// expected. Files of a newer formatVersion are refused; older ones are upgraded.
Design readDesign(std::string_view text, const std::string &fileName);
// Reads a file, and adds the user parts it embeds to the program's catalog (registerParts).
Design loadDesign(const std::string &path);
// Adds the parts a design embeds to the program's catalog; throws InputError (naming `fileName`)
// when they cannot be added, e.g. an id the catalog defines otherwise.
void registerParts(const Design &design, const std::string &fileName);
// The design with `parts` holding the definitions of every user part it uses (and no others).
Design withUserParts(Design design);

// Empty when a design file could hold the design, so that it opens again once saved: at most
// limits::kMaxDesignItems entries in each array (hosts, ..., systems, a system's devices, layout
// positions), positions within limits::kMaxCoordinate and limits::kMaxPeerPairs ordered device
// pairs over all systems. Otherwise what is over, for a message. readDesign refuses the same
// designs, naming the place in the file. (The file-size limit is not checked: reaching 64 MB
// within these counts needs names of hundreds of bytes on every item.)
std::string limitProblem(const Design &design);

// Canonical text: key order and number format are fixed, so save → load → save is byte-identical.
std::string writeDesign(const Design &design);
// Writes to a temporary file beside `path` and renames it over, so the old file survives a crash.
void saveDesign(const Design &design, const std::string &path);

} // namespace clab::design
