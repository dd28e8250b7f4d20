#include "design/designindex.h"

namespace clab::design {

DesignIndex::DesignIndex(const Design &design)
    : m_design(design)
{
    for (const auto &h : design.hosts)
        m_hosts.emplace(h.id, &h);
    for (const auto &c : design.chassis)
        m_chassis.emplace(c.id, &c);
    for (const auto &s : design.switches)
        m_switches.emplace(s.id, &s);
    for (const auto &d : design.devices)
        m_devices.emplace(d.id, &d);
    // An endpoint is "item" or "item/port".
    auto item = [](std::string_view endpoint) { return endpoint.substr(0, endpoint.find('/')); };
    m_linked.reserve(2 * design.links.size());
    for (const auto &l : design.links) {
        m_linked.emplace(item(l.from), item(l.to));
        m_linked.emplace(item(l.to), item(l.from));
    }
    for (std::size_t s = 0; s < design.systems.size(); ++s) {
        m_owners.emplace(design.systems[s].host, s);
        for (const auto &d : design.systems[s].devices)
            m_owners.emplace(d, s);
    }
}

} // namespace clab::design
