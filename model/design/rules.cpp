#include "design/rules.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace clab::design {

using catalog::Catalog;
using catalog::Kind;
using catalog::LinkFamily;

const char *severityName(Severity severity)
{
    return severity == Severity::Error ? "error" : "warning";
}

namespace {

// "nvlink3" as a person says it ("NVLink 3"); other GPU links (AMD's "xgmi-mi300") by their id.
std::string gpuLinkWords(const std::string &id)
{
    return id.rfind("nvlink", 0) == 0 ? "NVLink " + id.substr(6) : id;
}

std::string joinSuggestions(const std::vector<std::string> &names)
{
    if (names.empty())
        return "";
    std::string out = " (did you mean ";
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + quoted(names[i]);
    return out + "?)";
}

class Checker
{
public:
    Checker(const Design &d, const Catalog &c)
        : m_d(d)
        , m_index(d)
        , m_c(c)
    {
        buildPcieAdjacency();
    }

    std::vector<Finding> run()
    {
        checkIds();
        checkModels();
        checkSlots();
        checkLinks();
        checkSystems();
        return std::move(m_findings);
    }

private:
    void add(Severity s, std::string message, std::vector<std::string> items)
    {
        m_findings.push_back({s, std::move(message), std::move(items)});
    }

    void checkIds()
    {
        std::map<std::string, int> seen;
        auto note = [&](const std::string &id) { ++seen[id]; };
        for (const auto &h : m_d.hosts)
            note(h.id);
        for (const auto &c : m_d.chassis)
            note(c.id);
        for (const auto &s : m_d.switches)
            note(s.id);
        for (const auto &dev : m_d.devices)
            note(dev.id);
        for (const auto &[id, n] : seen) {
            if (n > 1)
                add(Severity::Error,
                    "id " + quoted(id) + " is used by " + std::to_string(n)
                        + " items; ids must be unique",
                    {id});
        }
    }

    void model(const std::string &id, const std::string &model, const std::vector<Kind> &kinds,
               const char *what)
    {
        const auto kind = m_c.kindOf(model);
        if (kind && std::find(kinds.begin(), kinds.end(), *kind) != kinds.end())
            return;
        if (kind) {
            add(Severity::Error,
                quoted(id) + " is a " + what + ", but its model " + quoted(model) + " is a "
                    + catalog::kindName(*kind) + " in the catalog",
                {id});
            return;
        }
        add(Severity::Error,
            quoted(id) + ": unknown " + what + " model " + quoted(model)
                + joinSuggestions(m_c.suggest(model, kinds)),
            {id});
    }

    void checkModels()
    {
        for (const auto &h : m_d.hosts)
            model(h.id, h.model, {Kind::Host}, "host");
        for (const auto &c : m_d.chassis)
            model(c.id, c.model, {Kind::Chassis}, "chassis");
        for (const auto &s : m_d.switches)
            model(s.id, s.model, {Kind::PcieSwitch, Kind::NetworkSwitch, Kind::NvSwitch}, "switch");
        for (const auto &dev : m_d.devices)
            model(dev.id, dev.model, {Kind::Gpu, Kind::Nvme, Kind::Nic}, "device");
    }

    void checkSlots()
    {
        std::map<std::string, std::map<int, std::string>> filled;
        std::map<std::string, int> counts;
        for (const auto &dev : m_d.devices) {
            if (dev.chassis.empty())
                continue;
            const Chassis *ch = m_index.chassis(dev.chassis);
            if (!ch) {
                add(Severity::Error,
                    quoted(dev.id) + " sits in chassis " + quoted(dev.chassis)
                        + ", which is not in the design",
                    {dev.id});
                continue;
            }
            const catalog::Chassis *spec = m_c.chassis(ch->model);
            ++counts[ch->id];
            if (spec && (dev.slot < 0 || dev.slot >= spec->slots)) {
                add(Severity::Error,
                    quoted(dev.id) + " is in slot " + std::to_string(dev.slot) + " of "
                        + quoted(ch->id) + ", which has slots 0 to "
                        + std::to_string(spec->slots - 1),
                    {dev.id, ch->id});
                continue;
            }
            auto [it, inserted] = filled[ch->id].emplace(dev.slot, dev.id);
            if (!inserted)
                add(Severity::Error,
                    "slot " + std::to_string(dev.slot) + " of " + quoted(ch->id)
                        + " is filled twice: by " + quoted(it->second) + " and " + quoted(dev.id),
                    {it->second, dev.id, ch->id});
        }
        for (const auto &ch : m_d.chassis) {
            const catalog::Chassis *spec = m_c.chassis(ch.model);
            if (spec && counts[ch.id] > spec->slots)
                add(Severity::Error,
                    quoted(ch.id) + " holds " + std::to_string(counts[ch.id]) + " devices but a "
                        + spec->name + " has only " + std::to_string(spec->slots) + " slots",
                    {ch.id});
        }
        checkChassisSwitchLanes(filled);
    }

    void checkChassisSwitchLanes(const std::map<std::string, std::map<int, std::string>> &filled)
    {
        for (const auto &ch : m_d.chassis) {
            const catalog::Chassis *spec = m_c.chassis(ch.model);
            const catalog::PcieSwitch *sw = spec ? m_c.pcieSwitch(spec->switchModel) : nullptr;
            if (!sw)
                continue;
            std::vector<int> lanes(spec->switchCount(), 0);
            if (auto it = filled.find(ch.id); it != filled.end()) {
                for (const auto &[slot, devId] : it->second)
                    lanes[spec->switchOfSlot[slot]]
                        += std::min(spec->slotLanes, deviceLanes(devId));
            }
            for (int p = 0; p < spec->hostPorts; ++p)
                lanes[spec->switchOfHostPort[p]] += 16;
            for (const auto &l : spec->interSwitch) {
                lanes[l[0]] += l[2];
                lanes[l[1]] += l[2];
            }
            for (std::size_t s = 0; s < lanes.size(); ++s) {
                if (lanes[s] > sw->lanes)
                    add(Severity::Error,
                        "switch " + std::to_string(s) + " of " + quoted(ch.id) + " needs "
                            + std::to_string(lanes[s]) + " lanes but a " + sw->name + " has "
                            + std::to_string(sw->lanes),
                        {ch.id});
            }
        }
    }

    int deviceLanes(const std::string &id) const
    {
        const Device *dev = m_index.device(id);
        if (!dev)
            return 0;
        if (const auto *g = m_c.gpu(dev->model))
            return g->pcie.lanes;
        if (const auto *n = m_c.nvme(dev->model))
            return n->pcie.lanes;
        if (const auto *n = m_c.nic(dev->model))
            return n->pcie.lanes;
        return 0;
    }

    std::string linkName(std::size_t i) const
    {
        const Link &l = m_d.links[i];
        return "link " + (l.id.empty() ? std::to_string(i) : l.id) + " (" + l.from + " to " + l.to
               + ", " + l.kind + ")";
    }

    void checkLinks()
    {
        // Sums in long long: a design built in code may carry any count, and an overflowing int
        // would hide an over-budget finding.
        std::map<std::string, long long> socketLanes; // "host/cpuN" -> lanes used
        std::map<std::string, long long> switchLanes; // pcie switch id -> lanes used
        std::map<std::string, long long> switchPorts;
        std::map<std::string, long long> nvlinksAtGpu;
        std::map<std::pair<std::string, std::string>, long long> linksGpuToNvSwitch;
        std::map<std::string, std::set<std::string>> gpusAtNvSwitch;
        std::map<std::string, std::string> chassisPortOwner;
        for (std::size_t i = 0; i < m_d.links.size(); ++i) {
            const Link &l = m_d.links[i];
            const ResolvedEndpoint a = resolveEndpoint(m_index, m_c, l.from);
            const ResolvedEndpoint b = resolveEndpoint(m_index, m_c, l.to);
            const std::vector<std::string> items
                = {splitEndpoint(l.from).item, splitEndpoint(l.to).item};
            bool ok = true;
            for (const auto *e : {&a, &b}) {
                if (e->kind == PortKind::None) {
                    add(Severity::Error, linkName(i) + ": " + e->error, items);
                    ok = false;
                }
            }
            const catalog::LinkKind *kind = m_c.link(l.kind);
            if (!kind || kind->family == LinkFamily::Socket) {
                add(Severity::Error,
                    linkName(i) + ": unknown link kind " + quoted(l.kind)
                        + joinSuggestions(m_c.suggest(l.kind, {Kind::Link})),
                    items);
                continue;
            }
            if (!ok)
                continue;
            if (!compatible(i, *kind, a, b, items))
                continue;
            const long long lanes = static_cast<long long>(kind->lanes) * l.count;
            for (const auto &[end, res] : {std::pair{l.from, a}, std::pair{l.to, b}}) {
                const Endpoint ep = splitEndpoint(end);
                if (kind->family == LinkFamily::Pcie && res.kind == PortKind::HostSocket)
                    socketLanes[ep.item + "/cpu" + std::to_string(res.index)] += lanes;
                if (kind->family == LinkFamily::Pcie && res.kind == PortKind::PcieSwitch) {
                    switchLanes[ep.item] += lanes;
                    switchPorts[ep.item] += 1;
                }
                if (res.kind == PortKind::ChassisPort) {
                    const std::string port = ep.item + "/up" + std::to_string(res.index);
                    const std::string other = end == l.from ? l.to : l.from;
                    auto [it, inserted] = chassisPortOwner.emplace(port, other);
                    if (!inserted)
                        add(Severity::Error,
                            "host port " + port + " is cabled twice: to " + it->second + " and to "
                                + other,
                            items);
                }
                if (kind->family == LinkFamily::Nvlink && res.kind == PortKind::Gpu)
                    nvlinksAtGpu[ep.item] += l.count;
            }
            if (kind->family == LinkFamily::Nvlink) {
                if (a.kind == PortKind::NvSwitch) {
                    gpusAtNvSwitch[items[0]].insert(items[1]);
                    linksGpuToNvSwitch[{items[1], items[0]}] += l.count;
                }
                if (b.kind == PortKind::NvSwitch) {
                    gpusAtNvSwitch[items[1]].insert(items[0]);
                    linksGpuToNvSwitch[{items[0], items[1]}] += l.count;
                }
            }
        }
        checkBudgets(socketLanes, switchLanes, switchPorts, nvlinksAtGpu, gpusAtNvSwitch);
        for (const auto &[pairIds, links] : linksGpuToNvSwitch) {
            const catalog::NvSwitch *spec = m_c.nvSwitch(m_index.findSwitch(pairIds.second)->model);
            if (spec && links > spec->linksPerGpu)
                add(Severity::Error,
                    quoted(pairIds.first) + " has " + std::to_string(links) + " NVLink links to "
                        + quoted(pairIds.second) + ", but a " + spec->name + " has "
                        + std::to_string(spec->linksPerGpu) + " per GPU",
                    {pairIds.first, pairIds.second});
        }
    }

    bool compatible(std::size_t i, const catalog::LinkKind &kind, const ResolvedEndpoint &a,
                    const ResolvedEndpoint &b, const std::vector<std::string> &items)
    {
        auto refuse = [&](const std::string &why) {
            add(Severity::Error, linkName(i) + ": " + why, items);
            return false;
        };
        const std::string pair = std::string(portKindName(a.kind)) + " and " + portKindName(b.kind);
        switch (kind.family) {
        case LinkFamily::Pcie:
            if (!pcieCompatible(a.kind, b.kind))
                return refuse("a PCIe link cannot join " + pair
                              + " (devices go into chassis slots or hang below a socket or "
                                "PCIe switch)");
            return true;
        case LinkFamily::Nvlink: {
            const bool ok = (a.kind == PortKind::Gpu && b.kind == PortKind::Gpu)
                            || (a.kind == PortKind::Gpu && b.kind == PortKind::NvSwitch)
                            || (a.kind == PortKind::NvSwitch && b.kind == PortKind::Gpu);
            if (!ok)
                return refuse("NVLink joins two GPUs or a GPU and an NVSwitch, not " + pair);
            for (const auto &end : items) {
                const Switch *sw = m_index.findSwitch(end);
                const catalog::NvSwitch *nvs = sw ? m_c.nvSwitch(sw->model) : nullptr;
                if (nvs && nvs->nvlinkGen != kind.gen)
                    return refuse(quoted(end) + " (" + nvs->name + ") is an NVLink "
                                  + std::to_string(nvs->nvlinkGen) + " switch; it takes no NVLink "
                                  + std::to_string(kind.gen));
                const Device *dev = m_index.device(end);
                const catalog::Gpu *g = dev ? m_c.gpu(dev->model) : nullptr;
                if (g && g->peerLink.empty())
                    return refuse("NVLink between GPUs that have none: " + quoted(end) + " ("
                                  + g->name + ") has no NVLink");
                if (g && g->peerLink != kind.id)
                    return refuse(quoted(end) + " (" + g->name + ") speaks "
                                  + gpuLinkWords(g->peerLink) + ", not " + gpuLinkWords(kind.id));
            }
            return true;
        }
        case LinkFamily::Infiniband:
        case LinkFamily::Ethernet: {
            const bool ok = (a.kind == PortKind::Nic || a.kind == PortKind::NetworkSwitch)
                            && (b.kind == PortKind::Nic || b.kind == PortKind::NetworkSwitch);
            if (!ok)
                return refuse("a network cable joins NICs and network switches, not " + pair);
            const std::string family = catalog::linkFamilyName(kind.family);
            for (const auto &end : items) {
                if (const Switch *s = m_index.findSwitch(end)) {
                    const catalog::NetworkSwitch *ns = m_c.networkSwitch(s->model);
                    if (ns && ns->family != family)
                        return refuse(quoted(end) + " is an " + ns->family + " switch; it takes no "
                                      + family + " cable");
                }
                if (const Device *dev = m_index.device(end)) {
                    const catalog::Nic *nic = m_c.nic(dev->model);
                    if (nic
                        && std::find(nic->protocols.begin(), nic->protocols.end(), family)
                               == nic->protocols.end())
                        return refuse(quoted(end) + " (" + nic->name + ") does not speak "
                                      + family);
                }
            }
            return true;
        }
        case LinkFamily::Socket:
            return false;
        }
        return false;
    }

    void checkBudgets(const std::map<std::string, long long> &socketLanes,
                      const std::map<std::string, long long> &switchLanes,
                      const std::map<std::string, long long> &switchPorts,
                      const std::map<std::string, long long> &nvlinksAtGpu,
                      const std::map<std::string, std::set<std::string>> &gpusAtNvSwitch)
    {
        for (const auto &[port, lanes] : socketLanes) {
            const Host *h = m_index.host(splitEndpoint(port).item);
            const catalog::Host *spec = h ? m_c.host(h->model) : nullptr;
            if (spec && lanes > spec->lanesPerSocket)
                add(Severity::Error,
                    "root ports of " + port + " carry " + std::to_string(lanes)
                        + " PCIe lanes, over the " + std::to_string(spec->lanesPerSocket)
                        + " lanes a " + spec->cpu + " socket has",
                    {h->id});
        }
        for (const auto &[id, lanes] : switchLanes) {
            const catalog::PcieSwitch *spec = m_c.pcieSwitch(m_index.findSwitch(id)->model);
            if (lanes > spec->lanes)
                add(Severity::Error,
                    "PCIe switch " + quoted(id) + " carries " + std::to_string(lanes)
                        + " lanes, over the " + std::to_string(spec->lanes) + " a " + spec->name
                        + " has",
                    {id});
            if (switchPorts.at(id) > spec->ports)
                add(Severity::Error,
                    "PCIe switch " + quoted(id) + " has " + std::to_string(switchPorts.at(id))
                        + " links, over its " + std::to_string(spec->ports) + " ports",
                    {id});
        }
        for (const auto &[id, links] : nvlinksAtGpu) {
            const catalog::Gpu *g = m_c.gpu(m_index.device(id)->model);
            if (g && links > g->peerLinks)
                add(Severity::Error,
                    quoted(id) + " has " + std::to_string(links) + " "
                        + (g->peerLink.rfind("nvlink", 0) == 0 ? std::string("NVLink")
                                                               : gpuLinkWords(g->peerLink))
                        + " links attached, but a " + g->name + " has "
                        + std::to_string(g->peerLinks),
                    {id});
        }
        for (const auto &[id, gpus] : gpusAtNvSwitch) {
            const catalog::NvSwitch *spec = m_c.nvSwitch(m_index.findSwitch(id)->model);
            if (spec && static_cast<int>(gpus.size()) > spec->gpus)
                add(Severity::Error,
                    quoted(id) + " joins " + std::to_string(gpus.size()) + " GPUs, but a "
                        + spec->name + " has room for " + std::to_string(spec->gpus),
                    {id});
        }
    }

    void buildPcieAdjacency()
    {
        for (const auto &l : m_d.links) {
            const catalog::LinkKind *k = m_c.link(l.kind);
            if (!k || k->family != LinkFamily::Pcie) {
                m_otherLinks.insert(itemOf(l.from));
                m_otherLinks.insert(itemOf(l.to));
                continue;
            }
            const std::string_view a = itemOf(l.from);
            const std::string_view b = itemOf(l.to);
            m_pcieAdjacency[a].push_back(b);
            m_pcieAdjacency[b].push_back(a);
        }
        for (const auto &dev : m_d.devices) {
            if (!dev.chassis.empty()) {
                m_pcieAdjacency[dev.chassis].push_back(dev.id);
                m_pcieAdjacency[dev.id].push_back(dev.chassis);
            }
        }
    }

    static std::string_view itemOf(const std::string &endpoint)
    {
        const std::string_view e = endpoint;
        return e.substr(0, e.find('/'));
    }

    // Items reachable from a host over PCIe (links and chassis), never through another host
    // and never through a device (devices are leaves of the PCIe tree).
    std::unordered_set<std::string_view> pcieReach(std::string_view hostId) const
    {
        std::unordered_set<std::string_view> seen = {hostId};
        std::vector<std::string_view> todo = {hostId};
        while (!todo.empty()) {
            const std::string_view at = todo.back();
            todo.pop_back();
            if (at != hostId && (m_index.host(at) || m_index.device(at)))
                continue;
            const auto it = m_pcieAdjacency.find(at);
            if (it == m_pcieAdjacency.end())
                continue;
            for (std::string_view next : it->second) {
                if (seen.insert(next).second)
                    todo.push_back(next);
            }
        }
        return seen;
    }

    void checkSystems()
    {
        std::map<std::string, std::pair<std::string, std::string>>
            composedTo; // dev -> host, system
        std::set<std::string> names;
        for (const auto &s : m_d.systems) {
            if (!names.insert(s.name).second)
                add(Severity::Error, "two composed systems are named " + quoted(s.name), {});
            const Host *h = m_index.host(s.host);
            if (!h) {
                add(Severity::Error,
                    "system " + quoted(s.name) + " is composed on host " + quoted(s.host)
                        + ", which is not in the design",
                    {});
                continue;
            }
            const auto reach = pcieReach(h->id);
            int gpus = 0;
            std::set<std::string> listed;
            for (const auto &id : s.devices) {
                const Device *dev = m_index.device(id);
                if (!dev) {
                    add(Severity::Error,
                        "system " + quoted(s.name) + " lists device " + quoted(id)
                            + ", which is not in the design",
                        {h->id});
                    continue;
                }
                if (!listed.insert(id).second) {
                    add(Severity::Warning,
                        "system " + quoted(s.name) + " lists " + quoted(id) + " twice", {id});
                    continue;
                }
                if (m_c.gpu(dev->model))
                    ++gpus;
                auto [it, inserted] = composedTo.emplace(id, std::pair{h->id, s.name});
                if (!inserted && it->second.first != h->id)
                    add(Severity::Error,
                        quoted(id) + " is composed to two hosts: " + quoted(it->second.first)
                            + " (system " + quoted(it->second.second) + ") and " + quoted(h->id)
                            + " (system " + quoted(s.name) + ")",
                        {id, it->second.first, h->id});
                else if (!inserted)
                    add(Severity::Error,
                        quoted(id) + " is in two systems on host " + quoted(h->id) + ": "
                            + quoted(it->second.second) + " and " + quoted(s.name),
                        {id});
                if (!reach.count(id))
                    add(Severity::Error,
                        quoted(id) + " is composed to " + quoted(h->id)
                            + " but has no PCIe path to it (cable the chassis "
                              "to the host, or link the device below it)",
                        {id, h->id});
            }
            if (gpus == 0)
                add(Severity::Warning, "system " + quoted(s.name) + " has no GPU", {h->id});
        }
        for (const auto &dev : m_d.devices) {
            if (dev.chassis.empty() && !composedTo.count(dev.id)) {
                const bool linked = m_pcieAdjacency.count(dev.id) || m_otherLinks.count(dev.id);
                if (!linked)
                    add(Severity::Warning,
                        quoted(dev.id)
                            + " is neither in a chassis nor linked to "
                              "anything",
                        {dev.id});
            }
        }
    }

    const Design &m_d;
    const DesignIndex m_index;
    const Catalog &m_c;
    std::unordered_map<std::string_view, std::vector<std::string_view>> m_pcieAdjacency;
    std::unordered_set<std::string_view> m_otherLinks; // items with NVLink or network links
    std::vector<Finding> m_findings;
};

} // namespace

std::vector<Finding> checkDesign(const Design &design, const Catalog &catalog)
{
    return Checker(design, catalog).run();
}

} // namespace clab::design
