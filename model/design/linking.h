#pragma once

#include "design/design.h"
#include "design/designindex.h"

#include <string>

namespace clab::catalog {
class Catalog;
}

namespace clab::design {

// What cable joins two ports when the user drags from one to the other on the canvas: the
// catalog link kind and its count, or why the ports cannot be joined. The choice is the link a
// technician would fit: PCIe at the lower generation of the two sides, x16 unless a device has
// fewer lanes; NVLink of the GPUs' generation (one link; a bridge's count is edited after);
// a NIC's own port kind to a network switch of the same family.
struct LinkChoice
{
    std::string kind; // empty when the ports cannot be joined
    int count = 1;
    std::string error;
    bool ok() const { return !kind.empty(); }
};

LinkChoice chooseLink(const DesignIndex &design, const catalog::Catalog &catalog,
                      const std::string &from, const std::string &to);

} // namespace clab::design
