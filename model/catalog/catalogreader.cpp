// Reading of the catalog's JSON sections into the structs of catalog.h.
#include "catalog/catalog.h"

#include "util/inputerror.h"
#include "util/jsonreader.h"

namespace clab::catalog {

namespace {

// An optional figure with its own source, {"<unit>": n, "source": "..."}: its value (0 when
// absent) and source; a figure without a source is an error.
double readSourced(ObjectReader &r, const char *key, const char *unit, std::string &source)
{
    if (!r.optionalObject(key))
        return 0;
    ObjectReader figure = r.object(key);
    const double value = figure.positive(unit);
    source = figure.string("source");
    if (source.empty())
        figure.fail("source", std::string("every ") + key
                                  + " figure needs a source (or \"assumption: ...\")");
    figure.finish();
    return value;
}

void readEntry(ObjectReader &r, Entry &e)
{
    e.id = r.string("id");
    if (e.id.empty() || e.id.find('/') != std::string::npos)
        r.fail("id", "expected a non-empty id without '/'");
    e.name = r.string("name");
    e.source = r.string("source");
    if (e.source.empty())
        r.fail("source", "every catalog figure needs a source");
    e.notes = r.string("notes", "");
    e.aliases = r.strings("aliases");
    if (const double watts = readSourced(r, "power", "watts", e.powerSource); watts > 0)
        e.powerW = watts;
}

PcieSpec readPcie(ObjectReader r)
{
    PcieSpec p;
    p.gen = r.integer("gen", 1);
    p.lanes = r.integer("lanes", 1);
    r.finish();
    return p;
}

Tflops readTflops(ObjectReader t)
{
    Tflops out;
    out.fp32 = t.optionalNumber("fp32");
    out.tf32 = t.optionalNumber("tf32");
    out.fp16 = t.optionalNumber("fp16");
    out.bf16 = t.optionalNumber("bf16");
    out.fp8 = t.optionalNumber("fp8");
    const std::pair<const char *, const std::optional<double> *> rates[] = {{"fp32", &out.fp32},
                                                                            {"tf32", &out.tf32},
                                                                            {"fp16", &out.fp16},
                                                                            {"bf16", &out.bf16},
                                                                            {"fp8", &out.fp8}};
    for (const auto &[key, v] : rates)
        if (*v && !(**v > 0))
            t.fail(key, "expected a rate greater than zero (or null where there is none)");
    t.finish();
    return out;
}

// Achieved rates may not exceed the peaks they are measured against: a table that says so has
// its columns swapped or its units wrong.
void checkAchieved(ObjectReader &r, const Gpu &g)
{
    const Tflops &a = g.achieved.gemmTflops;
    const Tflops &p = g.tflops;
    const std::pair<const std::optional<double> *, const std::optional<double> *> pairs[]
        = {{&a.fp32, &p.fp32},
           {&a.tf32, &p.tf32},
           {&a.fp16, &p.fp16},
           {&a.bf16, &p.bf16},
           {&a.fp8, &p.fp8}};
    for (const auto &[achieved, peak] : pairs) {
        if (*achieved && (!*peak || **achieved > **peak * 1.0001))
            r.fail("achieved", "an achieved GEMM rate is above the dense peak of its precision "
                               "(or the GPU has no peak for it)");
    }
    if (g.achieved.memBwGBps && *g.achieved.memBwGBps > g.memBwGBps * 1.0001)
        r.fail("achieved", "the achieved memory bandwidth is above memBwGBps");
}

Gpu readGpu(ObjectReader &r)
{
    Gpu g;
    readEntry(r, g);
    g.arch = r.string("arch");
    g.formFactor = r.string("formFactor");
    g.tflops = readTflops(r.object("tflops"));
    g.memGB = r.positive("memGB");
    g.memBwGBps = r.positive("memBwGBps");
    if (const Json *nv = r.optionalObject("nvlink")) {
        ObjectReader n(*nv, r.pointer("nvlink"), r.file());
        g.nvlinkGen = n.integer("gen", 1);
        g.peerLinks = n.integer("links", 1);
        g.peerLink = "nvlink" + std::to_string(g.nvlinkGen);
        n.finish();
    }
    if (const Json *xf = r.optionalObject("infinityFabric")) {
        ObjectReader x(*xf, r.pointer("infinityFabric"), r.file());
        if (g.nvlinkGen > 0)
            x.fail("link", "a GPU has NVLink or Infinity Fabric links, not both");
        g.peerLink = x.string("link");
        g.peerLinks = x.integer("links", 1);
        x.finish();
    }
    g.pcie = readPcie(r.object("pcie"));
    g.tdpW = r.positive("tdpW");
    if (const Json *a = r.optionalObject("achieved")) {
        ObjectReader ar(*a, r.pointer("achieved"), r.file());
        g.achieved.gemmTflops = readTflops(ar.object("gemmTflops"));
        g.achieved.memBwGBps = ar.optionalNumber("memBwGBps");
        if (g.achieved.memBwGBps && !(*g.achieved.memBwGBps > 0))
            ar.fail("memBwGBps", "expected a bandwidth greater than zero");
        g.achieved.warpMmaShare = ar.optionalNumber("warpMmaShare");
        if (g.achieved.warpMmaShare
            && !(*g.achieved.warpMmaShare > 0 && *g.achieved.warpMmaShare <= 1))
            ar.fail("warpMmaShare", "expected a share of the GEMM rate, above 0 and at most 1");
        g.achieved.gemmFixedUs = ar.optionalNumber("gemmFixedUs");
        if (g.achieved.gemmFixedUs
            && !(*g.achieved.gemmFixedUs > 0 && *g.achieved.gemmFixedUs < 1000))
            ar.fail("gemmFixedUs", "expected microseconds above 0 and below 1000");
        g.achieved.source = ar.string("source");
        if (g.achieved.source.empty())
            ar.fail("source", "every measured figure needs a source");
        ar.finish();
        checkAchieved(r, g);
    }
    return g;
}

Host readHost(ObjectReader &r)
{
    Host h;
    readEntry(r, h);
    h.cpu = r.string("cpu");
    h.sockets = r.integer("sockets", 1);
    h.coresPerSocket = r.integer("coresPerSocket", 1);
    ObjectReader p = r.object("pcie");
    h.pcieGen = p.integer("gen", 1);
    h.lanesPerSocket = p.integer("lanesPerSocket", 1);
    p.finish();
    h.memBwGBpsPerSocket = r.positive("memBwGBpsPerSocket");
    if (const Json *is = r.optionalObject("interSocket")) {
        ObjectReader s(*is, r.pointer("interSocket"), r.file());
        h.interSocketLink = s.string("link");
        h.interSocketCount = s.integer("count", 1);
        s.finish();
    } else if (h.sockets > 1) {
        r.fail("interSocket", "a host with several sockets needs an interSocket link");
    }
    h.memGB = readSourced(r, "memory", "GB", h.memSource);
    return h;
}

Nvme readNvme(ObjectReader &r)
{
    Nvme n;
    readEntry(r, n);
    n.pcie = readPcie(r.object("pcie"));
    n.readGBps = r.positive("readGBps");
    n.writeGBps = r.positive("writeGBps");
    n.capacityTB = r.positive("capacityTB");
    return n;
}

Nic readNic(ObjectReader &r)
{
    Nic n;
    readEntry(r, n);
    n.pcie = readPcie(r.object("pcie"));
    n.ports = r.integer("ports", 1);
    n.portGbps = r.positive("portGbps");
    n.protocols = r.strings("protocols");
    n.link = r.string("link");
    return n;
}

PcieSwitch readPcieSwitch(ObjectReader &r)
{
    PcieSwitch s;
    readEntry(r, s);
    s.gen = r.integer("gen", 1);
    s.lanes = r.integer("lanes", 1);
    s.ports = r.integer("ports", 1);
    s.hopLatencyNs = r.positive("hopLatencyNs");
    return s;
}

Chassis readChassis(ObjectReader &r)
{
    Chassis c;
    readEntry(r, c);
    c.pcieGen = r.integer("pcieGen", 1);
    c.slots = r.integer("slots", 1);
    c.slotLanes = r.integer("slotLanes", 1);
    c.hostPorts = r.integer("hostPorts", 1);
    c.switchModel = r.string("switch");
    c.switchOfSlot = r.integers("switchOfSlot");
    c.switchOfHostPort = r.integers("switchOfHostPort");
    if (c.switchOfSlot.size() != static_cast<std::size_t>(c.slots))
        r.fail("switchOfSlot", "expected one switch index per slot (" + std::to_string(c.slots)
                                   + "), found " + std::to_string(c.switchOfSlot.size()));
    if (c.switchOfHostPort.size() != static_cast<std::size_t>(c.hostPorts))
        r.fail("switchOfHostPort",
               "expected one switch index per host port (" + std::to_string(c.hostPorts) + ")");
    const Json &links = r.array("interSwitch");
    // Switches are numbered from 0; a central switch may appear only in interSwitch.
    const int switches = 64;
    for (std::size_t i = 0; i < links.size(); ++i) {
        const Json &l = links[i];
        const bool ok
            = l.is_array() && l.size() == 3 && l[0].is_number_integer() && l[1].is_number_integer()
              && l[2].is_number_integer() && l[0].get<int>() >= 0 && l[0].get<int>() < switches
              && l[1].get<int>() >= 0 && l[1].get<int>() < switches && l[2].get<int>() > 0;
        if (!ok)
            throw InputError(r.file(), "at " + childPointer(r.pointer("interSwitch"), i),
                             "expected [switch a, switch b, lanes] with switch indices below "
                                 + std::to_string(switches) + " and lanes above 0");
        c.interSwitch.push_back({l[0].get<int>(), l[1].get<int>(), l[2].get<int>()});
    }
    return c;
}

NetworkSwitch readNetworkSwitch(ObjectReader &r)
{
    NetworkSwitch s;
    readEntry(r, s);
    s.family = r.string("family");
    if (s.family != "infiniband" && s.family != "ethernet")
        r.fail("family", "expected \"infiniband\" or \"ethernet\"");
    s.ports = r.integer("ports", 1);
    s.portGbps = r.positive("portGbps");
    s.latencyNs = r.positive("latencyNs");
    s.link = r.string("link");
    return s;
}

NvSwitch readNvSwitch(ObjectReader &r)
{
    NvSwitch s;
    readEntry(r, s);
    s.nvlinkGen = r.integer("nvlinkGen", 1);
    s.gpus = r.integer("gpus", 1);
    s.linksPerGpu = r.integer("linksPerGpu", 1);
    return s;
}

NvlinkBridge readNvlinkBridge(ObjectReader &r)
{
    NvlinkBridge b;
    readEntry(r, b);
    b.nvlinkGen = r.integer("nvlinkGen", 1);
    b.links = r.integer("links", 1);
    b.gpus = r.strings("gpus");
    return b;
}

LinkKind readLink(ObjectReader &r)
{
    LinkKind l;
    readEntry(r, l);
    const std::string family = r.string("family");
    const auto f = linkFamilyFromString(family);
    if (!f)
        r.fail("family", "expected one of pcie, nvlink, infiniband, ethernet, socket; found \""
                             + family + "\"");
    l.family = *f;
    l.gen = r.integer("gen", 0, 0);
    l.lanes = r.integer("lanes", 0, 0);
    l.rawGBps = r.positive("rawGBps");
    l.achievedFraction = r.positive("achievedFraction");
    if (l.achievedFraction > 1)
        r.fail("achievedFraction", "expected a fraction of the raw rate, at most 1");
    l.latencyUs = r.number("latencyUs");
    if (l.latencyUs < 0)
        r.fail("latencyUs", "expected a latency of zero or more");
    return l;
}

Routing readRouting(ObjectReader &r)
{
    Routing g;
    readEntry(r, g);
    g.p2pViaRootComplex = r.positive("p2pViaRootComplex");
    g.stagedViaHost = r.positive("stagedViaHost");
    g.stagedBothWays = r.number("stagedBothWays", 1);
    if (g.stagedBothWays <= 0 || g.stagedBothWays > 1)
        r.fail("stagedBothWays", "expected a fraction above 0, at most 1");
    g.rootComplexLatencyUs = r.number("rootComplexLatencyUs");
    g.stagedLatencyUs = r.number("stagedLatencyUs");
    g.dmaSetupLatencyUs = r.number("dmaSetupLatencyUs");
    return g;
}

template<typename T, typename Read>
void readSection(const Json &array, const std::string &pointer, const std::string &file, Read read,
                 Kind kind, std::map<std::string, T, std::less<>> &into,
                 std::map<std::string, Kind, std::less<>> &kinds,
                 std::map<std::string, std::string, std::less<>> &files)
{
    if (!array.is_array())
        throw InputError(file, "at " + pointer,
                         std::string("expected an array, found ") + jsonTypeName(array));
    for (std::size_t i = 0; i < array.size(); ++i) {
        ObjectReader r(array[i], childPointer(pointer, i), file);
        T entry = read(r);
        r.finish();
        if (kinds.count(entry.id))
            throw InputError(file, "at " + r.pointer("id"),
                             "duplicate catalog id \"" + entry.id + "\" (also in " + files[entry.id]
                                 + ")");
        kinds[entry.id] = kind;
        files[entry.id] = file;
        into.emplace(entry.id, std::move(entry));
    }
}

} // namespace

void Catalog::addFile(std::string_view text, const std::string &fileName)
{
    const Json root = parseJson(text, fileName);
    if (!root.is_object())
        throw InputError(fileName, "at /", "expected an object of catalog sections");
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string &key = it.key();
        const std::string ptr = childPointer("", key);
        const Json &v = it.value();
        if (key == "gpus")
            readSection(v, ptr, fileName, readGpu, Kind::Gpu, m_gpus, m_kinds, m_files);
        else if (key == "hosts")
            readSection(v, ptr, fileName, readHost, Kind::Host, m_hosts, m_kinds, m_files);
        else if (key == "nvme")
            readSection(v, ptr, fileName, readNvme, Kind::Nvme, m_nvme, m_kinds, m_files);
        else if (key == "nics")
            readSection(v, ptr, fileName, readNic, Kind::Nic, m_nics, m_kinds, m_files);
        else if (key == "pcieSwitches")
            readSection(v, ptr, fileName, readPcieSwitch, Kind::PcieSwitch, m_pcieSwitches, m_kinds,
                        m_files);
        else if (key == "chassis")
            readSection(v, ptr, fileName, readChassis, Kind::Chassis, m_chassis, m_kinds, m_files);
        else if (key == "networkSwitches")
            readSection(v, ptr, fileName, readNetworkSwitch, Kind::NetworkSwitch, m_networkSwitches,
                        m_kinds, m_files);
        else if (key == "nvswitches")
            readSection(v, ptr, fileName, readNvSwitch, Kind::NvSwitch, m_nvSwitches, m_kinds,
                        m_files);
        else if (key == "nvlinkBridges")
            readSection(v, ptr, fileName, readNvlinkBridge, Kind::NvlinkBridge, m_nvlinkBridges,
                        m_kinds, m_files);
        else if (key == "links")
            readSection(v, ptr, fileName, readLink, Kind::Link, m_links, m_kinds, m_files);
        else if (key == "routing") {
            std::map<std::string, Routing, std::less<>> routings;
            readSection(v, ptr, fileName, readRouting, Kind::Routing, routings, m_kinds, m_files);
            if (routings.size() != 1 || m_hasRouting)
                throw InputError(fileName, "at " + ptr,
                                 "expected exactly one routing entry in the whole catalog");
            m_routing = routings.begin()->second;
            m_hasRouting = true;
        } else {
            throw InputError(fileName, "at " + ptr,
                             "unknown catalog section \"" + key
                                 + "\" (expected gpus, hosts, nvme, nics, pcieSwitches, chassis, "
                                   "networkSwitches, nvswitches, nvlinkBridges, links or routing)");
        }
        for (const Json &entry : v)
            m_raw[entry.at("id").get<std::string>()] = {key, entry.dump()};
    }
}

} // namespace clab::catalog
