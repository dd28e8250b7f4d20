#pragma once

#include "cluster/topology.h"

#include <array>
#include <string>

namespace clab::cluster {

// Counts over all planes.
struct Structure
{
    long long accelerators = 0;
    long long switches = 0;
    std::array<long long, kLinkKinds> links{}; // by LinkKind
    long long switchPortsUsed = 0;
    long long switchPortsTotal = 0;     // radix × switches: what is bought
    long long acceleratorPortsUsed = 0; // network ports (board traces included)
    long long totalLinks() const { return links[0] + links[1] + links[2]; }
};
Structure structureOf(const Topology &t);

// Largest number of links on a shortest path between two accelerators. Up to `exhaustive`
// accelerators, BFS from every accelerator (all pairs); beyond, BFS from the generator's
// diameterSources, one per symmetry class (exact when the classes are as the generator says;
// the tests compare both on small instances). Each BFS is O(V+E).
int diameter(const Topology &t, int exhaustive = 1024);

struct Bisection
{
    double links = 0;   // links cut, one plane
    double GBps = 0;    // one direction, all planes
    std::string method; // "max-flow" or "closed form"
};
// The minimum cut between the generator's natural halves of the accelerators. Up to
// `maxFlowVertices` graph vertices it is computed exactly by max-flow (Boykov-Kolmogorov, a super
// source behind one half and a super sink behind the other, every link a pair of opposite arcs
// of capacity 1); beyond, the family's closed form.
Bisection bisection(const Topology &t, int maxFlowVertices = 5000);
double maxFlowCutLinks(const Topology &t);

// Alltoall ("global") bandwidth per accelerator, one direction: the smallest of
//  - injection (ports × 50 GB/s);
//  - the bisection bound 4·bisection/N: with uniform traffic each half sends half its traffic
//    across, N/2 · r/2 ≤ bisection (a k×k torus: 2k links → 8B/k, HammingMesh, SC22);
//  - a family bound where traffic crosses a narrower set of links than the bisection:
//    HammingMesh (a+b)·B/(a·b) (HammingMesh, SC22: a board's 2(a+b) off-board links, and most
//    traffic crosses two trees, so each byte leaves a board twice); tapered fat trees the leaf
//    up-links, u/d · injection · (N-1)/(N-d); Dragonfly the m links between two groups (each
//    pair of groups exchanges (a·p)²·r/(N-1) a direction): m·B·planes·(N-1)/(a·p)².
struct Alltoall
{
    double GBps = 0;
    std::string limit; // "injection", "bisection", "off-board links", "leaf up-links", ...
};
Alltoall alltoall(const Topology &t, const Bisection &bisection);

} // namespace clab::cluster
