#pragma once

#include "design/autolayout.h"
#include "design/design.h"

#include <string>

namespace clab::catalog {
class Catalog;
}

namespace clab::design {

// The step items snap to on the canvas (twice the layout grid), and a position snapped to it.
inline constexpr double kSnapStep = 2 * kGrid;
Position snapToGrid(Position at);

// The device in slot `slot` of chassis `chassisId`, other than `except`; null when it is free.
const Device *slotHolder(const Design &design, std::string_view chassisId, int slot,
                         std::string_view except = {});

// A palette part placed on the design: the fragment to add (with a fresh id), and the host to
// compose it to when it was dropped on one. `target` is the item under the drop (or empty) and
// `slot` the chassis slot under it (or -1): a device over a chassis takes that slot when it is
// free, else the first free one; over a host it is cabled to the host's first socket, placed
// under it and composed to it; anything else goes where it was dropped, snapped to the grid.
// `problem` says why nothing can be placed (a link or routing entry, a full chassis).
struct PlacedPart
{
    std::string id;
    Design fragment;
    std::string composeTo; // a host id, or empty
    std::string problem;
};
PlacedPart placePart(const Design &design, const catalog::Catalog &catalog,
                     const std::string &model, Position at, const std::string &target, int slot);

} // namespace clab::design
