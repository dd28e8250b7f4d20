#include "design/placement.h"

#include "catalog/catalog.h"
#include "design/autolayout.h"
#include "design/designindex.h"
#include "design/edit.h"
#include "design/linking.h"

#include <cmath>
#include <vector>

namespace clab::design {

namespace {

std::string prefixFor(catalog::Kind kind)
{
    switch (kind) {
    case catalog::Kind::Host:
        return "host";
    case catalog::Kind::Chassis:
        return "chassis";
    case catalog::Kind::PcieSwitch:
        return "plx";
    case catalog::Kind::Gpu:
        return "gpu";
    case catalog::Kind::Nvme:
        return "nvme";
    case catalog::Kind::Nic:
        return "nic";
    case catalog::Kind::NetworkSwitch:
        return "netswitch";
    case catalog::Kind::NvSwitch:
        return "nvswitch";
    default:
        return "item";
    }
}

// `wanted` when it is a free slot of the chassis, else its first free slot, or -1 when full.
int freeSlot(const Design &design, const catalog::Catalog &catalog, const Chassis &chassis,
             int wanted)
{
    const catalog::Chassis *spec = catalog.chassis(chassis.model);
    std::vector<bool> taken(spec ? std::size_t(spec->slots) : 0, false);
    for (const Device &d : design.devices)
        if (d.chassis == chassis.id && d.slot >= 0 && d.slot < int(taken.size()))
            taken[std::size_t(d.slot)] = true;
    if (wanted >= 0 && wanted < int(taken.size()) && !taken[std::size_t(wanted)])
        return wanted;
    for (std::size_t s = 0; s < taken.size(); ++s)
        if (!taken[s])
            return int(s);
    return -1;
}

} // namespace

Position snapToGrid(Position at)
{
    return {std::round(at.x / kSnapStep) * kSnapStep, std::round(at.y / kSnapStep) * kSnapStep};
}

const Device *slotHolder(const Design &design, std::string_view chassisId, int slot,
                         std::string_view except)
{
    for (const Device &d : design.devices)
        if (d.chassis == chassisId && d.slot == slot && d.id != except)
            return &d;
    return nullptr;
}

PlacedPart placePart(const Design &design, const catalog::Catalog &catalog,
                     const std::string &model, Position at, const std::string &target, int slot)
{
    PlacedPart placed;
    const auto kind = catalog.kindOf(model);
    if (!kind || *kind == catalog::Kind::Link || *kind == catalog::Kind::Routing
        || *kind == catalog::Kind::NvlinkBridge) {
        placed.problem = kind == catalog::Kind::NvlinkBridge
                             ? "an NVLink bridge is a link: Shift+drag from one GPU to another"
                             : model + " cannot be placed on the canvas";
        return placed;
    }
    const std::string id = uniqueId(design, prefixFor(*kind));
    Design &fragment = placed.fragment;
    const bool device = *kind == catalog::Kind::Gpu || *kind == catalog::Kind::Nvme
                        || *kind == catalog::Kind::Nic;
    const Chassis *chassis = design.findChassis(target);
    const Host *host = design.host(target);
    const Position snapped = snapToGrid(at);
    if (device && chassis) {
        const int free = freeSlot(design, catalog, *chassis, slot);
        if (free < 0) {
            placed.problem = chassis->id + " has no free slot";
            return placed;
        }
        fragment.devices.push_back({id, model, {}, chassis->id, free});
    } else if (device) {
        fragment.devices.push_back({id, model, {}, {}, -1});
        fragment.layout[id] = snapped;
    } else if (*kind == catalog::Kind::Host) {
        fragment.hosts.push_back({id, model, {}});
        fragment.layout[id] = snapped;
    } else if (*kind == catalog::Kind::Chassis) {
        fragment.chassis.push_back({id, model, {}});
        fragment.layout[id] = snapped;
    } else {
        fragment.switches.push_back({id, model, {}});
        fragment.layout[id] = snapped;
    }
    if (device && host) {
        // Cabled to the host's first socket: the cable depends on the host and the device alone.
        Design pair;
        pair.hosts.push_back(*host);
        pair.devices.push_back(fragment.devices.front());
        const LinkChoice choice = chooseLink(DesignIndex(pair), catalog, host->id + "/cpu0", id);
        const auto hostAt = design.layout.find(host->id);
        const Position under = hostAt == design.layout.end() ? snapped : hostAt->second;
        fragment.layout[id] = {under.x, under.y + kHostBox.height + 60};
        if (choice.ok())
            fragment.links.push_back({host->id + "/cpu0", id, choice.kind, choice.count, {}});
        placed.composeTo = host->id;
    }
    placed.id = id;
    return placed;
}

} // namespace clab::design
