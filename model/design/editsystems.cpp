// Edits of the composed systems: compose and release devices, group, rename and remove systems.
#include "design/edit.h"

#include <algorithm>

namespace clab::design {

namespace {

int systemIndex(const Design &design, std::string_view name)
{
    const auto it = std::find_if(design.systems.begin(), design.systems.end(),
                                 [&](const System &s) { return s.name == name; });
    return it == design.systems.end() ? -1 : int(it - design.systems.begin());
}

int firstSystemOfHost(const Design &design, std::string_view hostId)
{
    const auto it = std::find_if(design.systems.begin(), design.systems.end(),
                                 [&](const System &s) { return s.host == hostId; });
    return it == design.systems.end() ? -1 : int(it - design.systems.begin());
}

// In how many places of all systems the device is listed.
std::size_t placesOf(const Design &design, std::string_view deviceId)
{
    std::size_t n = 0;
    for (const System &s : design.systems)
        n += std::size_t(std::count(s.devices.begin(), s.devices.end(), deviceId));
    return n;
}

bool lists(const System &system, std::string_view deviceId)
{
    return std::find(system.devices.begin(), system.devices.end(), deviceId)
           != system.devices.end();
}

} // namespace

std::optional<Composition> compose(Design &design, const std::string &deviceId,
                                   const std::string &hostId)
{
    if (!design.device(deviceId))
        return std::nullopt;
    if (hostId.empty()) {
        std::vector<Membership> released = takeMemberships(design, deviceId);
        if (released.empty())
            return std::nullopt;
        return Composition{std::move(released), -1, false};
    }
    const Host *host = design.host(hostId);
    if (!host)
        return std::nullopt;
    int target = firstSystemOfHost(design, hostId);
    const bool listed = target >= 0 && lists(design.systems[std::size_t(target)], deviceId);
    if (listed && placesOf(design, deviceId) == 1)
        return std::nullopt; // already composed there and nowhere else
    const std::string systemName = host->name.empty() ? host->id : host->name;

    Composition c;
    c.released = takeMemberships(design, deviceId, target);
    if (target < 0) {
        design.systems.push_back({uniqueSystemName(design, systemName), hostId, {}});
        target = int(design.systems.size()) - 1;
        c.createdSystem = true;
    }
    if (!listed) {
        design.systems[std::size_t(target)].devices.push_back(deviceId);
        c.system = target;
    }
    return c;
}

void undoCompose(Design &design, const Composition &composition)
{
    if (composition.system >= 0 && composition.system < int(design.systems.size())) {
        auto &devices = design.systems[std::size_t(composition.system)].devices;
        if (!devices.empty())
            devices.pop_back();
    }
    if (composition.createdSystem && !design.systems.empty())
        design.systems.pop_back();
    putBackMemberships(design, composition.released);
}

std::optional<std::vector<Membership>> groupSystem(Design &design, System system)
{
    const Host *host = design.host(system.host);
    if (!host)
        return std::nullopt;
    std::vector<std::string> devices;
    for (std::string &d : system.devices) {
        if (design.device(d) && std::find(devices.begin(), devices.end(), d) == devices.end())
            devices.push_back(std::move(d));
    }
    system.devices = std::move(devices);
    system.name = uniqueSystemName(
        design, system.name.empty() ? (host->name.empty() ? host->id : host->name) : system.name);
    std::vector<Membership> released;
    for (const std::string &d : system.devices) {
        std::vector<Membership> taken = takeMemberships(design, d);
        released.insert(released.end(), std::make_move_iterator(taken.begin()),
                        std::make_move_iterator(taken.end()));
    }
    design.systems.push_back(std::move(system));
    return released;
}

void ungroupSystem(Design &design, const std::vector<Membership> &released)
{
    if (!design.systems.empty())
        design.systems.pop_back();
    putBackMemberships(design, released);
}

bool renameSystem(Design &design, const std::string &oldName, const std::string &newName)
{
    const int index = systemIndex(design, oldName);
    if (index < 0 || newName.empty() || newName == oldName || design.system(newName))
        return false;
    design.systems[std::size_t(index)].name = newName;
    return true;
}

std::optional<Indexed<System>> takeSystem(Design &design, std::string_view name)
{
    const int index = systemIndex(design, name);
    if (index < 0)
        return std::nullopt;
    Indexed<System> taken{index, std::move(design.systems[std::size_t(index)])};
    design.systems.erase(design.systems.begin() + index);
    return taken;
}

void putBackSystem(Design &design, const Indexed<System> &system)
{
    const auto at = std::min(std::size_t(std::max(system.index, 0)), design.systems.size());
    design.systems.insert(design.systems.begin() + std::ptrdiff_t(at), system.value);
}

} // namespace clab::design
