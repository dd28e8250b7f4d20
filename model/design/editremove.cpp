// Removing items and system memberships so that undo can put back exactly what was there.
#include "design/edit.h"

#include <algorithm>

namespace clab::design {

namespace {

template<typename T, typename Pred>
std::vector<Indexed<T>> takeIf(std::vector<T> &items, Pred pred)
{
    std::vector<Indexed<T>> taken;
    std::vector<T> kept;
    kept.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (pred(items[i]))
            taken.push_back({int(i), std::move(items[i])});
        else
            kept.push_back(std::move(items[i]));
    }
    items = std::move(kept);
    return taken;
}

// Merges `taken` (ascending indices) back in one pass: inserting one by one would be quadratic
// when a large selection is restored.
template<typename T>
void putBack(std::vector<T> &items, const std::vector<Indexed<T>> &taken)
{
    if (taken.empty())
        return;
    std::vector<T> merged;
    merged.reserve(items.size() + taken.size());
    auto next = items.begin();
    auto back = taken.begin();
    while (next != items.end() || back != taken.end()) {
        const bool takeBack
            = back != taken.end() && (back->index <= int(merged.size()) || next == items.end());
        if (takeBack)
            merged.push_back((back++)->value);
        else
            merged.push_back(std::move(*next++));
    }
    items = std::move(merged);
}

// Takes the device ids matching `pred` out of every system; in the system at index `keep`, the
// first match stays.
template<typename Pred>
std::vector<Membership> takeMembers(Design &design, Pred pred, int keep)
{
    std::vector<Membership> taken;
    for (std::size_t s = 0; s < design.systems.size(); ++s) {
        bool spare = int(s) == keep;
        auto out = takeIf(design.systems[s].devices, [&](const std::string &device) {
            if (!pred(device))
                return false;
            if (spare) {
                spare = false;
                return false;
            }
            return true;
        });
        if (!out.empty())
            taken.push_back({int(s), std::move(out)});
    }
    return taken;
}

} // namespace

std::vector<Membership> takeMemberships(Design &design, std::string_view deviceId, int keep)
{
    return takeMembers(
        design, [&](const std::string &d) { return d == deviceId; }, keep);
}

void putBackMemberships(Design &design, const std::vector<Membership> &taken)
{
    // Backwards, so that the results of several takes, concatenated, undo in reverse order.
    for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
        if (it->system >= 0 && it->system < int(design.systems.size()))
            putBack(design.systems[std::size_t(it->system)].devices, it->devices);
    }
}

bool Removal::empty() const
{
    return hosts.empty() && chassis.empty() && switches.empty() && devices.empty() && links.empty()
           && systems.empty() && members.empty() && positions.empty();
}

Removal removeItems(Design &design, const std::vector<std::string> &ids,
                    const std::vector<std::string> &linkIds)
{
    const std::set<std::string> named(ids.begin(), ids.end());
    std::set<std::string> gone;
    std::set<std::string> goneChassis;
    for (const std::string &id : named) {
        if (hasItem(design, id))
            gone.insert(id);
        if (design.findChassis(id))
            goneChassis.insert(id);
    }
    for (const Device &d : design.devices) {
        if (goneChassis.contains(d.chassis))
            gone.insert(d.id);
    }
    const auto isGone = [&](const auto &item) { return gone.contains(item.id); };
    const std::set<std::string> namedLinks(linkIds.begin(), linkIds.end());
    const auto extraLink = [&](const Link &l) { return namedLinks.contains(l.id); };

    Removal r;
    r.hosts = takeIf(design.hosts, isGone);
    r.chassis = takeIf(design.chassis, isGone);
    r.switches = takeIf(design.switches, isGone);
    r.devices = takeIf(design.devices, isGone);
    r.links = takeIf(design.links, [&](const Link &l) {
        return gone.contains(splitEndpoint(l.from).item) || gone.contains(splitEndpoint(l.to).item)
               || extraLink(l);
    });
    r.systems = takeIf(design.systems, [&](const System &s) { return gone.contains(s.host); });
    r.members = takeMembers(
        design, [&](const std::string &d) { return gone.contains(d); }, -1);
    for (const std::string &id : gone) {
        const auto it = design.layout.find(id);
        if (it != design.layout.end()) {
            r.positions.emplace(id, it->second);
            design.layout.erase(it);
        }
    }
    return r;
}

void restoreItems(Design &design, const Removal &removal)
{
    putBackMemberships(design, removal.members);
    putBack(design.systems, removal.systems);
    putBack(design.links, removal.links);
    putBack(design.devices, removal.devices);
    putBack(design.switches, removal.switches);
    putBack(design.chassis, removal.chassis);
    putBack(design.hosts, removal.hosts);
    for (const auto &[id, position] : removal.positions)
        design.layout[id] = position;
}

} // namespace clab::design
