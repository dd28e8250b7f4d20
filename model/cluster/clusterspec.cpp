#include "cluster/clusterspec.h"

#include "cluster/generators.h"
#include "util/inputerror.h"

#include <map>
#include <variant>

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
            throw InputError("--cluster " + spec, item, "expected key=non-negative integer");
        }
        out[item.substr(0, eq)] = value;
        at = comma + 1;
    }
    return out;
}

// A spec read into the parameters of its generator; the checks and the build share it.
using Params = std::variant<FatTreeParams, RailParams>;

Params parseSpec(const std::string &spec, int nodes, int gpusPerNode)
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
        throw InputError("--cluster " + spec, "nodes",
                         "expected 1 to " + std::to_string(kMaxClusterEndpoints)
                             + " GPUs in all, got " + std::to_string(nodes) + " nodes of "
                             + std::to_string(gpusPerNode));
    Params out;
    if (kind == "fattree") {
        FatTreeParams p;
        p.endpoints = nodes * gpusPerNode;
        p.radix = take("radix", p.radix);
        p.taper = take("taper", p.taper);
        p.levels = take("levels", p.levels);
        out = p;
    } else if (kind == "rail") {
        RailParams p;
        p.servers = nodes;
        p.perServer = gpusPerNode;
        p.radix = take("radix", p.radix);
        out = p;
    } else {
        throw InputError("--cluster " + spec, kind,
                         "expected fattree or rail (optionally :radix=N,taper=N,levels=N)");
    }
    if (!params.empty())
        throw InputError("--cluster " + spec, params.begin()->first,
                         "not a parameter of " + kind
                             + " (radix, taper, levels for fattree; "
                               "radix for rail)");
    return out;
}

} // namespace

void checkClusterNetwork(const std::string &spec, int nodes, int gpusPerNode)
{
    const Params p = parseSpec(spec, nodes, gpusPerNode);
    if (const auto *tree = std::get_if<FatTreeParams>(&p))
        checkFatTree(*tree);
    else
        checkRailFatTree(std::get<RailParams>(p));
}

std::shared_ptr<const Topology> clusterNetwork(const std::string &spec, int nodes, int gpusPerNode)
{
    const Params p = parseSpec(spec, nodes, gpusPerNode);
    if (const auto *tree = std::get_if<FatTreeParams>(&p))
        return std::make_shared<const Topology>(fatTree(*tree));
    return std::make_shared<const Topology>(railFatTree(std::get<RailParams>(p)));
}

} // namespace clab::cluster
