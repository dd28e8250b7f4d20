#include "machine/machine.h"

#include "machine/measurements.h"

#include "catalog/catalog.h"
#include "design/autolayout.h"
#include "design/edit.h"
#include "perf/platform.h"
#include "perf/systemspec.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <tuple>

namespace clab::machine {

namespace {

std::vector<std::string> linesOf(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string l(text.substr(pos, eol - pos));
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        out.push_back(std::move(l));
        pos = eol + 1;
    }
    return out;
}

std::string trim(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// A union-find over device indices: the PCIe subtrees the matrix' codes reveal.
struct Groups
{
    std::vector<std::size_t> parent;
    explicit Groups(std::size_t n)
        : parent(n)
    {
        std::iota(parent.begin(), parent.end(), 0);
    }
    std::size_t root(std::size_t i)
    {
        while (parent[i] != i)
            i = parent[i] = parent[parent[i]];
        return i;
    }
    void join(std::size_t a, std::size_t b) { parent[root(a)] = root(b); }
};

// `place` is "gpu" for the GPU model the user chose (the CLI shows it as --gpu), empty for one
// read from the files.
std::string resolveGpu(const std::string &name, const catalog::Catalog &catalog,
                       const std::string &file, const std::string &place)
{
    if (catalog.gpu(name))
        return name;
    if (const auto id = perf::matchGpu(name, catalog))
        return *id;
    throw InputError(file, place,
                     "GPU model '" + name
                         + "' is not in the catalog. Choose one of: " + catalogGpuList(catalog)
                         + "; or add it as a user part (palette: Duplicate and Edit…)");
}

// The socket of every device: GPUs by their NUMA node (or CPU affinity, or, with neither, the
// groups that SYS/SOC separates); NICs by the nearest GPU.
std::vector<int> socketsOf(const TopoMatrix &t, int hostSockets, std::vector<std::string> &notes)
{
    const std::size_t n = t.devices.size();
    std::vector<std::string> key(n);
    bool anyKey = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (!t.isGpu(i))
            continue;
        key[i] = !t.numaAffinity[i].empty()  ? "numa " + t.numaAffinity[i]
                 : !t.cpuAffinity[i].empty() ? "cpus " + t.cpuAffinity[i]
                                             : std::string();
        anyKey = anyKey || !key[i].empty();
    }
    if (!anyKey) {
        Groups g(n);
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = a + 1; b < n; ++b)
                if (t.isGpu(a) && t.isGpu(b) && hopOf(t.cell(a, b)) < Hop::Sys)
                    g.join(a, b);
        for (std::size_t i = 0; i < n; ++i)
            if (t.isGpu(i))
                key[i] = "group " + std::to_string(g.root(i));
    }
    // NUMA node numbers that fit the host's sockets are taken as sockets; other keys in order.
    bool numbered = true;
    for (std::size_t i = 0; i < n; ++i) {
        if (!t.isGpu(i))
            continue;
        const std::string &numa = t.numaAffinity[i];
        numbered = numbered && !numa.empty() && numa.size() <= 2
                   && std::all_of(numa.begin(), numa.end(), ::isdigit)
                   && std::stoi(numa) < hostSockets;
    }
    std::vector<int> socket(n, -1);
    std::vector<std::string> order;
    for (std::size_t i = 0; i < n; ++i) {
        if (!t.isGpu(i))
            continue;
        if (numbered) {
            socket[i] = std::stoi(t.numaAffinity[i]);
            continue;
        }
        auto at = std::find(order.begin(), order.end(), key[i]);
        if (at == order.end())
            at = order.insert(order.end(), key[i]);
        socket[i] = int(at - order.begin()) % hostSockets;
    }
    if (int(order.size()) > hostSockets)
        notes.push_back("the GPUs sit in " + std::to_string(order.size())
                        + " CPU groups, more than the host's " + std::to_string(hostSockets)
                        + " sockets; the groups were dealt to the sockets in turn");
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b)
            if (t.isGpu(a) && t.isGpu(b) && hopOf(t.cell(a, b)) == Hop::Sys
                && socket[a] == socket[b]) {
                notes.push_back(t.devices[a] + " and " + t.devices[b] + " are " + t.cell(a, b)
                                + " apart yet share CPU affinity (a virtual machine?); both were "
                                  "placed on one socket");
                a = n;
                break;
            }
    for (std::size_t i = 0; i < n; ++i) {
        if (t.isGpu(i))
            continue;
        std::size_t nearest = n;
        std::set<int> far;
        for (std::size_t g = 0; g < n; ++g) {
            if (!t.isGpu(g))
                continue;
            const Hop h = hopOf(t.cell(i, g));
            if (h < Hop::Sys && (nearest == n || h < hopOf(t.cell(i, nearest))))
                nearest = g;
            if (h == Hop::Sys)
                far.insert(socket[g]);
        }
        socket[i] = 0;
        if (nearest < n)
            socket[i] = socket[nearest];
        else
            for (int s = 0; s < hostSockets; ++s)
                if (!far.count(s)) {
                    socket[i] = s;
                    break;
                }
    }
    return socket;
}

} // namespace

std::string catalogGpuList(const catalog::Catalog &catalog)
{
    std::string out;
    for (const auto &[id, gpu] : catalog.gpus())
        out += (out.empty() ? "" : ", ") + id;
    return out;
}

InputKind kindOf(std::string_view text)
{
    if (looksLikeTopoMatrix(text))
        return InputKind::TopoMatrix;
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') {
        const Json j = tryParseJson(text);
        if (j.is_object() && j.contains("accelerator_model_name"))
            return InputKind::MlperfSystem;
    }
    if (!gpuNames(text).empty())
        return InputKind::GpuNames;
    return InputKind::Other;
}

std::vector<std::string> gpuNames(std::string_view text)
{
    if (text.size() > 256 * 1024)
        return {};
    static const std::regex listed(R"(^\s*GPU (\d+): (.+?) \(UUID: .*)");
    std::map<int, std::string> byIndex;
    std::vector<std::string> plain;
    bool header = false;
    bool allNames = true;
    for (const std::string &raw : linesOf(text)) {
        const std::string line = trim(raw);
        if (line.empty())
            continue;
        std::smatch m;
        if (std::regex_match(line, m, listed) && m[1].length() < 4) {
            byIndex[std::stoi(m[1])] = m[2];
            continue;
        }
        if (line == "name" && plain.empty() && !header) {
            header = true;
            continue;
        }
        static const std::regex vendor(R"((NVIDIA|Tesla|GeForce|Quadro|TITAN) .+)");
        allNames = allNames && (header || std::regex_match(line, vendor));
        plain.push_back(line);
    }
    if (!byIndex.empty()) {
        std::vector<std::string> out;
        for (int i = 0; byIndex.count(i); ++i)
            out.push_back(byIndex[i]);
        return out.size() == byIndex.size() ? out : std::vector<std::string>{};
    }
    return allNames && !plain.empty() ? plain : std::vector<std::string>{};
}

MachineDesign designFromTopo(const TopoMatrix &t, const std::vector<std::string> &gpuModels,
                             const MachineOptions &options, const catalog::Catalog &catalog,
                             const std::string &file)
{
    MachineDesign out;
    design::Design &d = out.design;
    const std::size_t n = t.devices.size();
    std::vector<std::size_t> gpus, nics;
    for (std::size_t i = 0; i < n; ++i)
        (t.isGpu(i) ? gpus : nics).push_back(i);
    if (gpuModels.size() != 1 && gpuModels.size() != gpus.size())
        throw InputError(file, "",
                         "the matrix has " + std::to_string(gpus.size()) + " GPUs but "
                             + std::to_string(gpuModels.size()) + " GPU names were given");
    std::vector<const catalog::Gpu *> gpuOf(n, nullptr);
    int gen = 0;
    for (std::size_t k = 0; k < gpus.size(); ++k) {
        const std::string &model = gpuModels[gpuModels.size() == 1 ? 0 : k];
        gpuOf[gpus[k]] = catalog.gpu(model);
        if (!gpuOf[gpus[k]])
            throw InputError(file, "", "GPU model '" + model + "' is not in the catalog");
        gen = std::max(gen, gpuOf[gpus[k]]->pcie.gen);
    }

    std::string hostModel = options.host;
    if (hostModel.empty()) {
        hostModel = perf::defaultHostModel(gen);
        out.notes.push_back("the matrix does not name the processor: assumed " + hostModel
                            + " (the host model can be chosen)");
    } else if (!catalog.host(hostModel)) {
        std::string hosts;
        for (const auto &[id, h] : catalog.hosts())
            hosts += (hosts.empty() ? "" : ", ") + id;
        throw InputError(file, "host",
                         "host model '" + hostModel + "' is not in the catalog; hosts: " + hosts);
    }
    const catalog::Host *host = catalog.host(hostModel);
    const std::string nicModel = options.nic.empty() ? "cx6-hdr-1p" : options.nic;
    const catalog::Nic *nic = catalog.nic(nicModel);
    if (!nics.empty() && !nic)
        throw InputError(file, "nic", "NIC model '" + nicModel + "' is not in the catalog");
    if (!nics.empty() && options.nic.empty())
        out.notes.push_back("the matrix does not name the NIC model: assumed " + nicModel
                            + " (the NIC model can be chosen)");

    d.name = !options.name.empty() ? options.name : !t.hostName.empty() ? t.hostName : "machine";
    d.description
        = "Built by `composelab machine` from the `nvidia-smi topo -m` output in " + file + ".";
    d.hosts.push_back({"host", hostModel, t.hostName});
    std::vector<std::string> ids(n);
    design::System sys{d.name, "host", {}};
    for (std::size_t k = 0; k < gpus.size(); ++k) {
        ids[gpus[k]] = "gpu" + std::to_string(k);
        d.devices.push_back({ids[gpus[k]], gpuOf[gpus[k]]->id, t.devices[gpus[k]], {}, -1});
    }
    for (std::size_t k = 0; k < nics.size(); ++k) {
        ids[nics[k]] = "nic" + std::to_string(k);
        const auto legend = t.nicNames.find(t.devices[nics[k]]);
        d.devices.push_back({ids[nics[k]],
                             nicModel,
                             legend != t.nicNames.end() ? legend->second : t.devices[nics[k]],
                             {},
                             -1});
    }
    for (const auto &dev : d.devices)
        sys.devices.push_back(dev.id);

    const std::vector<int> socket = socketsOf(t, std::max(1, host->sockets), out.notes);
    auto deviceGen = [&](std::size_t i) { return gpuOf[i] ? gpuOf[i]->pcie.gen : nic->pcie.gen; };
    auto deviceLanes
        = [&](std::size_t i) { return gpuOf[i] ? gpuOf[i]->pcie.lanes : nic->pcie.lanes; };
    auto pcieKind = [&](int g, int lanes) {
        const catalog::LinkKind *k = catalog.pcieLink(std::min(g, host->pcieGen), lanes);
        if (!k)
            k = catalog.pcieLink(std::min(g, host->pcieGen), 16);
        return k ? k->id : std::string("pcie4x16");
    };

    // PCIe: devices one bridge apart (PIX) share a switch; several bridges apart (PXB) share a
    // switch above theirs. PHB and NODE reach the socket's root ports directly.
    Groups leaf(n), top(n);
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b) {
            const Hop h = hopOf(t.cell(a, b));
            if (h == Hop::Pix)
                leaf.join(a, b);
            if (h == Hop::Pix || h == Hop::Pxb)
                top.join(a, b);
        }
    const std::string swModel = host->pcieGen >= 5 ? "pex89144" : "pex88096";
    const int swGen = catalog.pcieSwitch(swModel) ? catalog.pcieSwitch(swModel)->gen : 4;
    int switches = 0;
    auto addSwitch = [&](const std::string &upstream) {
        const std::string id = "plx" + std::to_string(switches++);
        d.switches.push_back({id, swModel, {}});
        d.links.push_back({upstream, id, pcieKind(swGen, 16), 1, {}});
        return id;
    };
    std::set<std::size_t> placed;
    for (std::size_t i = 0; i < n; ++i) {
        if (placed.count(i))
            continue;
        std::vector<std::size_t> members;
        bool anyGpu = false;
        for (std::size_t j = 0; j < n; ++j)
            if (top.root(j) == top.root(i)) {
                members.push_back(j);
                anyGpu = anyGpu || t.isGpu(j);
            }
        placed.insert(members.begin(), members.end());
        const std::string cpu = "host/cpu" + std::to_string(socket[i]);
        if (members.size() == 1 || !anyGpu) {
            // Alone, or NICs that share only each other's bridge (a multi-port adapter's
            // functions): straight to the socket.
            for (std::size_t m : members)
                d.links.push_back({cpu, ids[m], pcieKind(deviceGen(m), deviceLanes(m)), 1, {}});
            if (members.size() > 1)
                out.notes.push_back("NICs " + t.devices[members.front()]
                                    + "… share a bridge and no "
                                      "GPU (one adapter's ports?); each was linked to its socket");
            continue;
        }
        const std::string upper = addSwitch(cpu);
        std::set<std::size_t> leafRoots;
        for (std::size_t m : members)
            leafRoots.insert(leaf.root(m));
        for (std::size_t r : leafRoots) {
            std::vector<std::size_t> group;
            for (std::size_t m : members)
                if (leaf.root(m) == r)
                    group.push_back(m);
            const std::string parent
                = leafRoots.size() > 1 && group.size() > 1 ? addSwitch(upper) : upper;
            for (std::size_t m : group)
                d.links.push_back({parent,
                                   ids[m],
                                   pcieKind(std::min(deviceGen(m), swGen), deviceLanes(m)),
                                   1,
                                   {}});
        }
    }

    // NVLink: NV# is a bonded set of # links.
    for (std::size_t a : gpus)
        for (std::size_t b : gpus) {
            if (b <= a)
                continue;
            const int count = nvlinkCount(t.cell(a, b));
            if (count == 0)
                continue;
            if (gpuOf[a]->peerLink.empty()) {
                out.notes.push_back(t.devices[a] + "-" + t.devices[b] + " is " + t.cell(a, b)
                                    + " but " + gpuOf[a]->id
                                    + " has no NVLink in the catalog; "
                                      "left out");
                continue;
            }
            d.links.push_back({ids[a],
                               ids[b],
                               gpuOf[a]->peerLink,
                               std::min(count, design::kMaxLinkCount),
                               {}}); // ids below
        }
    d.systems.push_back(std::move(sys));
    design::assignLinkIds(d);
    d.layout = design::autoLayout(d, catalog, false);
    return out;
}

namespace {

std::string gbpsText(double gbps)
{
    std::string t = std::to_string(gbps);
    t.erase(t.find_last_not_of('0') + 1);
    if (t.back() == '.')
        t.pop_back();
    return t + " Gb/s";
}

// The catalog NIC for `count` ports of `portGbps` on `family` ("infiniband", "ethernet" or
// unknown): one that runs at that rate and speaks the family. Ranked: cards whose ports add up to
// the count exactly (a dual-port card for one port would double the node's rate), then cards
// cabled as the family's own link kind (ib-*, eth-*) before a VPI card of the other, then one
// port a card, then the newest PCIe.
const catalog::Nic *nicFor(int count, double portGbps, const std::string &family,
                           const catalog::Catalog &catalog)
{
    const catalog::Nic *best = nullptr;
    auto rank = [&](const catalog::Nic &n) {
        const catalog::LinkKind *k = catalog.link(n.link);
        const bool own
            = family.empty() || !k
              || (family == "infiniband") == (k->family == catalog::LinkFamily::Infiniband);
        return std::tuple(count % n.ports == 0, own, n.ports == 1, n.pcie.gen);
    };
    for (const catalog::Entry *e : catalog.entries(catalog::Kind::Nic)) {
        const catalog::Nic *nic = catalog.nic(e->id);
        if (!nic || nic->portGbps != portGbps || nic->ports < 1)
            continue;
        if (!family.empty()
            && std::find(nic->protocols.begin(), nic->protocols.end(), family)
                   == nic->protocols.end())
            continue;
        if (!best || rank(*nic) > rank(*best))
            best = nic;
    }
    return best;
}

// The node's NICs as its description counts them ("2x ConnectX-6 HDR 200Gb/s": two one-port
// HDR cards), on the PCIe switches the GPUs hang from while they have lanes (else the host's
// root ports), so that a prediction for several nodes runs over their line rate. A description
// without a rate gets one HDR port a GPU, as the model assumes for such MLPerf rows.
void addNics(design::Design &d, const perf::SystemSpec &spec, const MachineOptions &options,
             const catalog::Catalog &catalog, const std::string &file,
             std::vector<std::string> &notes)
{
    const catalog::Nic *chosen = nullptr;
    if (!options.nic.empty()) {
        chosen = catalog.nic(options.nic);
        if (!chosen)
            throw InputError(file, "nic", "NIC model '" + options.nic + "' is not in the catalog");
    }
    std::vector<std::pair<const catalog::Nic *, int>> cards; // model, how many
    std::vector<perf::SystemSpec::Ports> groups = spec.networkPorts;
    if (groups.empty() || spec.networkGbpsPerNode <= 0) {
        if (spec.nodes <= 1)
            return;
        groups = {{std::max(1, spec.gpusPerNode), 200}};
        notes.push_back("network rate not described: one 200 Gb/s port a GPU assumed, as for "
                        "MLPerf rows");
    }
    for (const perf::SystemSpec::Ports &g : groups) {
        const catalog::Nic *nic
            = chosen
                  ? chosen
                  : nicFor(g.count, g.gbps,
                           spec.networkPorts.empty() ? "infiniband" : spec.networkFamily, catalog);
        if (!nic) {
            notes.push_back("no catalog NIC runs at " + gbpsText(g.gbps)
                            + (spec.networkFamily.empty() ? "" : " " + spec.networkFamily) + ": "
                            + std::to_string(g.count)
                            + " port(s) left out, so the cluster's network is not bounded by "
                              "them (the NIC model can be chosen)");
            continue;
        }
        const int n = (g.count + nic->ports - 1) / nic->ports;
        cards.emplace_back(nic, n);
        std::string note = std::to_string(g.count) + " network port" + (g.count > 1 ? "s" : "")
                           + " of " + gbpsText(g.gbps) + ": " + std::to_string(n) + " x " + nic->id;
        if (chosen && nic->portGbps != g.gbps)
            note += " (chosen: it runs at " + gbpsText(nic->portGbps) + ", not " + gbpsText(g.gbps)
                    + ")";
        else if (!chosen)
            note += " (the NIC model can be chosen)";
        notes.push_back(note);
    }
    const catalog::Host *host = catalog.host(d.hosts.front().model);
    // Lanes left on each PCIe switch (nodeDesign's links are all x16); a card that finds no
    // switch with room takes a root port of the next socket.
    std::vector<std::pair<std::string, int>> room;
    for (const design::Switch &sw : d.switches) {
        const catalog::PcieSwitch *part = catalog.pcieSwitch(sw.model);
        if (!part)
            continue;
        const auto used = std::count_if(d.links.begin(), d.links.end(), [&](const auto &l) {
            return l.from == sw.id || l.to == sw.id;
        });
        room.emplace_back(sw.id, part->lanes - 16 * int(used));
    }
    const int sockets = host ? std::max(1, host->sockets) : 1;
    int k = 0;
    for (const auto &[nic, n] : cards) {
        const int gen = std::min(nic->pcie.gen, host ? host->pcieGen : nic->pcie.gen);
        const std::string kind
            = "pcie" + std::to_string(gen) + "x" + std::to_string(nic->pcie.lanes);
        for (int c = 0; c < n; ++c, ++k) {
            const std::string id = "nic" + std::to_string(k);
            d.devices.push_back({id, nic->id, {}, {}, -1});
            d.systems.front().devices.push_back(id);
            auto best
                = std::max_element(room.begin(), room.end(), [](const auto &a, const auto &b) {
                      return a.second < b.second;
                  });
            std::string parent;
            if (best != room.end() && best->second >= nic->pcie.lanes) {
                parent = best->first;
                best->second -= nic->pcie.lanes;
            } else {
                parent = "host/cpu" + std::to_string(k % sockets);
            }
            d.links.push_back({parent, id, kind, 1});
        }
    }
}

} // namespace

MachineDesign designFromMlperfSystem(std::string_view text, const MachineOptions &options,
                                     const catalog::Catalog &catalog, const std::string &file)
{
    const Json j = parseJson(text, file);
    if (!j.is_object())
        throw InputError(file, "", "expected an MLPerf system description (a JSON object)");
    auto field = [&](const char *key) -> std::string {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null())
            return {};
        if (it->is_string())
            return it->get<std::string>();
        if (it->is_number())
            return it->dump();
        throw InputError(file, childPointer("", key), "expected a string or a number");
    };
    perf::MlperfSystemFields f;
    f.accelerator = field("accelerator_model_name");
    f.acceleratorsPerNode = field("accelerators_per_node");
    f.numberOfNodes = field("number_of_nodes");
    f.hostProcessor = field("host_processor_model_name");
    f.hostProcessorsPerNode = field("host_processors_per_node");
    f.hostProcessorCoreCount = field("host_processor_core_count");
    f.acceleratorInterconnect = field("accelerator_interconnect");
    f.acceleratorHostInterconnect = field("accelerator_host_interconnect");
    f.hostNetworking = field("host_networking");
    f.hostNetworkingTopology = field("host_networking_topology");
    f.hwNotes = field("hw_notes");
    const perf::ParsedSystem parsed = perf::parseMlperfSystem(f, catalog);
    if (!parsed.spec)
        throw InputError(file, "", "cannot build this system: " + parsed.skipReason);
    perf::SystemSpec spec = *parsed.spec;
    if (!options.gpu.empty())
        spec.gpu = resolveGpu(options.gpu, catalog, file, "gpu");
    if (!options.host.empty())
        spec.host = options.host;
    MachineDesign out;
    out.notes = spec.notes;
    out.design = perf::nodeDesign(spec, catalog);
    design::Design &d = out.design;
    addNics(d, spec, options, catalog, file, out.notes);
    const std::string systemName = field("system_name");
    d.name = !options.name.empty() ? options.name : !systemName.empty() ? systemName : "mlperf";
    d.description = "Built by `composelab machine` from the MLPerf system description " + file
                    + (f.hwNotes.empty() ? "." : " (" + f.hwNotes + ").");
    d.systems.front().name = d.name;
    if (spec.nodes > 1) {
        const int nodes = std::min(spec.nodes, design::kMaxClusterNodes);
        if (nodes < spec.nodes)
            out.notes.push_back("the system has " + std::to_string(spec.nodes)
                                + " nodes; a design holds at most "
                                + std::to_string(design::kMaxClusterNodes));
        d.cluster = design::Cluster{d.name, nodes, "fattree"};
        out.notes.push_back("the nodes are joined by a non-blocking fat tree (the description's "
                            "network topology is not modelled in detail)");
    }
    design::assignLinkIds(d);
    d.layout = design::autoLayout(d, catalog, false);
    return out;
}

namespace {

MachineDesign buildFrom(const std::vector<MachineInput> &inputs, const MachineOptions &options,
                        const catalog::Catalog &catalog)
{
    const MachineInput *topo = nullptr;
    const MachineInput *system = nullptr;
    const MachineInput *names = nullptr;
    for (const MachineInput &in : inputs) {
        const InputKind kind = kindOf(in.text);
        const MachineInput *&slot = kind == InputKind::TopoMatrix     ? topo
                                    : kind == InputKind::MlperfSystem ? system
                                    : kind == InputKind::GpuNames     ? names
                                                                      : topo;
        if (kind == InputKind::Other)
            continue;
        if (slot)
            throw InputError(
                in.path, "",
                "a second "
                    + std::string(kind == InputKind::TopoMatrix     ? "topology matrix"
                                  : kind == InputKind::MlperfSystem ? "MLPerf system description"
                                                                    : "GPU list")
                    + " (the first is " + slot->path + "); give one machine at a time");
        slot = &in;
    }
    if (topo && system)
        throw InputError(system->path, "",
                         "give either a topology matrix (" + topo->path
                             + ") or an MLPerf system description, not both");
    if (system)
        return designFromMlperfSystem(system->text, options, catalog, system->path);
    if (!topo)
        throw InputError(inputs.empty() ? std::string("composelab machine") : inputs.front().path,
                         "",
                         "no `nvidia-smi topo -m` output or MLPerf systems/*.json among the "
                         "files");
    const TopoMatrix matrix = parseTopoMatrix(topo->text, topo->path);
    std::vector<std::string> models;
    if (!options.gpu.empty()) {
        models.push_back(resolveGpu(options.gpu, catalog, topo->path, "gpu"));
    } else if (names) {
        for (const std::string &name : gpuNames(names->text))
            models.push_back(resolveGpu(name, catalog, names->path, ""));
    } else {
        throw InputError(topo->path, "gpu",
                         "the matrix does not name the GPU model. Choose one of: "
                             + catalogGpuList(catalog)
                             + "; or add `nvidia-smi -L` output to the files");
    }
    MachineDesign out = designFromTopo(matrix, models, options, catalog, topo->path);
    if (names && options.gpu.empty())
        out.notes.insert(out.notes.begin(), "GPU models from " + names->path);
    return out;
}

} // namespace

MachineDesign buildMachine(const std::vector<MachineInput> &inputs, const MachineOptions &options,
                           const catalog::Catalog &catalog)
{
    MachineDesign out = buildFrom(inputs, options, catalog);
    out.design.measurements = measurementsOf(inputs, out.design, out.notes);
    if (!out.notes.empty()) {
        out.design.description += " Assumed or left out:";
        for (const std::string &note : out.notes)
            out.design.description += " " + note + ";";
        out.design.description.back() = '.';
    }
    return out;
}

} // namespace clab::machine
