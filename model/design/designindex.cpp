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
}

} // namespace clab::design
