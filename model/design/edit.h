#pragma once

#include "design/design.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace clab::design {

// Edits of a Design as plain functions, so that the canvas's undo commands (app/commands/) stay
// thin and the edits are tested without Qt. An edit that takes something out returns what it
// took with the former indices; the matching put-back then gives an identical Design
// (operator==) without a snapshot of the whole design, which a long undo history of a
// 1,000-device design could not afford.

// Whether `id` names a host, chassis, switch or device.
bool hasItem(const Design &design, std::string_view id);
// Ids of every host, chassis, switch and device (they share one namespace).
std::set<std::string> itemIds(const Design &design);

// "gpu" -> "gpu1", "gpu2", ... the first id not used by any item of the design (ids are shared by
// hosts, chassis, switches and devices).
std::string uniqueId(const Design &design, std::string_view prefix);
// "link1", "link2", ... the first id no link of the design has (links have their own namespace).
std::string uniqueLinkId(const Design &design);
// Gives every link without an id the first free "linkN" (a version 1 file, a design built in
// code); the ids links already have stay.
void assignLinkIds(Design &design);
// Gives each link of `fragment` that has no id, or one `design` (or an earlier link of the
// fragment) already has, the first free "linkN", so that appending it keeps ids unique.
void giveLinkIds(const Design &design, Design &fragment);
// The position of the link with this id in design.links, or -1.
int linkIndex(const Design &design, std::string_view linkId);
// `name` if no system has it, else "name (2)", "name (3)", ...
std::string uniqueSystemName(const Design &design, std::string_view name);

// The items named (and the links between them, their layout positions, systems wholly inside) as a
// fragment design, for copy. A named chassis brings the devices in its slots; a device whose
// chassis is not copied leaves its slot behind (it would otherwise fill a slot twice on paste).
Design copyItems(const Design &design, const std::vector<std::string> &ids);
// A fragment ready to paste into `design`: ids that clash are renamed (links and systems follow),
// positions shifted by (dx, dy), system names made unique. A clashing id keeps its stem without
// trailing digits: "gpu3" becomes the first free "gpuN".
Design prepareForPaste(const Design &design, Design fragment, double dx, double dy);

// Appends every item, link, system and position of `fragment` (its name and description are
// ignored). Returns the positions it overwrote, for removeAppended.
std::map<std::string, Position> appendItems(Design &design, const Design &fragment);
// Undoes appendItems(design, fragment) on the design it returned.
void removeAppended(Design &design, const Design &fragment,
                    const std::map<std::string, Position> &overwritten);

// A list element that was taken out, and where it stood.
template<typename T>
struct Indexed
{
    int index = 0;
    T value;
    bool operator==(const Indexed &) const = default;
};

// Device ids taken out of the system at index `system` (indices as they were when taken).
struct Membership
{
    int system = 0;
    std::vector<Indexed<std::string>> devices;
    bool operator==(const Membership &) const = default;
};

// Takes `deviceId` out of every system, except its first place in the system at index `keep`.
std::vector<Membership> takeMemberships(Design &design, std::string_view deviceId, int keep = -1);
// Undoes takeMemberships.
void putBackMemberships(Design &design, const std::vector<Membership> &taken);

// What removeItems took out. Members are taken from the systems that stay, after whole systems
// were removed, so restoreItems puts them back in the reverse order.
struct Removal
{
    std::vector<Indexed<Host>> hosts;
    std::vector<Indexed<Chassis>> chassis;
    std::vector<Indexed<Switch>> switches;
    std::vector<Indexed<Device>> devices;
    std::vector<Indexed<Link>> links;
    std::vector<Indexed<System>> systems;
    std::vector<Membership> members;
    std::map<std::string, Position> positions;

    bool empty() const;
};

// Removes the items named and with them: devices in a removed chassis, links touching any removed
// item, their membership in systems, systems whose host is removed, their layout positions.
// `linkIds` are extra links to remove, by id. Unknown ids are ignored.
Removal removeItems(Design &design, const std::vector<std::string> &ids,
                    const std::vector<std::string> &linkIds = {});
// Undoes removeItems on the design it returned.
void restoreItems(Design &design, const Removal &removal);

// Positions of `ids` as they are now; no value for an item without one.
std::map<std::string, std::optional<Position>> positionsOf(const Design &design,
                                                           const std::vector<std::string> &ids);
// Sets each position, or erases it when it has no value.
void setPositions(Design &design, const std::map<std::string, std::optional<Position>> &positions);

// What compose changed.
struct Composition
{
    std::vector<Membership> released; // places the device left
    int system = -1;                  // the system it was appended to, or -1
    bool createdSystem = false;       // that system was new (it is then the last one)
};

// Composes a device to a host: appends it to the first system of that host, creating a system
// named after the host if it has none, and takes it out of every other system. With an empty
// `hostId` releases it to the pool (out of every system). Nothing when the device or host is
// unknown, or nothing would change.
std::optional<Composition> compose(Design &design, const std::string &deviceId,
                                   const std::string &hostId);
// Undoes compose on the design it returned.
void undoCompose(Design &design, const Composition &composition);

// Appends `system` (its name made unique, unknown and repeated devices dropped); its devices leave
// any other system. Nothing when the host is unknown. Returns the places the devices left.
std::optional<std::vector<Membership>> groupSystem(Design &design, System system);
// Undoes groupSystem: drops the last system and puts the devices back.
void ungroupSystem(Design &design, const std::vector<Membership> &released);

// Renames a system; false (and nothing done) when `oldName` is unknown or `newName` is empty or
// taken by another system.
bool renameSystem(Design &design, const std::string &oldName, const std::string &newName);
// Takes out the system named; its devices return to the pool.
std::optional<Indexed<System>> takeSystem(Design &design, std::string_view name);
void putBackSystem(Design &design, const Indexed<System> &system);

// Sets the display name or catalog model of a host, chassis, switch or device; returns the old
// value, or nothing when the id is unknown.
std::optional<std::string> setItemName(Design &design, std::string_view id, std::string name);
std::optional<std::string> setItemModel(Design &design, std::string_view id, std::string model);
// The display name of a host, chassis, switch or device (maybe empty), or nothing for an unknown
// id.
std::optional<std::string> itemName(const Design &design, std::string_view id);

struct Placement
{
    std::string chassis; // empty: not in a chassis
    int slot = -1;
    bool operator==(const Placement &) const = default;
};
// Puts a device into a chassis slot, or takes it out with an empty chassis (the slot becomes -1);
// returns the old placement, or nothing when the device or chassis is unknown or the slot is
// negative. A slot already in use is left for the design rules to report.
std::optional<Placement> setPlacement(Design &design, std::string_view deviceId,
                                      Placement placement);

// Whether a link can be stored: both endpoints name an item of the design and the count is
// within 1..kMaxLinkCount. The catalog's port rules are the design rules' business.
bool isStorableLink(const Design &design, const Link &link);

} // namespace clab::design
