#include "cluster/topologyspec.h"

#include "cluster/generators.h"

#include <initializer_list>

namespace clab::cluster {

bool isTopologyKind(const std::string &kind)
{
    for (const char *k : {"fattree", "rail", "dragonfly", "torus", "hyperx", "hammingmesh"}) {
        if (kind == k)
            return true;
    }
    return false;
}

std::pair<int, int> parsePair(const std::string &text, const std::string &kind,
                              const std::string &parameter)
{
    const auto dims = parseDims(text, kind, parameter);
    if (dims.size() != 2)
        badParameter(kind, parameter,
                     std::string("expected ") + (parameter == "board" ? "AxB" : "XxY") + ", got \""
                         + text + "\"");
    return {dims[0], dims[1]};
}

namespace {

// Products of user-given sizes, held at 2^40 (far beyond every generator's limit) so that no
// input overflows.
long long product(std::initializer_list<long long> factors)
{
    long long n = 1;
    for (long long f : factors)
        n = f > 0 && n > (1LL << 40) / f ? 1LL << 40 : n * f;
    return n;
}

} // namespace

long long acceleratorCount(const TopologySpec &s)
{
    if (s.kind == "fattree")
        return s.endpoints;
    if (s.kind == "rail")
        return product({s.servers, s.perServer});
    if (s.kind == "dragonfly")
        return product({s.p, s.a, s.groups > 0 ? s.groups : product({s.a, s.h}) + 1});
    if (s.kind == "torus" || s.kind == "hyperx") {
        long long n = 1;
        for (int d : parseDims(s.dims, s.kind, "dims"))
            n = product({n, d});
        return n;
    }
    if (s.kind == "hammingmesh") {
        const auto [a, b] = parsePair(s.board, s.kind, "board");
        const auto [x, y] = parsePair(s.grid, s.kind, "grid");
        return product({a, b, x, y});
    }
    return 0;
}

Topology buildTopology(const TopologySpec &s)
{
    if (s.kind == "fattree")
        return fatTree({s.endpoints, s.radix, s.taper, s.levels});
    if (s.kind == "rail")
        return railFatTree({s.servers, s.perServer, s.radix});
    if (s.kind == "dragonfly")
        return dragonfly({s.p, s.a, s.h, s.groups});
    if (s.kind == "torus")
        return torus(parseDims(s.dims, s.kind, "dims"));
    if (s.kind == "hyperx")
        return hyperX(parseDims(s.dims, s.kind, "dims"));
    if (s.kind == "hammingmesh") {
        const auto [a, b] = parsePair(s.board, s.kind, "board");
        const auto [x, y] = parsePair(s.grid, s.kind, "grid");
        return hammingMesh({a, b, x, y, s.radix});
    }
    badParameter(s.kind, "kind", std::string("expected one of ") + kTopologyKinds);
}

} // namespace clab::cluster
