#include "cluster/metrics.h"

#include <boost/graph/push_relabel_max_flow.hpp>

#include <algorithm>
#include <limits>

namespace clab::cluster {

Structure structureOf(const Topology &t)
{
    Structure s;
    const Graph &g = t.graph;
    for (Vertex v : boost::make_iterator_range(boost::vertices(g))) {
        const long long degree = static_cast<long long>(boost::out_degree(v, g));
        if (g[v].kind == NodeKind::Switch) {
            ++s.switches;
            s.switchPortsUsed += degree;
            s.switchPortsTotal += g[v].radix;
        } else {
            ++s.accelerators;
            s.acceleratorPortsUsed += degree;
        }
    }
    for (auto e : boost::make_iterator_range(boost::edges(g)))
        ++s.links[static_cast<std::size_t>(g[e].kind)];
    // Every plane repeats the switches and their links; the accelerators stay.
    const long long p = t.planes;
    s.switches *= p;
    s.switchPortsUsed *= p;
    s.switchPortsTotal *= p;
    s.acceleratorPortsUsed *= p;
    for (auto &l : s.links)
        l *= p;
    return s;
}

namespace {

// Breadth-first distances from `source`; returns the largest distance to an accelerator.
int eccentricity(const Graph &g, Vertex source, int accelerators, std::vector<int> &dist,
                 std::vector<Vertex> &queue)
{
    std::fill(dist.begin(), dist.end(), -1);
    queue.clear();
    queue.push_back(source);
    dist[source] = 0;
    int far = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const Vertex v = queue[head];
        if (v < Vertex(accelerators))
            far = std::max(far, dist[v]);
        for (Vertex w : boost::make_iterator_range(boost::adjacent_vertices(v, g))) {
            if (dist[w] < 0) {
                dist[w] = dist[v] + 1;
                queue.push_back(w);
            }
        }
    }
    for (int i = 0; i < accelerators; ++i) {
        if (dist[std::size_t(i)] < 0)
            return std::numeric_limits<int>::max(); // disconnected
    }
    return far;
}

} // namespace

int diameter(const Topology &t, int exhaustive)
{
    const Graph &g = t.graph;
    std::vector<int> dist(boost::num_vertices(g));
    std::vector<Vertex> queue;
    queue.reserve(dist.size());
    int d = 0;
    if (t.accelerators <= exhaustive) {
        for (int v = 0; v < t.accelerators; ++v)
            d = std::max(d, eccentricity(g, Vertex(v), t.accelerators, dist, queue));
    } else {
        for (Vertex v : t.diameterSources)
            d = std::max(d, eccentricity(g, v, t.accelerators, dist, queue));
    }
    return d;
}

double maxFlowCutLinks(const Topology &t)
{
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    using FlowGraph = boost::adjacency_list<
        boost::vecS, boost::vecS, boost::directedS, boost::no_property,
        boost::property<
            boost::edge_capacity_t, long,
            boost::property<boost::edge_residual_capacity_t, long,
                            boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
    const Graph &g = t.graph;
    const std::size_t n = boost::num_vertices(g);
    FlowGraph f(n + 2);
    const auto source = FlowGraph::vertex_descriptor(n), sink = source + 1;
    auto capacity = boost::get(boost::edge_capacity, f);
    auto reverse = boost::get(boost::edge_reverse, f);
    // An arc u→v of capacity c and its residual partner v→u of capacity 0.
    auto arc = [&](std::size_t u, std::size_t v, long c) {
        const auto e = boost::add_edge(u, v, f).first;
        const auto r = boost::add_edge(v, u, f).first;
        capacity[e] = c;
        capacity[r] = 0;
        reverse[e] = r;
        reverse[r] = e;
    };
    for (auto e : boost::make_iterator_range(boost::edges(g))) {
        const auto u = boost::source(e, g), v = boost::target(e, g);
        arc(u, v, 1); // an undirected link carries one unit each way
        arc(v, u, 1);
    }
    const long unbounded = std::numeric_limits<int>::max();
    for (int i = 0; i < t.accelerators; ++i) {
        if (t.side[std::size_t(i)] == 0)
            arc(source, std::size_t(i), unbounded);
        else
            arc(std::size_t(i), sink, unbounded);
    }
    return double(boost::push_relabel_max_flow(f, source, sink));
}

Bisection bisection(const Topology &t, int maxFlowVertices)
{
    Bisection b;
    if (int(boost::num_vertices(t.graph)) <= maxFlowVertices) {
        b.links = maxFlowCutLinks(t);
        b.method = "max-flow";
    } else {
        b.links = t.bisectionLinksClosedForm;
        b.method = "closed form";
    }
    b.GBps = b.links * t.linkGBps * t.planes;
    return b;
}

Alltoall alltoall(const Topology &t, const Bisection &bis)
{
    const double n = t.accelerators;
    Alltoall a{t.injectionGBps(), "injection"};
    auto consider = [&](double GBps, const char *limit) {
        if (GBps < a.GBps)
            a = {GBps, limit};
    };
    if (n >= 2)
        consider(4 * bis.GBps / n, "bisection");
    const double B = t.linkGBps;
    switch (t.family) {
    case Family::HammingMesh: {
        const double ab = double(t.dims[0]) * t.dims[1];
        if (t.dims[2] * t.dims[3] > 1)
            consider((t.dims[0] + t.dims[1]) * B / ab, "off-board links");
        break;
    }
    case Family::FatTree:
        if (t.leafUp > 0 && n > t.leafDown)
            consider(t.injectionGBps() * t.leafUp / t.leafDown * (n - 1) / (n - t.leafDown),
                     "leaf up-links");
        break;
    case Family::Dragonfly: {
        const double groupSize = t.groupSize;
        if (t.groups > 1)
            consider(t.globalLinksPerPair * B * t.planes * (n - 1) / (groupSize * groupSize),
                     "global links");
        break;
    }
    default:
        break;
    }
    return a;
}

} // namespace clab::cluster
