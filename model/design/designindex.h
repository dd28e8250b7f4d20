#pragma once

#include "design/design.h"

#include <cstddef>
#include <string_view>
#include <utility>
#include <unordered_map>

namespace clab::design {

// Constant-time lookup of a design's items by id, for analyses that look items up for every
// link and device (a linear search each time made a 1,000-device analysis quadratic). Keys view
// the design's own strings: the design must outlive the index and stay unchanged. When ids
// repeat (a design-rule error) the first item wins.
class DesignIndex
{
public:
    explicit DesignIndex(const Design &design);

    const Design &design() const { return m_design; }
    const Host *host(std::string_view id) const { return find(m_hosts, id); }
    const Chassis *chassis(std::string_view id) const { return find(m_chassis, id); }
    const Switch *findSwitch(std::string_view id) const { return find(m_switches, id); }
    const Device *device(std::string_view id) const { return find(m_devices, id); }
    // The items a link joins to `id` (an item id, without a port), once per link end.
    using Neighbours = std::unordered_multimap<std::string_view, std::string_view>;
    std::pair<Neighbours::const_iterator, Neighbours::const_iterator>
    linked(std::string_view id) const
    {
        return m_linked.equal_range(id);
    }
    // The systems whose host or devices include the item `id`.
    using Owners = std::unordered_multimap<std::string_view, std::size_t>;
    std::pair<Owners::const_iterator, Owners::const_iterator> systemsOf(std::string_view id) const
    {
        return m_owners.equal_range(id);
    }

private:
    template<typename T>
    static const T *find(const std::unordered_map<std::string_view, const T *> &map,
                         std::string_view id)
    {
        const auto it = map.find(id);
        return it == map.end() ? nullptr : it->second;
    }

    const Design &m_design;
    std::unordered_map<std::string_view, const Host *> m_hosts;
    std::unordered_map<std::string_view, const Chassis *> m_chassis;
    std::unordered_map<std::string_view, const Switch *> m_switches;
    std::unordered_map<std::string_view, const Device *> m_devices;
    Neighbours m_linked;
    Owners m_owners;
};

} // namespace clab::design
