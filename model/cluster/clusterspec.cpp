#include "cluster/clusterspec.h"

#include "cluster/generators.h"
#include "util/inputerror.h"

#include <map>

namespace clab::cluster {

namespace {

std::map<std::string, int> parseParams(const std::string &spec, const std::string &text)
{
    std::map<std::string, int> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        const std::size_t eq = item.find('=');
        int value = 0;
        try {
            std::size_t used = 0;
            value = eq == std::string::npos ? 0 : std::stoi(item.substr(eq + 1), &used);
            if (eq == std::string::npos || used != item.size() - eq - 1 || value < 0)
                throw std::invalid_argument(item);
        } catch (const std::exception &) {
            throw InputError("cluster network " + spec, item, "expected key=non-negative integer");
        }
        out[item.substr(0, eq)] = value;
        at = comma + 1;
    }
    return out;
}

TopologySpec parseSpec(const std::string &spec, int nodes, int gpusPerNode)
{
    const std::size_t colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    auto params = parseParams(spec, colon == std::string::npos ? "" : spec.substr(colon + 1));
    auto take = [&](const char *key, int fallback) {
        const auto it = params.find(key);
        if (it == params.end())
            return fallback;
        const int v = it->second;
        params.erase(it);
        return v;
    };
    if (nodes < 1 || gpusPerNode < 1 || 1LL * nodes * gpusPerNode > kMaxClusterEndpoints)
        throw InputError("cluster network " + spec, "nodes",
                         "expected 1 to " + std::to_string(kMaxClusterEndpoints)
                             + " GPUs in all, got " + std::to_string(nodes) + " nodes of "
                             + std::to_string(gpusPerNode));
    TopologySpec out;
    out.kind = kind;
    if (kind == "fattree") {
        out.endpoints = nodes * gpusPerNode;
        out.radix = take("radix", out.radix);
        out.taper = take("taper", out.taper);
        out.levels = take("levels", out.levels);
    } else if (kind == "rail") {
        out.servers = nodes;
        out.perServer = gpusPerNode;
        out.radix = take("radix", out.radix);
    } else {
        throw InputError("cluster network " + spec, kind,
                         "expected fattree or rail (optionally :radix=N,taper=N,levels=N)");
    }
    if (!params.empty())
        throw InputError("cluster network " + spec, params.begin()->first,
                         "not a parameter of " + kind
                             + " (radix, taper, levels for fattree; "
                               "radix for rail)");
    return out;
}

} // namespace

TopologySpec clusterTopologySpec(const std::string &spec, int nodes, int gpusPerNode)
{
    return parseSpec(spec, nodes, gpusPerNode);
}

void checkClusterNetwork(const std::string &spec, int nodes, int gpusPerNode)
{
    const TopologySpec t = parseSpec(spec, nodes, gpusPerNode);
    if (t.kind == "fattree")
        checkFatTree({t.endpoints, t.radix, t.taper, t.levels});
    else
        checkRailFatTree({t.servers, t.perServer, t.radix});
}

std::shared_ptr<const Topology> clusterNetwork(const std::string &spec, int nodes, int gpusPerNode)
{
    return std::make_shared<const Topology>(buildTopology(parseSpec(spec, nodes, gpusPerNode)));
}

} // namespace clab::cluster
