#include "cluster/topology.h"

#include "util/inputerror.h"

#include <charconv>

namespace clab::cluster {

const char *linkKindName(LinkKind kind)
{
    switch (kind) {
    case LinkKind::BoardTrace:
        return "board";
    case LinkKind::Copper:
        return "copper";
    case LinkKind::Optical:
        return "optical";
    }
    return "?";
}

void badParameter(const std::string &kind, const std::string &parameter, const std::string &message)
{
    throw InputError(kind, parameter, message);
}

Vertex addSwitch(Graph &g, int radix)
{
    return boost::add_vertex(Node{NodeKind::Switch, radix}, g);
}

void addLink(Graph &g, Vertex a, Vertex b, LinkKind kind)
{
    boost::add_edge(a, b, Link{kind}, g);
}

Graph acceleratorsOnly(int count)
{
    return Graph(static_cast<std::size_t>(count));
}

int addTree(Graph &g, const std::vector<Vertex> &endpoints, int radix, LinkKind down, LinkKind up,
            const std::string &kind, const std::string &what)
{
    const int p = static_cast<int>(endpoints.size());
    if (p <= radix) {
        const Vertex s = addSwitch(g, radix);
        for (Vertex e : endpoints)
            addLink(g, e, s, down);
        return 1;
    }
    const int half = radix / 2;
    const int edges = (p + half - 1) / half;
    // Two levels reach every core from every edge only while the cores fit in an edge's R/2
    // up-links, i.e. E ≤ R: p ≤ R²/2 ports.
    if (edges > radix)
        badParameter(kind, what,
                     "a tree of " + std::to_string(p)
                         + " ports needs more than two levels of radix-" + std::to_string(radix)
                         + " switches (at most " + std::to_string(radix * half) + " ports)");
    const int cores = (edges * half + radix - 1) / radix;
    std::vector<Vertex> core(static_cast<std::size_t>(cores));
    std::vector<Vertex> edge(static_cast<std::size_t>(edges));
    for (auto &e : edge)
        e = addSwitch(g, radix);
    for (auto &c : core)
        c = addSwitch(g, radix);
    for (int i = 0; i < p; ++i)
        addLink(g, endpoints[static_cast<std::size_t>(i)], edge[static_cast<std::size_t>(i / half)],
                down);
    for (int e = 0; e < edges; ++e) {
        for (int m = 0; m < half; ++m)
            addLink(g, edge[static_cast<std::size_t>(e)],
                    core[static_cast<std::size_t>((e * half + m) % cores)], up);
    }
    return 2;
}

std::vector<int> parseDims(const std::string &text, const std::string &kind,
                           const std::string &parameter)
{
    std::vector<int> dims;
    const char *p = text.data();
    const char *end = p + text.size();
    while (true) {
        int v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc() || next == p || v <= 0)
            badParameter(kind, parameter,
                         "expected positive sizes joined by 'x' (e.g. 4x4), got \"" + text + "\"");
        dims.push_back(v);
        p = next;
        if (p == end)
            break;
        if (*p != 'x' && *p != 'X')
            badParameter(kind, parameter,
                         "expected positive sizes joined by 'x' (e.g. 4x4), got \"" + text + "\"");
        ++p;
    }
    return dims;
}

} // namespace clab::cluster
