#pragma once

#include "design/design.h"

#include <map>
#include <string>

namespace clab::catalog {
class Catalog;
}

namespace clab::design {

// Sizes of the canvas' boxes in scene units, shared by the automatic layout and the canvas so
// that laid-out boxes never overlap. A chassis draws its slots in rows of kSlotsPerRow.
struct Box
{
    double width = 0;
    double height = 0;
};
inline constexpr double kGrid = 10;
inline constexpr int kSlotsPerRow = 8;
inline constexpr Box kHostBox{180, 70};
inline constexpr Box kSwitchBox{150, 56};
inline constexpr Box kDeviceBox{86, 56};
inline constexpr double kChassisPadding = 10;
inline constexpr double kChassisHeader = 52; // title and model above the slots
Box chassisBox(int slots);
// The top-left corner of slot `slot` relative to its chassis' top-left corner.
Position slotOffset(int slot);
// The box of any item of the design (hosts, chassis, switches, devices); a device in a slot has
// the device box.
Box boxOf(const Design &design, const catalog::Catalog &catalog, const std::string &id);

// A tidy layered layout: hosts in the top row, then what their links reach, one row per hop
// (switches, chassis, devices, network switches), each row ordered under the items it links to.
// Devices in chassis slots take no position (the chassis draws them). With `keepExisting`, items
// that already have a position keep it and only the others are placed, below the existing ones.
std::map<std::string, Position> autoLayout(const Design &design, const catalog::Catalog &catalog,
                                           bool keepExisting);

} // namespace clab::design
