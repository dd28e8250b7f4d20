#include "fabric/fabric.h"

#include "catalog/catalog.h"
#include "design/rules.h"

#include <algorithm>

namespace clab::fabric {

using catalog::LinkFamily;

namespace {

std::string pcieName(int gen, int lanes)
{
    return "PCIe Gen" + std::to_string(gen) + " x" + std::to_string(lanes);
}

} // namespace

Fabric::Fabric(const design::Design &design, const catalog::Catalog &catalog)
    : m_design(design)
    , m_index(design)
    , m_catalog(catalog)
{
    addHosts();
    addChassis();
    addSwitches();
    addDevices();
    addLinks();
}

Vertex Fabric::addNode(Node node)
{
    const std::string id = node.id;
    const auto [it, inserted] = m_vertex.emplace(id, 0);
    if (inserted)
        it->second = boost::add_vertex(std::move(node), m_graph);
    return it->second;
}

void Fabric::addEdge(Vertex a, Vertex b, EdgeType type, double capacity, double latency,
                     const std::string &what)
{
    Edge e;
    e.type = type;
    e.capacityGBps = capacity;
    e.latencyUs = latency;
    e.what = what;
    e.index = m_edgeCount++;
    e.first = a;
    boost::add_edge(a, b, std::move(e), m_graph);
}

std::vector<Vertex> Fabric::memories(const std::string &hostId) const
{
    std::vector<Vertex> out;
    const design::Host *h = m_index.host(hostId);
    const catalog::Host *spec = h ? m_catalog.host(h->model) : nullptr;
    for (int s = 0; spec && s < spec->sockets; ++s) {
        const auto it = m_vertex.find(hostId + "/mem" + std::to_string(s));
        if (it != m_vertex.end())
            out.push_back(it->second);
    }
    return out;
}

void Fabric::addHosts()
{
    const double rcLatency = m_catalog.routing().rootComplexLatencyUs;
    for (const auto &h : m_design.hosts) {
        const catalog::Host *spec = m_catalog.host(h.model);
        if (!spec || m_vertex.count(h.id + "/cpu0"))
            continue;
        for (int s = 0; s < spec->sockets; ++s) {
            const std::string n = std::to_string(s);
            const Vertex mem = addNode({h.id + "/mem" + n, NodeType::Memory, h.id, 0});
            const Vertex cpu = addNode({h.id + "/cpu" + n, NodeType::Socket, h.id, rcLatency});
            addEdge(mem, cpu, EdgeType::Memory, spec->memBwGBpsPerSocket, 0, "memory, peak");
        }
        const catalog::LinkKind *is = m_catalog.link(spec->interSocketLink);
        for (int s = 0; is && s + 1 < spec->sockets; ++s) {
            addEdge(m_vertex.at(h.id + "/cpu" + std::to_string(s)),
                    m_vertex.at(h.id + "/cpu" + std::to_string(s + 1)), EdgeType::InterSocket,
                    is->achievedGBps(spec->interSocketCount), is->latencyUs,
                    std::to_string(spec->interSocketCount) + "x " + is->name);
        }
    }
}

void Fabric::addChassis()
{
    for (const auto &ch : m_design.chassis) {
        const catalog::Chassis *spec = m_catalog.chassis(ch.model);
        const catalog::PcieSwitch *sw = spec ? m_catalog.pcieSwitch(spec->switchModel) : nullptr;
        if (!sw || m_vertex.count(ch.id + "/sw0"))
            continue;
        for (int s = 0; s < spec->switchCount(); ++s)
            addNode({ch.id + "/sw" + std::to_string(s), NodeType::PcieSwitch, ch.id,
                     sw->hopLatencyNs / 1000.0});
        for (const auto &l : spec->interSwitch) {
            const catalog::LinkKind *k = m_catalog.pcieLink(spec->pcieGen, l[2]);
            if (!k)
                continue;
            addEdge(m_vertex.at(ch.id + "/sw" + std::to_string(l[0])),
                    m_vertex.at(ch.id + "/sw" + std::to_string(l[1])), EdgeType::Pcie,
                    k->achievedGBps(), k->latencyUs, pcieName(spec->pcieGen, l[2]));
        }
    }
}

void Fabric::addSwitches()
{
    for (const auto &s : m_design.switches) {
        if (m_vertex.count(s.id))
            continue;
        if (const auto *p = m_catalog.pcieSwitch(s.model))
            addNode({s.id, NodeType::PcieSwitch, {}, p->hopLatencyNs / 1000.0});
        else if (const auto *n = m_catalog.networkSwitch(s.model))
            addNode({s.id, NodeType::NetworkSwitch, {}, n->latencyNs / 1000.0});
        else if (m_catalog.nvSwitch(s.model))
            addNode({s.id, NodeType::NvSwitch, {}, 0});
    }
}

void Fabric::addDevices()
{
    for (const auto &d : m_design.devices) {
        if (m_vertex.count(d.id))
            continue;
        NodeType type;
        if (m_catalog.gpu(d.model))
            type = NodeType::Gpu;
        else if (m_catalog.nvme(d.model))
            type = NodeType::Nvme;
        else if (m_catalog.nic(d.model))
            type = NodeType::Nic;
        else
            continue;
        const Vertex v = addNode({d.id, type, {}, 0});
        if (d.chassis.empty())
            continue;
        const design::Chassis *ch = m_index.chassis(d.chassis);
        const catalog::Chassis *spec = ch ? m_catalog.chassis(ch->model) : nullptr;
        if (!spec || d.slot < 0 || d.slot >= spec->slots)
            continue;
        const auto sw = m_vertex.find(ch->id + "/sw" + std::to_string(spec->switchOfSlot[d.slot]));
        if (sw == m_vertex.end())
            continue;
        // The slot link trains to the lower generation and the narrower width of its two ends.
        const int gen = std::min(spec->pcieGen, pcieGenOf(d.id));
        const int lanes = std::min(spec->slotLanes, pcieLanesOf(d.id));
        if (const catalog::LinkKind *k = m_catalog.pcieLink(gen, lanes))
            addEdge(sw->second, v, EdgeType::Pcie, k->achievedGBps(), k->latencyUs,
                    "slot " + std::to_string(d.slot) + ", " + pcieName(gen, lanes));
    }
}

int Fabric::pcieGenOf(const std::string &endpoint) const
{
    const std::string item = design::splitEndpoint(endpoint).item;
    if (const auto *h = m_index.host(item))
        return m_catalog.host(h->model)->pcieGen;
    if (const auto *c = m_index.chassis(item))
        return m_catalog.chassis(c->model)->pcieGen;
    if (const auto *s = m_index.findSwitch(item))
        return m_catalog.pcieSwitch(s->model)->gen;
    if (const auto *d = m_index.device(item)) {
        if (const auto *g = m_catalog.gpu(d->model))
            return g->pcie.gen;
        if (const auto *n = m_catalog.nvme(d->model))
            return n->pcie.gen;
        if (const auto *n = m_catalog.nic(d->model))
            return n->pcie.gen;
    }
    return 99;
}

int Fabric::pcieLanesOf(const std::string &item) const
{
    if (const auto *d = m_index.device(item)) {
        if (const auto *g = m_catalog.gpu(d->model))
            return g->pcie.lanes;
        if (const auto *n = m_catalog.nvme(d->model))
            return n->pcie.lanes;
        if (const auto *n = m_catalog.nic(d->model))
            return n->pcie.lanes;
    }
    return 99;
}

void Fabric::addLinks()
{
    using design::PortKind;
    for (const auto &l : m_design.links) {
        const catalog::LinkKind *kind = m_catalog.link(l.kind);
        if (!kind)
            continue;
        const design::ResolvedEndpoint a = design::resolveEndpoint(m_index, m_catalog, l.from);
        const design::ResolvedEndpoint b = design::resolveEndpoint(m_index, m_catalog, l.to);
        if (a.kind == PortKind::None || b.kind == PortKind::None)
            continue;
        auto vertexOf = [&](const std::string &endpoint, const design::ResolvedEndpoint &r) {
            const design::Endpoint ep = design::splitEndpoint(endpoint);
            std::string id = ep.item;
            if (r.kind == PortKind::HostSocket)
                id = ep.item + "/cpu" + std::to_string(r.index);
            if (r.kind == PortKind::ChassisPort) {
                const auto *spec = m_catalog.chassis(m_index.chassis(ep.item)->model);
                id = ep.item + "/sw" + std::to_string(spec->switchOfHostPort[r.index]);
            }
            const auto it = m_vertex.find(id);
            return it == m_vertex.end() ? std::optional<Vertex>() : std::optional(it->second);
        };
        const auto va = vertexOf(l.from, a);
        const auto vb = vertexOf(l.to, b);
        if (!va || !vb || *va == *vb)
            continue;
        const std::string count = l.count > 1 ? std::to_string(l.count) + "x " : "";
        switch (kind->family) {
        case LinkFamily::Pcie: {
            const int gen = std::min({kind->gen, pcieGenOf(l.from), pcieGenOf(l.to)});
            const int lanes
                = std::min({kind->lanes, pcieLanesOf(design::splitEndpoint(l.from).item),
                            pcieLanesOf(design::splitEndpoint(l.to).item)});
            const catalog::LinkKind *trained = m_catalog.pcieLink(gen, lanes);
            if (!trained)
                trained = kind;
            addEdge(*va, *vb, EdgeType::Pcie, trained->achievedGBps(l.count), trained->latencyUs,
                    count + pcieName(trained->gen, trained->lanes));
            break;
        }
        case LinkFamily::Nvlink:
            addEdge(*va, *vb, EdgeType::Nvlink, kind->achievedGBps(l.count), kind->latencyUs,
                    count + kind->name);
            break;
        case LinkFamily::Infiniband:
        case LinkFamily::Ethernet:
            addEdge(*va, *vb, EdgeType::Network, kind->achievedGBps(l.count), kind->latencyUs,
                    count + kind->name);
            break;
        case LinkFamily::Socket:
            break;
        }
    }
}

} // namespace clab::fabric
