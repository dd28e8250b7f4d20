#include "catalog/catalog.h"

#include "util/embedded.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>

namespace clab::catalog {

int Chassis::switchCount() const
{
    int n = 0;
    for (int s : switchOfSlot)
        n = std::max(n, s + 1);
    for (int s : switchOfHostPort)
        n = std::max(n, s + 1);
    for (const auto &l : interSwitch)
        n = std::max({n, l[0] + 1, l[1] + 1});
    return n;
}

const char *kindName(Kind kind)
{
    switch (kind) {
    case Kind::Gpu:
        return "GPU";
    case Kind::Host:
        return "host";
    case Kind::Nvme:
        return "NVMe drive";
    case Kind::Nic:
        return "NIC";
    case Kind::PcieSwitch:
        return "PCIe switch";
    case Kind::Chassis:
        return "chassis";
    case Kind::NetworkSwitch:
        return "network switch";
    case Kind::NvSwitch:
        return "NVSwitch baseboard";
    case Kind::NvlinkBridge:
        return "NVLink bridge";
    case Kind::Link:
        return "link kind";
    case Kind::Routing:
        return "routing";
    }
    return "?";
}

std::optional<LinkFamily> linkFamilyFromString(std::string_view text)
{
    if (text == "pcie")
        return LinkFamily::Pcie;
    if (text == "nvlink")
        return LinkFamily::Nvlink;
    if (text == "infiniband")
        return LinkFamily::Infiniband;
    if (text == "ethernet")
        return LinkFamily::Ethernet;
    if (text == "socket")
        return LinkFamily::Socket;
    return std::nullopt;
}

const char *linkFamilyName(LinkFamily family)
{
    switch (family) {
    case LinkFamily::Pcie:
        return "pcie";
    case LinkFamily::Nvlink:
        return "nvlink";
    case LinkFamily::Infiniband:
        return "infiniband";
    case LinkFamily::Ethernet:
        return "ethernet";
    case LinkFamily::Socket:
        return "socket";
    }
    return "?";
}

namespace {

// Every catalog with user parts the program has published, the newest last: never freed, so that
// a reference handed out once stays valid (user parts are added a handful of times in a session).
struct Published
{
    std::mutex writing;
    std::vector<std::unique_ptr<const Catalog>> all;
    std::atomic<const Catalog *> current{nullptr};
};

Published &published()
{
    static Published p;
    return p;
}

} // namespace

const Catalog &Catalog::builtin()
{
    // Built once; the embedded files are part of the program, so an error here is a bug in
    // resources/catalog that the catalog tests catch before anyone ships it.
    static const Catalog compiled = [] {
        Catalog c;
        for (const EmbeddedFile &f : embeddedFiles()) {
            if (f.path.starts_with("resources/catalog/"))
                c.addFile(f.text, std::string(f.path));
        }
        c.checkReferences();
        return c;
    }();
    const Catalog *current = published().current.load(std::memory_order_acquire);
    return current ? *current : compiled;
}

void Catalog::addUserParts(std::string_view text, const std::string &fileName)
{
    Published &p = published();
    const std::lock_guard lock(p.writing);
    std::unique_ptr<Catalog> next = withUserParts(text, fileName);
    if (!next)
        return;
    p.all.push_back(std::move(next));
    p.current.store(p.all.back().get(), std::memory_order_release);
}

void Catalog::checkUserParts(std::string_view text, const std::string &fileName)
{
    withUserParts(text, fileName);
}

std::unique_ptr<Catalog> Catalog::withUserParts(std::string_view text, const std::string &fileName)
{
    const Json root = parseJson(text, fileName);
    if (!root.is_object())
        throw InputError(fileName, "at /", "expected an object of catalog sections");
    const Catalog &now = builtin();
    // Parts the catalog has already, defined the same way, are skipped (a design that embeds the
    // user's own parts); defined otherwise, refused.
    Json added = Json::object();
    std::vector<std::string> ids;
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (!it.value().is_array())
            throw InputError(fileName, "at " + childPointer("", it.key()),
                             std::string("expected an array, found ") + jsonTypeName(it.value()));
        Json kept = Json::array();
        for (std::size_t i = 0; i < it.value().size(); ++i) {
            const Json &entry = it.value()[i];
            const Json *id = entry.is_object() && entry.contains("id") ? &entry.at("id") : nullptr;
            if (id && id->is_string() && now.kindOf(id->get<std::string>())) {
                const std::string existing = now.entryJson(id->get<std::string>());
                if (!existing.empty() && Json::parse(existing) == entry)
                    continue;
                throw InputError(fileName,
                                 "at " + childPointer(childPointer("", it.key()), i) + "/id",
                                 "\"" + id->get<std::string>()
                                     + "\" is already a part of the catalog, defined otherwise; "
                                       "give this one another id");
            }
            if (id && id->is_string())
                ids.push_back(id->get<std::string>());
            kept.push_back(entry);
        }
        if (!kept.empty())
            added[it.key()] = std::move(kept);
    }
    if (added.empty())
        return nullptr;
    auto next = std::make_unique<Catalog>(now);
    next->addFile(added.dump(), fileName);
    next->checkReferences();
    for (const std::string &id : ids)
        next->markUser(id);
    return next;
}

std::vector<std::string> Catalog::addUserFolder(const std::string &folder)
{
    std::vector<std::string> problems;
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        return problems;
    std::vector<std::filesystem::path> files;
    for (const auto &e : std::filesystem::directory_iterator(folder, ec))
        if (e.path().extension() == ".json")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto &f : files) {
        try {
            addUserParts(readTextFile(f.string()), f.string());
        } catch (const std::exception &e) {
            problems.push_back(e.what());
        }
    }
    return problems;
}

std::string Catalog::userFolder()
{
    const char *xdg = std::getenv("XDG_DATA_HOME");
    std::string base;
    if (xdg && *xdg) {
        base = xdg;
    } else {
        const char *home = std::getenv("HOME");
        base = std::string(home ? home : ".") + "/.local/share";
    }
    return base + "/ComposeLab/catalog";
}

void Catalog::markUser(const std::string &id)
{
    const auto kind = kindOf(id);
    if (!kind)
        return;
    auto mark = [&](auto &map) {
        if (auto it = map.find(id); it != map.end())
            it->second.user = true;
    };
    switch (*kind) {
    case Kind::Gpu:
        mark(m_gpus);
        break;
    case Kind::Host:
        mark(m_hosts);
        break;
    case Kind::Nvme:
        mark(m_nvme);
        break;
    case Kind::Nic:
        mark(m_nics);
        break;
    case Kind::PcieSwitch:
        mark(m_pcieSwitches);
        break;
    case Kind::Chassis:
        mark(m_chassis);
        break;
    case Kind::NetworkSwitch:
        mark(m_networkSwitches);
        break;
    case Kind::NvSwitch:
        mark(m_nvSwitches);
        break;
    case Kind::NvlinkBridge:
        mark(m_nvlinkBridges);
        break;
    case Kind::Link:
        mark(m_links);
        break;
    case Kind::Routing:
        break;
    }
}

std::string Catalog::entryJson(std::string_view id) const
{
    const auto it = m_raw.find(id);
    return it == m_raw.end() ? std::string() : it->second.second;
}

std::string Catalog::sectionOf(std::string_view id) const
{
    const auto it = m_raw.find(id);
    return it == m_raw.end() ? std::string() : it->second.first;
}

std::string Catalog::userPartsJson(const std::vector<std::string> &ids) const
{
    Json out = Json::object();
    std::set<std::string> seen;
    for (const std::string &id : ids) {
        const Entry *e = entry(id);
        if (!e || !e->user || !seen.insert(id).second)
            continue;
        const auto &[section, text] = m_raw.at(id);
        out[section].push_back(Json::parse(text));
    }
    return out.empty() ? std::string() : out.dump();
}

void Catalog::checkReferences() const
{
    auto needLink = [&](const std::string &owner, const std::string &link, LinkFamily family) {
        const LinkKind *l = this->link(link);
        if (!l || l->family != family)
            throw InputError(m_files.at(owner), "entry \"" + owner + "\"",
                             "refers to link kind \"" + link + "\", which is not a "
                                 + linkFamilyName(family) + " link of the catalog");
    };
    for (const auto &[id, h] : m_hosts) {
        if (h.sockets > 1)
            needLink(id, h.interSocketLink, LinkFamily::Socket);
    }
    for (const auto &[id, g] : m_gpus) {
        // An NVLink generation the catalog has no link kind for (a user's P100) still loads, as
        // before: only a link named outright (Infinity Fabric) must exist.
        if (g.nvlinkGen == 0 && !g.peerLink.empty())
            needLink(id, g.peerLink, LinkFamily::Nvlink);
    }
    for (const auto &[id, n] : m_nics) {
        const LinkKind *l = link(n.link);
        if (!l || (l->family != LinkFamily::Infiniband && l->family != LinkFamily::Ethernet))
            throw InputError(m_files.at(id), "entry \"" + id + "\"",
                             "refers to link kind \"" + n.link + "\", not a network link");
    }
    for (const auto &[id, s] : m_networkSwitches) {
        const LinkKind *l = link(s.link);
        if (!l || (l->family != LinkFamily::Infiniband && l->family != LinkFamily::Ethernet))
            throw InputError(m_files.at(id), "entry \"" + id + "\"",
                             "refers to link kind \"" + s.link + "\", not a network link");
    }
    for (const auto &[id, c] : m_chassis) {
        if (!pcieSwitch(c.switchModel))
            throw InputError(m_files.at(id), "entry \"" + id + "\"",
                             "refers to PCIe switch \"" + c.switchModel
                                 + "\", which is not in the catalog");
        if (!pcieLink(c.pcieGen, 16))
            throw InputError(m_files.at(id), "entry \"" + id + "\"",
                             "needs link kind pcie" + std::to_string(c.pcieGen) + "x16");
    }
    if (!m_hasRouting)
        throw InputError("resources/catalog", "", "no routing entry in the catalog");
}

const LinkKind *Catalog::pcieLink(int gen, int lanes) const
{
    return link("pcie" + std::to_string(gen) + "x" + std::to_string(lanes));
}

std::optional<Kind> Catalog::kindOf(std::string_view id) const
{
    const auto it = m_kinds.find(id);
    if (it == m_kinds.end())
        return std::nullopt;
    return it->second;
}

const Entry *Catalog::entry(std::string_view id) const
{
    const auto kind = kindOf(id);
    if (!kind)
        return nullptr;
    switch (*kind) {
    case Kind::Gpu:
        return gpu(id);
    case Kind::Host:
        return host(id);
    case Kind::Nvme:
        return nvme(id);
    case Kind::Nic:
        return nic(id);
    case Kind::PcieSwitch:
        return pcieSwitch(id);
    case Kind::Chassis:
        return chassis(id);
    case Kind::NetworkSwitch:
        return networkSwitch(id);
    case Kind::NvSwitch:
        return nvSwitch(id);
    case Kind::NvlinkBridge:
        return nvlinkBridge(id);
    case Kind::Link:
        return link(id);
    case Kind::Routing:
        return &m_routing;
    }
    return nullptr;
}

std::vector<const Entry *> Catalog::entries(Kind kind) const
{
    std::vector<const Entry *> out;
    for (const auto &[id, k] : m_kinds) {
        if (k == kind)
            out.push_back(entry(id));
    }
    return out;
}

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1]))
                              == std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

std::vector<std::string> Catalog::suggest(std::string_view id, const std::vector<Kind> &kinds,
                                          std::size_t count) const
{
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (const auto &[candidate, kind] : m_kinds) {
        if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
            scored.emplace_back(editDistance(id, candidate), candidate);
    }
    std::sort(scored.begin(), scored.end());
    std::vector<std::string> out;
    for (std::size_t i = 0; i < scored.size() && i < count; ++i)
        out.push_back(scored[i].second);
    return out;
}

} // namespace clab::catalog
