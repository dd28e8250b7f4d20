#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace clab::cluster {

// A scale-out network as a graph of accelerators and switches joined by typed links. Switched
// networks (fat trees, Dragonfly, HyperX) are built as one plane and counted `planes` times, as
// the HammingMesh paper's baselines are "4 planes of 400 Gb/s" (HammingMesh, SC22): the planes are
// identical, so one copy gives the diameter and the per-plane cut, and counts scale.

enum class NodeKind : std::uint8_t { Accelerator, Switch };
// Board traces are printed-circuit links on a board; copper cables (DAC) reach within a rack;
// optical cables (transceivers + fibre) everything longer. Which links are which is a rule per
// family, written beside each generator.
enum class LinkKind : std::uint8_t { BoardTrace, Copper, Optical };
inline constexpr int kLinkKinds = 3;
const char *linkKindName(LinkKind kind); // "board", "copper", "optical"

struct Node
{
    NodeKind kind = NodeKind::Accelerator;
    int radix = 0; // ports a switch has (bought whole); 0 for accelerators
};

struct Link
{
    LinkKind kind = LinkKind::Copper;
};

// vecS lists keep a 16k-accelerator network in a few MB and make vertex ids dense indices.
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Node, Link>;
using Vertex = Graph::vertex_descriptor;

enum class Family { FatTree, RailFatTree, Dragonfly, Torus, HyperX, HammingMesh };

struct Topology
{
    Family family = Family::FatTree;
    std::string kind;        // "fattree", "hammingmesh", ... (the CLI's KIND)
    std::string description; // "Hx2Mesh, 16x16 boards of 2x2", ...
    Graph graph;             // vertices [0, accelerators) are the accelerators
    int accelerators = 0;
    int planes = 1;              // identical copies of `graph` (switched networks: 4)
    int portsPerAccelerator = 4; // network ports over all planes; injection = ports × linkGBps
    double linkGBps = 50;        // per direction: 400 Gb/s (HammingMesh, SC22)

    // The natural halves for the bisection: side[i] of accelerator i (0 or 1). Generators pick
    // the split that cuts least (e.g. across a torus's longest dimension).
    std::vector<std::uint8_t> side;
    double bisectionLinksClosedForm = 0; // links cut by that split, one plane (formula per family)
    // Accelerators, one per symmetry class, whose BFS eccentricities give the exact diameter
    // (every accelerator is the image of one of them under an automorphism of the network).
    std::vector<Vertex> diameterSources;

    // Shape numbers the collective and bandwidth formulas need.
    std::vector<int> dims; // torus/HyperX sizes; HammingMesh {a, b, x, y}
    int leafDown = 0;      // fat trees: accelerators per leaf switch
    int leafUp = 0;        //            uplinks per leaf switch
    int levels = 1;        //            switch levels
    int groups = 0, groupSize = 0, globalLinksPerPair = 0; // Dragonfly: g, a·p, links per pair

    double injectionGBps() const { return portsPerAccelerator * linkGBps; }
};

// Builders shared by the generators.
Vertex addSwitch(Graph &g, int radix);
void addLink(Graph &g, Vertex a, Vertex b, LinkKind kind);
Graph acceleratorsOnly(int count); // a graph holding `count` accelerator vertices

// A tree joining `ports` endpoint ports by the HammingMesh paper's rule: at most `radix` ports is
// one switch; more is two levels, ⌈p/(R/2)⌉ edge switches (R/2 down, R/2 up) and ⌈E·(R/2)/R⌉ core
// switches taking the up-links round robin. endpoints[i] is the accelerator behind port i (one
// accelerator may appear twice). Links to accelerators are `down`, switch-switch links `up`.
// Returns the number of switch levels (1 or 2); more than two levels is an InputError naming
// `what`.
int addTree(Graph &g, const std::vector<Vertex> &endpoints, int radix, LinkKind down, LinkKind up,
            const std::string &kind, const std::string &what);

// "4x4" → {4, 4}; "8x8x8" → {8, 8, 8}. Throws InputError naming `kind` and `parameter`.
std::vector<int> parseDims(const std::string &text, const std::string &kind,
                           const std::string &parameter);

// Bad parameters: an InputError whose "file" is the topology kind and place the parameter.
[[noreturn]] void badParameter(const std::string &kind, const std::string &parameter,
                               const std::string &message);

} // namespace clab::cluster
