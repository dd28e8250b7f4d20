#include "fabric/routes.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <limits>

namespace clab::fabric {

const char *routeKindName(RouteKind kind)
{
    switch (kind) {
    case RouteKind::None:
        return "none";
    case RouteKind::HostToDevice:
        return "host-to-device";
    case RouteKind::DeviceToHost:
        return "device-to-host";
    case RouteKind::Nvlink:
        return "nvlink";
    case RouteKind::PcieSwitch:
        return "pcie-switch";
    case RouteKind::RootComplex:
        return "root-complex";
    case RouteKind::StagedViaHost:
        return "staged-via-host";
    case RouteKind::Network:
        return "network";
    }
    return "?";
}

Router::Router(const Fabric &fabric)
    : m_fabric(fabric)
    , m_stamp(boost::num_vertices(fabric.graph()), 0)
    , m_via(boost::num_vertices(fabric.graph()))
    , m_hasVia(boost::num_vertices(fabric.graph()), false)
{
    const Graph &g = fabric.graph();
    m_capacity.assign(2 * fabric.edgeCount(), 0);
    m_latency.assign(2 * fabric.edgeCount(), 0);
    m_label.assign(fabric.edgeCount(), {});
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const Edge &e = g[*it];
        m_capacity[2 * e.index] = m_capacity[2 * e.index + 1] = e.capacityGBps;
        m_latency[2 * e.index] = m_latency[2 * e.index + 1] = e.latencyUs;
        m_label[e.index] = &e;
    }
}

bool Router::passable(Vertex v, Mode mode, const std::string &host) const
{
    const Node &n = m_fabric.node(v);
    switch (mode) {
    case Mode::HostPcie:
        return n.type == NodeType::PcieSwitch
               || ((n.type == NodeType::Memory || n.type == NodeType::Socket) && n.owner == host);
    case Mode::PeerPcie:
        return n.type == NodeType::PcieSwitch || (n.type == NodeType::Socket && n.owner == host);
    case Mode::Nvlink:
        return n.type == NodeType::NvSwitch;
    case Mode::Network:
        return n.type == NodeType::NetworkSwitch;
    }
    return false;
}

// Breadth-first search from all sources at once; records for each reached vertex the edge it was
// reached by. Vertices that are not passable are reached but not expanded (end points).
void Router::bfs(const std::vector<Vertex> &sources, Mode mode, const std::string &host)
{
    const Graph &g = m_fabric.graph();
    if (++m_current == 0) {
        std::fill(m_stamp.begin(), m_stamp.end(), 0);
        m_current = 1;
    }
    m_queue.clear();
    for (Vertex s : sources) {
        m_stamp[s] = m_current;
        m_hasVia[s] = false;
        m_queue.push_back(s);
    }
    for (std::size_t head = 0; head < m_queue.size(); ++head) {
        const Vertex u = m_queue[head];
        const bool isSource = head < sources.size();
        if (!isSource && !passable(u, mode, host))
            continue;
        for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
            const EdgeType t = g[*it].type;
            const bool edgeOk
                = mode == Mode::Nvlink    ? t == EdgeType::Nvlink
                  : mode == Mode::Network ? t == EdgeType::Network
                  : mode == Mode::HostPcie
                      ? (t == EdgeType::Pcie || t == EdgeType::InterSocket || t == EdgeType::Memory)
                      : (t == EdgeType::Pcie || t == EdgeType::InterSocket);
            if (!edgeOk)
                continue;
            const Vertex v = boost::target(*it, g);
            if (m_stamp[v] == m_current)
                continue;
            m_stamp[v] = m_current;
            m_via[v] = *it;
            m_hasVia[v] = true;
            m_queue.push_back(v);
        }
    }
}

Route Router::extract(Vertex target, RouteKind kind) const
{
    Route r;
    const Graph &g = m_fabric.graph();
    if (m_stamp[target] != m_current)
        return r;
    r.kind = kind;
    std::vector<std::size_t> resources;
    Vertex at = target;
    r.nodes.push_back(at);
    while (m_hasVia[at]) {
        const EdgeId e = m_via[at];
        const Vertex prev = boost::source(e, g) == at ? boost::target(e, g) : boost::source(e, g);
        // The transfer runs prev -> at; forward when the edge was added from prev.
        resources.push_back(2 * g[e].index + (g[e].first == prev ? 0 : 1));
        at = prev;
        r.nodes.push_back(at);
    }
    std::reverse(r.nodes.begin(), r.nodes.end());
    std::reverse(resources.begin(), resources.end());
    r.resources = std::move(resources);
    return r;
}

namespace {

// Fills bandwidth (narrowest edge) and latency (edges, intermediate hops, DMA set-up).
void measure(Route &r, const Fabric &f, const std::vector<double> &cap)
{
    if (r.kind == RouteKind::None)
        return;
    const Graph &g = f.graph();
    r.GBps = std::numeric_limits<double>::infinity();
    for (std::size_t res : r.resources) {
        if (cap[res] < r.GBps) {
            r.GBps = cap[res];
            r.bottleneck = res;
        }
    }
    if (r.resources.empty())
        r.GBps = 0;
    double latency = f.catalog().routing().dmaSetupLatencyUs;
    for (std::size_t i = 1; i + 1 < r.nodes.size(); ++i)
        latency += g[r.nodes[i]].hopLatencyUs;
    r.latencyUs = latency;
}

} // namespace

std::string Router::resourceLabel(std::size_t resource) const
{
    const Edge &e = *m_label.at(resource / 2);
    const Graph &g = m_fabric.graph();
    const std::string &a = g[Vertex(e.first)].id;
    // The other end: look it up from the first vertex's incident edges.
    std::string b;
    for (auto [o, oend] = boost::out_edges(Vertex(e.first), g); o != oend; ++o) {
        if (g[*o].index == e.index) {
            b = g[boost::target(*o, g)].id;
            break;
        }
    }
    return (resource % 2 ? b + " -> " + a : a + " -> " + b) + " (" + e.what + ")";
}

void Router::finish(Route &r) const
{
    measure(r, m_fabric, m_capacity);
    for (std::size_t res : r.resources)
        r.latencyUs += m_latency[res];
}

std::vector<Route> Router::hostToDevices(const std::string &host,
                                         const std::vector<std::string> &devices)
{
    bfs(m_fabric.memories(host), Mode::HostPcie, host);
    std::vector<Route> out;
    for (const auto &d : devices) {
        Route r = m_fabric.has(d) ? extract(m_fabric.vertex(d), RouteKind::HostToDevice) : Route{};
        finish(r);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<Route> Router::devicesToHost(const std::string &host,
                                         const std::vector<std::string> &devices)
{
    std::vector<Route> out = hostToDevices(host, devices);
    const std::vector<double> &cap = m_capacity;
    for (Route &r : out) {
        if (r.kind == RouteKind::None)
            continue;
        std::reverse(r.nodes.begin(), r.nodes.end());
        std::reverse(r.resources.begin(), r.resources.end());
        for (std::size_t &res : r.resources)
            res ^= 1u; // the other direction of the same edge
        r.kind = RouteKind::DeviceToHost;
        r.GBps = std::numeric_limits<double>::infinity();
        for (std::size_t res : r.resources) {
            if (cap[res] < r.GBps) {
                r.GBps = cap[res];
                r.bottleneck = res;
            }
        }
    }
    return out;
}

std::vector<Route> Router::gpuLinkPeers(const std::string &host, const std::string &from,
                                        const std::vector<std::string> &peers)
{
    std::vector<Route> out(peers.size());
    if (!m_fabric.has(from))
        return out;
    bfs({m_fabric.vertex(from)}, Mode::Nvlink, host);
    for (std::size_t i = 0; i < peers.size(); ++i) {
        if (m_fabric.has(peers[i])) {
            out[i] = extract(m_fabric.vertex(peers[i]), RouteKind::Nvlink);
            finish(out[i]);
        }
    }
    return out;
}

std::vector<Route> Router::peers(const std::string &host, const std::string &from,
                                 const std::vector<std::string> &peers)
{
    std::vector<Route> out(peers.size());
    if (!m_fabric.has(from))
        return out;
    const catalog::Routing &routing = m_fabric.catalog().routing();
    const Vertex source = m_fabric.vertex(from);
    std::vector<Route> nvlink = gpuLinkPeers(host, from, peers);
    bfs({source}, Mode::PeerPcie, host);
    const Graph &g = m_fabric.graph();
    for (std::size_t i = 0; i < peers.size(); ++i) {
        Route r;
        if (m_fabric.has(peers[i])) {
            r = extract(m_fabric.vertex(peers[i]), RouteKind::PcieSwitch);
            int sockets = 0;
            for (Vertex v : r.nodes)
                sockets += g[v].type == NodeType::Socket ? 1 : 0;
            if (sockets == 1)
                r.kind = RouteKind::RootComplex;
            else if (sockets > 1)
                r.kind = RouteKind::StagedViaHost;
        }
        finish(r);
        if (r.kind == RouteKind::RootComplex)
            r.factor = routing.p2pViaRootComplex;
        if (r.kind == RouteKind::StagedViaHost) {
            r.factor = routing.stagedViaHost;
            r.latencyUs += routing.stagedLatencyUs;
        }
        r.GBps *= r.factor;
        // NVLink where it is there, unless PCIe carries more (a single link of an old bridge
        // against a Gen5 switch): the driver's and NCCL's path choice, and more bandwidth is
        // never slower.
        const bool useNvlink = nvlink[i].kind != RouteKind::None
                               && (r.kind == RouteKind::None || nvlink[i].GBps >= r.GBps);
        out[i] = useNvlink ? std::move(nvlink[i]) : std::move(r);
    }
    return out;
}

Route Router::network(const std::string &fromNic, const std::string &toNic)
{
    if (!m_fabric.has(fromNic) || !m_fabric.has(toNic))
        return {};
    bfs({m_fabric.vertex(fromNic)}, Mode::Network, {});
    Route r = extract(m_fabric.vertex(toNic), RouteKind::Network);
    finish(r);
    return r;
}

} // namespace clab::fabric
