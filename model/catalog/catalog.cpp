#include "catalog/catalog.h"

#include "util/embedded.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cctype>

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

const Catalog &Catalog::builtin()
{
    // Built once; the embedded files are part of the program, so an error here is a bug in
    // resources/catalog that the catalog tests catch before anyone ships it.
    static const Catalog catalog = [] {
        Catalog c;
        for (const EmbeddedFile &f : embeddedFiles()) {
            if (f.path.starts_with("resources/catalog/"))
                c.addFile(f.text, std::string(f.path));
        }
        c.checkReferences();
        return c;
    }();
    return catalog;
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
