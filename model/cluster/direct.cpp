// Tori and HyperX with one accelerator per router (the HammingMesh paper's baselines: 32×32 for ~1k
// accelerators, 128×128 for ~16k).
#include "cluster/generators.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace clab::cluster {

namespace {

using std::size_t;

long long product(const std::vector<int> &dims)
{
    return std::accumulate(dims.begin(), dims.end(), 1LL, std::multiplies<long long>());
}

std::string dimsText(const std::vector<int> &dims)
{
    std::string s;
    for (int d : dims)
        s += (s.empty() ? "" : "x") + std::to_string(d);
    return s;
}

// Halves across the last (slowest) coordinate: vertices with coordinate < ⌊k/2⌋ on side 0.
std::vector<std::uint8_t> splitAcrossLast(const std::vector<int> &dims, int n)
{
    const int stride = n / dims.back();
    std::vector<std::uint8_t> side(size_t(n), 0);
    for (int i = (dims.back() / 2) * stride; i < n; ++i)
        side[size_t(i)] = 1;
    return side;
}

} // namespace

Topology torus(const std::vector<int> &userDims)
{
    const std::string kind = "torus";
    if (userDims.size() != 2 && userDims.size() != 3)
        badParameter(kind, "dims",
                     "expected 2 or 3 dimensions (e.g. 32x32 or 8x8x8), got "
                         + std::to_string(userDims.size()));
    for (int k : userDims) {
        if (k < 3)
            badParameter(kind, "dims",
                         "expected at least 3 routers in every dimension (to "
                         "close a ring), got "
                             + dimsText(userDims));
    }
    if (product(userDims) > 4'000'000)
        badParameter(kind, "dims", "at most 4 million accelerators, got " + dimsText(userDims));
    // The structure does not depend on the order of the dimensions; the largest goes last so
    // that the halves split it (the cut across the longest dimension is the smallest).
    std::vector<int> dims = userDims;
    std::sort(dims.begin(), dims.end());
    const int n = int(product(dims));
    Topology t;
    t.family = Family::Torus;
    t.kind = kind;
    t.graph = acceleratorsOnly(n);
    t.accelerators = n;
    t.planes = 1;
    t.portsPerAccelerator = int(2 * dims.size());
    t.dims = dims;
    // Neighbour links are copper: a folded torus (rings laid out 0, k-1, 1, k-2, ...) keeps
    // every link, wrap-around included, between neighbouring racks.
    int stride = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
        const int k = dims[d];
        for (int v = 0; v < n; ++v) {
            const int c = (v / stride) % k;
            addLink(t.graph, Vertex(v), Vertex(v + ((c + 1) % k - c) * stride), LinkKind::Copper);
        }
        stride *= k;
    }
    t.side = splitAcrossLast(dims, n);
    // Each of the N/k rings along the split dimension is cut twice (once in the middle, once at
    // the wrap-around).
    t.bisectionLinksClosedForm = 2.0 * n / dims.back();
    t.diameterSources = {0}; // a torus is vertex-transitive
    t.description = std::to_string(dims.size()) + "D torus " + dimsText(userDims);
    return t;
}

Topology hyperX(const std::vector<int> &userDims)
{
    const std::string kind = "hyperx";
    if (userDims.size() != 2)
        badParameter(kind, "dims",
                     "expected 2 dimensions (e.g. 32x32), got " + std::to_string(userDims.size()));
    for (int k : userDims) {
        if (k < 2)
            badParameter(kind, "dims",
                         "every dimension needs at least 2 routers, got " + dimsText(userDims));
    }
    if (product(userDims) > 1'000'000)
        badParameter(kind, "dims", "at most a million routers, got " + dimsText(userDims));
    // The smallest dimension goes last: a cut across dimension k severs (N/k)·⌊k/2⌋·⌈k/2⌉
    // router links, least for the smallest k.
    std::vector<int> dims = userDims;
    std::sort(dims.begin(), dims.end(), std::greater<int>());
    const int n = int(product(dims));
    const int radix = (dims[0] - 1) + (dims[1] - 1) + 1;
    Topology t;
    t.family = Family::HyperX;
    t.kind = kind;
    t.graph = acceleratorsOnly(n);
    t.accelerators = n;
    t.planes = kSwitchedPlanes;
    t.dims = dims;
    Graph &g = t.graph;
    for (int v = 0; v < n; ++v) {
        const Vertex r = addSwitch(g, radix); // router of accelerator v is vertex n + v
        addLink(g, Vertex(v), r, LinkKind::Copper);
    }
    const int k0 = dims[0], k1 = dims[1];
    for (int v = 0; v < n; ++v) {
        const int c0 = v % k0, c1 = v / k0;
        for (int o = c0 + 1; o < k0; ++o) // along a row
            addLink(g, Vertex(n + v), Vertex(n + c1 * k0 + o), LinkKind::Optical);
        for (int o = c1 + 1; o < k1; ++o) // along a column
            addLink(g, Vertex(n + v), Vertex(n + o * k0 + c0), LinkKind::Optical);
    }
    t.side = splitAcrossLast(dims, n);
    const double sideA = double(n / k1) * (k1 / 2);
    const double routerCut = double(n / k1) * (k1 / 2) * (k1 - k1 / 2);
    t.bisectionLinksClosedForm = std::min(sideA, routerCut); // accelerator links or router links
    t.diameterSources = {0};                                 // vertex-transitive
    t.levels = 1;
    t.description = "2D HyperX " + dimsText(userDims) + ", radix " + std::to_string(radix);
    return t;
}

} // namespace clab::cluster
