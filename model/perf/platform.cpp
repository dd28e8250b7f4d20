#include "perf/platform.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace clab::perf {

namespace {

// The same keys as platformOf(SystemSpec) uses, so that a calibration fitted on recorded results
// applies to designs drawn on the canvas.
std::string linkKeyOf(const fabric::SystemReport &s, const design::DesignIndex &index)
{
    if (s.gpus.size() < 2)
        return "single";
    // Every pair joined directly (an AMD board's xGMI), even where one pair's PCIe switch would
    // copy a little faster on its own.
    if (s.meshPairGBps > 0)
        return "nvlink-mesh";
    std::map<fabric::RouteKind, int> kinds;
    bool viaSwitch = false;
    for (const auto &p : s.p2p) {
        ++kinds[p.kind];
        viaSwitch = viaSwitch || (p.kind == fabric::RouteKind::Nvlink && p.route.size() > 2);
    }
    if (kinds.size() == 1 && kinds.begin()->first == fabric::RouteKind::Nvlink)
        return viaSwitch ? "nvswitch" : "nvlink-mesh";
    if (kinds.count(fabric::RouteKind::Nvlink))
        return "nvlink-bridge";
    for (const auto &g : s.gpus) {
        const design::Device *d = index.device(g);
        if (d && !d->chassis.empty())
            return "composable-pcie";
    }
    return "pcie";
}

} // namespace

Platform platformOf(const design::Design &design, const fabric::Analysis &analysis,
                    std::size_t systemIndex, const catalog::Catalog &catalog)
{
    return platformOf(design::DesignIndex(design), analysis, systemIndex, catalog);
}

namespace {

// The parts of a composed system: its host, its devices, the share of each chassis its devices
// occupy, and the PCIe switches and NVSwitch baseboards reachable from them through switches
// only (shared equally by the systems that reach them). Network switches belong to the cluster.
std::vector<BillItem> billOf(const design::DesignIndex &index, std::size_t systemIndex,
                             const catalog::Catalog &catalog)
{
    std::map<std::pair<std::string, std::string>, BillItem> items;
    auto add
        = [&](const char *kind, const std::string &id, const catalog::Entry *part, double count) {
              BillItem &b = items[{kind, id}];
              b.kind = kind, b.id = id, b.part = part;
              b.count += count;
          };
    const design::Design &d = index.design();
    if (systemIndex >= d.systems.size())
        return {};
    auto isLocalSwitch = [&](std::string_view id) {
        const design::Switch *sw = index.findSwitch(id);
        return sw && !catalog.networkSwitch(sw->model);
    };
    // The switches this system reaches through switches only, a connected group at a time; each
    // is shared by the systems that touch its group. The index holds the links and owners, so
    // a canvas of a thousand systems predicts each without going through the others' links.
    const design::System &system = d.systems[systemIndex];
    std::set<std::string_view> reached;
    std::vector<std::string_view> starts(system.devices.begin(), system.devices.end());
    starts.push_back(system.host);
    for (std::string_view start : starts) {
        const auto [lo, hi] = index.linked(start);
        for (auto first = lo; first != hi; ++first) {
            if (!isLocalSwitch(first->second) || !reached.insert(first->second).second)
                continue;
            std::vector<std::string_view> group, todo{first->second};
            std::set<std::size_t> sharers;
            while (!todo.empty()) {
                const std::string_view sw = todo.back();
                todo.pop_back();
                group.push_back(sw);
                const auto [nlo, nhi] = index.linked(sw);
                for (auto it = nlo; it != nhi; ++it) {
                    if (isLocalSwitch(it->second)) {
                        if (reached.insert(it->second).second)
                            todo.push_back(it->second);
                        continue;
                    }
                    const auto [olo, ohi] = index.systemsOf(it->second);
                    for (auto o = olo; o != ohi; ++o)
                        sharers.insert(o->second);
                }
            }
            for (std::string_view id : group) {
                const design::Switch *sw = index.findSwitch(id);
                const catalog::Entry *part = catalog.pcieSwitch(sw->model);
                if (!part)
                    part = catalog.nvSwitch(sw->model);
                add("switch", sw->model, part,
                    1.0 / double(std::max<std::size_t>(1, sharers.size())));
            }
        }
    }
    if (const design::Host *h = index.host(system.host))
        add("host", h->model, catalog.host(h->model), 1);
    std::map<std::string, int> inChassis;
    for (const std::string &id : system.devices) {
        const design::Device *dev = index.device(id);
        if (!dev)
            continue;
        if (const catalog::Gpu *g = catalog.gpu(dev->model))
            add("gpu", dev->model, g, 1);
        else if (const catalog::Nic *nic = catalog.nic(dev->model))
            add("nic", dev->model, nic, 1);
        else if (const catalog::Nvme *drive = catalog.nvme(dev->model))
            add("nvme", dev->model, drive, 1);
        if (!dev->chassis.empty())
            ++inChassis[dev->chassis];
    }
    for (const auto &[id, used] : inChassis) {
        const design::Chassis *c = index.chassis(id);
        const catalog::Chassis *spec = c ? catalog.chassis(c->model) : nullptr;
        if (spec && spec->slots > 0)
            add("chassis", c->model, spec, double(used) / spec->slots);
    }
    std::vector<BillItem> out;
    for (auto &[key, item] : items)
        out.push_back(std::move(item));
    return out;
}

} // namespace

Platform platformOf(const design::DesignIndex &index, const fabric::Analysis &analysis,
                    std::size_t systemIndex, const catalog::Catalog &catalog)
{
    Platform p;
    const fabric::SystemReport &s = analysis.systems.at(systemIndex);
    if (!s.gpus.empty()) {
        // Data-parallel replicas wait for the slowest: a mixed system runs at its slowest GPU
        // (lowest 16-bit peak, then memory bandwidth, then memory).
        auto slower = [](const catalog::Gpu &a, const catalog::Gpu &b) {
            return std::tuple(a.tflops.fp16.value_or(0), a.memBwGBps, a.memGB)
                   < std::tuple(b.tflops.fp16.value_or(0), b.memBwGBps, b.memGB);
        };
        bool mixed = false;
        for (const auto &id : s.gpus) {
            const design::Device *d = index.device(id);
            const catalog::Gpu *g = d ? catalog.gpu(d->model) : nullptr;
            if (!g)
                continue;
            mixed = mixed || (p.gpu && g != p.gpu);
            if (!p.gpu || slower(*g, *p.gpu))
                p.gpu = g;
        }
        if (mixed)
            p.notes.push_back("the system mixes GPU models; its replicas wait for the slowest, "
                              + p.gpu->id + ", so the model uses it for all");
    }
    p.gpusPerNode = std::max<int>(1, int(s.gpus.size()));
    if (const design::Host *h = index.host(s.host)) {
        if (const catalog::Host *spec = catalog.host(h->model)) {
            p.hostCores = spec->sockets * spec->coresPerSocket;
            p.hostMemGB = spec->memGB;
        }
    }
    p.ringGBps = s.ringGBps;
    p.ringLatencyUs = s.ringLatencyUs;
    p.meshPairGBps = s.meshPairGBps;
    p.h2dGBps = std::numeric_limits<double>::infinity();
    for (const auto &h : s.h2d)
        p.h2dGBps = std::min(p.h2dGBps, h.concurrentGBps);
    if (s.h2d.empty())
        p.h2dGBps = 0;
    if (!s.storage.empty()) {
        p.storageGBps = 0;
        for (const auto &r : s.storage)
            p.storageGBps += r.concurrentGBps;
    }
    for (const auto &n : analysis.network) {
        if (n.from == s.name || n.to == s.name) {
            p.networkGBps = std::max(p.networkGBps, n.GBps);
            p.networkLatencyUs = n.latencyUs;
        }
    }
    if (p.networkGBps <= 0) {
        // No path to another system of the design: copies of this one (`--nodes`) reach each
        // other through its own NICs, at their line rate over a network assumed non-blocking.
        for (const std::string &id : s.nics) {
            const design::Device *dev = index.device(id);
            const catalog::Nic *nic = dev ? catalog.nic(dev->model) : nullptr;
            const catalog::LinkKind *k = nic ? catalog.link(nic->link) : nullptr;
            if (!k)
                continue;
            // No more than the PCIe link it is cabled with (a Gen5 card in a Gen4 slot).
            double slotGBps = std::numeric_limits<double>::infinity();
            for (const design::Link &l : index.design().links) {
                const catalog::LinkKind *pcie = catalog.link(l.kind);
                if (pcie && pcie->family == catalog::LinkFamily::Pcie
                    && (design::splitEndpoint(l.from).item == id
                        || design::splitEndpoint(l.to).item == id))
                    slotGBps = std::min(slotGBps, pcie->achievedGBps(l.count));
            }
            const double line = nic->ports * nic->portGbps / 8.0 * k->achievedFraction;
            p.networkGBps += std::min(line, slotGBps);
            p.networkLatencyUs = 2 * k->latencyUs + 1.0;
        }
    }
    p.linkKey = linkKeyOf(s, index);
    p.flows = s.flows;
    p.catalog = &catalog;
    p.bill = billOf(index, systemIndex, catalog);
    return p;
}

std::string defaultHostModel(int pcieGen)
{
    if (pcieGen >= 5)
        return "xeon-platinum-8480plus-2s";
    if (pcieGen == 4)
        return "epyc-7742-2s";
    return "xeon-gold-6248-2s";
}

namespace {

std::string nvswitchFor(int gen)
{
    return gen >= 4 ? "hgx-h100-8gpu" : gen == 3 ? "hgx-a100-8gpu" : "hgx2-v100-16gpu";
}

} // namespace

design::Design nodeDesign(const SystemSpec &spec, const catalog::Catalog &catalog)
{
    design::Design d;
    d.name = "node";
    const catalog::Gpu *gpu = catalog.gpu(spec.gpu);
    const int gen = spec.pcieGen > 0 ? spec.pcieGen : (gpu ? gpu->pcie.gen : 4);
    const std::string hostModel
        = !spec.host.empty() && catalog.host(spec.host) ? spec.host : defaultHostModel(gen);
    const catalog::Host *host = catalog.host(hostModel);
    const int linkGen = std::min(gen, host ? host->pcieGen : gen);
    const std::string x16 = "pcie" + std::to_string(linkGen) + "x16";
    d.hosts.push_back({"host", hostModel, {}});
    const int n = std::max(1, spec.gpusPerNode);
    design::System sys{"node", "host", {}};
    for (int i = 0; i < n; ++i) {
        d.devices.push_back({"gpu" + std::to_string(i), spec.gpu, {}, {}, -1});
        sys.devices.push_back("gpu" + std::to_string(i));
    }
    const int sockets = host ? host->sockets : 2;
    if (spec.composable) {
        // GPUs in external PCIe chassis, 16 (Gen4) or 12 (Gen5) a box, one x16 host cable per
        // socket into each box: the shape of the composable submissions and the seed testbed.
        const std::string model = linkGen >= 5 ? "h3-falcon-5012" : "h3-falcon-4016";
        const catalog::Chassis *ch = catalog.chassis(model);
        const int slots = ch ? ch->slots : 16;
        const int boxes = (n + slots - 1) / slots;
        const int uplinks = spec.chassisUplinks > 0 ? spec.chassisUplinks : sockets;
        for (int b = 0; b < boxes; ++b) {
            const std::string id = "box" + std::to_string(b);
            d.chassis.push_back({id, model, {}});
            for (int u = 0; u < uplinks && ch && u < ch->hostPorts; ++u)
                d.links.push_back({"host/cpu" + std::to_string(u % std::max(1, sockets)),
                                   id + "/up" + std::to_string(u), x16, 1});
        }
        for (int i = 0; i < n; ++i) {
            d.devices[std::size_t(i)].chassis = "box" + std::to_string(i / slots);
            d.devices[std::size_t(i)].slot = i % slots;
        }
    } else {
        // Two GPUs behind each PCIe switch, switches spread over the sockets: the common layout
        // of 4- and 8-GPU servers (DGX/HGX and most PCIe servers).
        const int switches = (n + 1) / 2;
        const std::string swModel = linkGen >= 5 ? "pex89144" : "pex88096";
        for (int s = 0; s < switches; ++s) {
            const std::string id = "plx" + std::to_string(s);
            d.switches.push_back({id, swModel, {}});
            d.links.push_back(
                {"host/cpu" + std::to_string((s * sockets) / std::max(1, switches)), id, x16, 1});
        }
        for (int i = 0; i < n; ++i)
            d.links.push_back({"plx" + std::to_string(i / 2), "gpu" + std::to_string(i), x16, 1});
    }
    const int nvGen = spec.nvlinkGen > 0 ? spec.nvlinkGen : (gpu ? gpu->nvlinkGen : 0);
    // NVLink of the generation in use, else the GPU's own links (an AMD Instinct's xGMI).
    const std::string nvKind
        = nvGen > 0 ? "nvlink" + std::to_string(nvGen) : (gpu ? gpu->peerLink : std::string());
    const int links = gpu ? gpu->peerLinks : 0;
    // AMD Instinct OAMs sit on a baseboard that joins every pair of its 8 GPUs by one link;
    // a node of more has several boards, joined over PCIe.
    const bool fullMeshBoard = gpu && gpu->formFactor == "OAM";
    const int board = links + 1;
    if (n > 1 && !nvKind.empty() && links > 0) {
        switch (spec.intraNode) {
        case IntraNode::NvSwitch:
            d.switches.push_back({"nvswitch", nvswitchFor(nvGen), {}});
            for (int i = 0; i < n; ++i)
                d.links.push_back({"gpu" + std::to_string(i), "nvswitch", nvKind, links});
            break;
        case IntraNode::NvlinkMesh:
            if (n <= 4 || fullMeshBoard) {
                // HGX 4-GPU boards join every pair directly, splitting each GPU's links evenly
                // (H100: 6 of 18 to each peer); so does an AMD Instinct board (one xGMI link to
                // each of the 7 others).
                for (int i = 0; i < n; ++i)
                    for (int j = i + 1; j < n; ++j) {
                        if (fullMeshBoard && i / board != j / board)
                            continue;
                        d.links.push_back({"gpu" + std::to_string(i), "gpu" + std::to_string(j),
                                           nvKind,
                                           fullMeshBoard ? 1 : std::max(1, links / (n - 1))});
                    }
                break;
            }
            // DGX-1's hybrid cube mesh: NCCL's rings use two links between ring neighbours.
            for (int i = 0; i < n; ++i)
                d.links.push_back({"gpu" + std::to_string(i), "gpu" + std::to_string((i + 1) % n),
                                   nvKind, std::max(1, links / 3)});
            break;
        case IntraNode::NvlinkBridge:
            for (int i = 0; i + 1 < n; i += 2)
                d.links.push_back(
                    {"gpu" + std::to_string(i), "gpu" + std::to_string(i + 1), nvKind, links});
            break;
        case IntraNode::Pcie:
        case IntraNode::Unknown:
            break;
        }
    }
    d.systems.push_back(std::move(sys));
    return d;
}

Platform platformOf(const SystemSpec &spec, const catalog::Catalog &catalog)
{
    const design::Design d = nodeDesign(spec, catalog);
    const fabric::Analysis a = fabric::analyze(d, catalog);
    Platform p = platformOf(d, a, 0, catalog);
    p.nodes = std::max(1, spec.nodes);
    if (spec.hostCoresPerNode > 0)
        p.hostCores = spec.hostCoresPerNode;
    if (p.nodes > 1) {
        const std::string link = spec.networkFamily == "ethernet" ? "eth-100g" : "ib-hdr";
        const catalog::LinkKind *k = catalog.link(link);
        const double fraction = k ? k->achievedFraction : 0.8;
        // Line rate in Gb/s to GB/s, at the fraction real transfers reach.
        p.networkGBps = spec.networkGbpsPerNode / 8.0 * fraction;
        if (p.networkGBps <= 0) {
            p.networkGBps = 25.0 * fraction * p.gpusPerNode; // one HDR port per GPU
            p.notes.push_back("network not described: assumed one 200 Gb/s port per GPU");
        }
        p.networkLatencyUs = k ? 2 * k->latencyUs + 1.0 : 5.0;
    }
    p.notes.insert(p.notes.end(), spec.notes.begin(), spec.notes.end());
    return p;
}

} // namespace clab::perf
