// Reading and writing .clab design files (format: model/design/FORMAT.md).
#include "design/design.h"
#include "design/edit.h"

#include "catalog/catalog.h"

#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "util/limits.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_set>

namespace clab::design {

namespace {

std::string readId(ObjectReader &r, const char *key)
{
    std::string id = r.string(key);
    if (id.empty())
        r.fail(key, "expected a non-empty id");
    if (id.find('/') != std::string::npos)
        r.fail(key, "an id may not contain '/' (it separates an item from its port)");
    return id;
}

template<typename T, typename Read>
std::vector<T> readArray(ObjectReader &root, const char *key, Read read)
{
    std::vector<T> out;
    const Json *array = root.optionalArray(key);
    if (!array)
        return out;
    for (std::size_t i = 0; i < array->size(); ++i) {
        ObjectReader r((*array)[i], childPointer(root.pointer(key), i), root.file());
        out.push_back(read(r));
        r.finish();
    }
    return out;
}

template<typename T>
T readItem(ObjectReader &r)
{
    T item;
    item.id = readId(r, "id");
    item.model = r.string("model");
    item.name = r.string("name", "");
    return item;
}

Device readDevice(ObjectReader &r)
{
    Device d;
    d.id = readId(r, "id");
    d.model = r.string("model");
    d.name = r.string("name", "");
    if (r.has("chassis")) {
        d.chassis = readId(r, "chassis");
        d.slot = r.integer("slot", 0);
    } else if (r.has("slot")) {
        r.fail("slot", "a slot needs a \"chassis\" to be in");
    }
    return d;
}

Link readLink(ObjectReader &r)
{
    Link l;
    if (r.has("id")) { // version 1 files have none: readDesign gives them one
        l.id = r.string("id");
        if (l.id.empty()) // a link id names no endpoint, so any other text will do
            r.fail("id", "expected a non-empty id");
    }
    l.from = r.string("from");
    l.to = r.string("to");
    l.kind = r.string("kind");
    l.count = r.integer("count", 1, 1);
    if (l.count > kMaxLinkCount)
        r.fail("count", "expected at most " + std::to_string(kMaxLinkCount)
                            + " parallel links, found " + std::to_string(l.count));
    if (l.from.empty() || l.to.empty())
        r.fail(l.from.empty() ? "from" : "to", "expected an endpoint \"item\" or \"item/port\"");
    return l;
}

// Edits and undo find a link by its id, so two links may not share one.
void checkLinkIds(const std::vector<Link> &links, ObjectReader &root)
{
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < links.size(); ++i) {
        if (links[i].id.empty())
            continue;
        const auto [it, fresh] = seen.emplace(links[i].id, i);
        if (!fresh) {
            ObjectReader link(root.optionalArray("links")->at(i),
                              childPointer(root.pointer("links"), i), root.file());
            link.fail("id", "the link id \"" + links[i].id + "\" is already used by the link at "
                                + childPointer(root.pointer("links"), it->second)
                                + "; each link needs its own id");
        }
    }
}

System readSystem(ObjectReader &r)
{
    System s;
    s.name = r.string("name");
    if (s.name.empty())
        r.fail("name", "a composed system needs a name");
    s.host = r.string("host");
    s.devices = r.strings("devices");
    return s;
}

Measurement readMeasurement(ObjectReader &r)
{
    Measurement m;
    m.kind = r.string("kind");
    if (m.kind != "h2d" && m.kind != "d2h" && m.kind != "p2p" && m.kind != "collective")
        r.fail("kind",
               "expected \"h2d\", \"d2h\", \"p2p\" or \"collective\", found \"" + m.kind + "\"");
    m.from = r.string("from", "");
    m.to = r.string("to", "");
    m.system = r.string("system", "");
    m.GBps = r.positive("GBps");
    if (m.GBps > 1e6)
        r.fail("GBps", "expected a bandwidth below 10^6 GB/s");
    m.tool = r.string("tool", "");
    m.test = r.string("test", "");
    m.source = r.string("source", "");
    return m;
}

// Each system's peer-to-peer matrix has n * (n - 1) entries; their sum bounds the analysis' work.
std::size_t peerPairs(const System &system)
{
    const std::size_t n = system.devices.size();
    return n * (n > 0 ? n - 1 : 0);
}

const std::string kPeerPairsExpected = "more than " + std::to_string(limits::kMaxPeerPairs)
                                       + " ordered device pairs in all (n * (n - 1) for a system "
                                         "of n devices, e.g. 1000 systems of 32)";

void checkPeerPairs(const std::vector<System> &systems, const ObjectReader &root)
{
    std::size_t pairs = 0;
    for (std::size_t i = 0; i < systems.size(); ++i) {
        pairs += peerPairs(systems[i]);
        if (pairs > limits::kMaxPeerPairs)
            throw InputError(
                root.file(),
                "at " + childPointer(childPointer(root.pointer("systems"), i), "devices"),
                "the composed systems list too many devices: " + kPeerPairsExpected);
    }
}

double coordinate(ObjectReader &r, const char *key)
{
    const double v = r.number(key);
    if (std::abs(v) > limits::kMaxCoordinate)
        r.fail(key, "expected a canvas position from -1e9 to 1e9, found " + Json(v).dump());
    return v;
}

std::optional<Cluster> readCluster(ObjectReader &root)
{
    const Json *object = root.optionalObject("cluster");
    if (!object)
        return std::nullopt;
    ObjectReader r(*object, root.pointer("cluster"), root.file());
    Cluster c;
    c.system = r.string("system");
    if (c.system.empty())
        r.fail("system", "expected the name of a composed system of the design");
    c.nodes = r.integer("nodes", 1);
    if (c.nodes > kMaxClusterNodes)
        r.fail("nodes", "expected 1 to " + std::to_string(kMaxClusterNodes) + " nodes, found "
                            + std::to_string(c.nodes));
    c.topology = r.string("topology");
    if (c.topology.empty())
        r.fail("topology", "expected a topology such as \"fattree\" or \"rail:radix=64\"");
    r.finish();
    return c;
}

std::map<std::string, Position> readLayout(ObjectReader &root)
{
    std::map<std::string, Position> out;
    const Json *layout = root.optionalObject("layout");
    if (!layout)
        return out;
    ObjectReader l(*layout, root.pointer("layout"), root.file());
    if (const Json *positions = l.optionalObject("positions")) {
        for (auto it = positions->begin(); it != positions->end(); ++it) {
            ObjectReader p(it.value(), childPointer(l.pointer("positions"), it.key()), root.file());
            out[it.key()] = Position{coordinate(p, "x"), coordinate(p, "y")};
            p.finish();
        }
    }
    l.finish();
    return out;
}

} // namespace

std::string limitProblem(const Design &d)
{
    const std::pair<const char *, std::size_t> arrays[] = {
        {"hosts", d.hosts.size()},
        {"chassis", d.chassis.size()},
        {"switches", d.switches.size()},
        {"devices", d.devices.size()},
        {"links", d.links.size()},
        {"systems", d.systems.size()},
        {"layout positions", d.layout.size()},
        {"measurements", d.measurements.size()},
    };
    const std::string most
        = " (a design holds at most " + std::to_string(limits::kMaxDesignItems) + " of each)";
    for (const auto &[what, count] : arrays) {
        if (count > limits::kMaxDesignItems)
            return "the design would have " + std::to_string(count) + " " + what + most;
    }
    for (const auto &[id, at] : d.layout) {
        if (!(std::abs(at.x) <= limits::kMaxCoordinate && std::abs(at.y) <= limits::kMaxCoordinate))
            return id + " would be placed outside the canvas (positions run from -1e9 to 1e9)";
    }
    // The reader refuses two links with one id (edits and undo find links by id).
    std::unordered_set<std::string_view> linkIds;
    for (const Link &l : d.links) {
        if (!l.id.empty() && !linkIds.insert(l.id).second)
            return "two links would share the id " + l.id + " (each link needs its own)";
    }
    std::size_t pairs = 0;
    for (const System &s : d.systems) {
        if (s.devices.size() > limits::kMaxDesignItems)
            return "system " + s.name + " would list " + std::to_string(s.devices.size())
                   + " devices" + most;
        pairs += peerPairs(s);
    }
    if (pairs > limits::kMaxPeerPairs)
        return "the composed systems would list too many devices: " + kPeerPairsExpected;
    return {};
}

Design readDesign(std::string_view text, const std::string &fileName)
{
    const Json json = parseJson(text, fileName,
                                {limits::kMaxJsonDepth, limits::kMaxDesignItems, "a design file"});
    ObjectReader root(json, "", fileName);
    const int version = root.integer("formatVersion", 1);
    if (version > kFormatVersion)
        root.fail("formatVersion",
                  "this file was written in format version " + std::to_string(version)
                      + " by a newer ComposeLab; this version reads up to format version "
                      + std::to_string(kFormatVersion) + ". Please update ComposeLab.");
    root.string("appVersion");
    Design d;
    d.name = root.string("name", "");
    d.description = root.string("description", "");
    d.hosts = readArray<Host>(root, "hosts", readItem<Host>);
    d.chassis = readArray<Chassis>(root, "chassis", readItem<Chassis>);
    d.switches = readArray<Switch>(root, "switches", readItem<Switch>);
    d.devices = readArray<Device>(root, "devices", readDevice);
    d.links = readArray<Link>(root, "links", readLink);
    checkLinkIds(d.links, root);
    assignLinkIds(d);
    d.systems = readArray<System>(root, "systems", readSystem);
    checkPeerPairs(d.systems, root);
    d.cluster = readCluster(root);
    d.layout = readLayout(root);
    d.measurements = readArray<Measurement>(root, "measurements", readMeasurement);
    if (const Json *parts = root.optionalObject("parts")) {
        // Checked as catalog sections when the design registers them; here only the shape.
        for (auto it = parts->begin(); it != parts->end(); ++it)
            if (!it.value().is_array())
                root.fail("parts", "expected catalog sections (\"gpus\": [...], ...)");
        if (!parts->empty())
            d.parts = parts->dump();
    }
    root.finish();
    return d;
}

Design loadDesign(const std::string &path)
{
    Design d = readDesign(readTextFile(path, limits::kMaxDesignFileBytes, "a design file"), path);
    registerParts(d, path);
    return d;
}

void registerParts(const Design &design, const std::string &fileName)
{
    if (!design.parts.empty())
        catalog::Catalog::addUserParts(design.parts, fileName + " (its parts)");
}

Design withUserParts(Design design)
{
    std::vector<std::string> ids;
    for (const Host &h : design.hosts)
        ids.push_back(h.model);
    for (const Chassis &c : design.chassis)
        ids.push_back(c.model);
    for (const Switch &s : design.switches)
        ids.push_back(s.model);
    for (const Device &dev : design.devices)
        ids.push_back(dev.model);
    for (const Link &l : design.links)
        ids.push_back(l.kind);
    design.parts = catalog::Catalog::builtin().userPartsJson(ids);
    return design;
}

namespace {

template<typename T>
OrderedJson writeItem(const T &item)
{
    OrderedJson j;
    j["id"] = item.id;
    j["model"] = item.model;
    if (!item.name.empty())
        j["name"] = item.name;
    return j;
}

} // namespace

std::string writeDesign(const Design &design)
{
    // A design built in code may have links without ids: the file gets the ids a reader would
    // give them, so that writing what was read gives the same bytes.
    const bool allIds = std::all_of(design.links.begin(), design.links.end(),
                                    [](const Link &l) { return !l.id.empty(); });
    Design withIds;
    if (!allIds) {
        withIds = design;
        assignLinkIds(withIds);
    }
    const Design &d = allIds ? design : withIds;
    OrderedJson j;
    j["formatVersion"] = kFormatVersion;
    j["appVersion"] = COMPOSELAB_VERSION;
    if (!d.name.empty())
        j["name"] = d.name;
    if (!d.description.empty())
        j["description"] = d.description;
    auto items = [&](const char *key, const auto &list, auto write) {
        if (list.empty())
            return;
        OrderedJson array = OrderedJson::array();
        for (const auto &item : list)
            array.push_back(write(item));
        j[key] = std::move(array);
    };
    items("hosts", d.hosts, writeItem<Host>);
    items("chassis", d.chassis, writeItem<Chassis>);
    items("switches", d.switches, writeItem<Switch>);
    items("devices", d.devices, [](const Device &dev) {
        OrderedJson o = writeItem(dev);
        if (!dev.chassis.empty()) {
            o["chassis"] = dev.chassis;
            o["slot"] = dev.slot;
        }
        return o;
    });
    items("links", d.links, [](const Link &l) {
        OrderedJson o;
        o["id"] = l.id;
        o["from"] = l.from;
        o["to"] = l.to;
        o["kind"] = l.kind;
        if (l.count != 1)
            o["count"] = l.count;
        return o;
    });
    items("systems", d.systems, [](const System &s) {
        OrderedJson o;
        o["name"] = s.name;
        o["host"] = s.host;
        o["devices"] = s.devices;
        return o;
    });
    if (d.cluster)
        j["cluster"] = {{"system", d.cluster->system},
                        {"nodes", d.cluster->nodes},
                        {"topology", d.cluster->topology}};
    if (!d.layout.empty()) {
        OrderedJson positions = OrderedJson::object();
        for (const auto &[id, p] : d.layout)
            positions[id] = OrderedJson{{"x", p.x}, {"y", p.y}};
        j["layout"]["positions"] = std::move(positions);
    }
    if (!d.parts.empty())
        j["parts"] = OrderedJson::parse(d.parts);
    if (!d.measurements.empty()) {
        OrderedJson list = OrderedJson::array();
        for (const Measurement &m : d.measurements) {
            OrderedJson o;
            o["kind"] = m.kind;
            for (const auto &[key, value] :
                 {std::pair{"from", &m.from}, {"to", &m.to}, {"system", &m.system}})
                if (!value->empty())
                    o[key] = *value;
            o["GBps"] = m.GBps;
            o["tool"] = m.tool;
            o["test"] = m.test;
            o["source"] = m.source;
            list.push_back(std::move(o));
        }
        j["measurements"] = std::move(list);
    }
    return j.dump(2) + "\n";
}

void saveDesign(const Design &design, const std::string &path)
{
    writeFileAtomically(path, writeDesign(design));
}

} // namespace clab::design
