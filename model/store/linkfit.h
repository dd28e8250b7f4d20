#pragma once

// `composelab calibrate --bandwidth DB`: each PCIe link kind's achieved fraction of its raw rate,
// fitted from the host-to-device and device-to-host measurements in an experiment store (the
// shipped link table, or any import that names its link), not from time-to-train rows.
#include <string>
#include <vector>

namespace clab::catalog {
class Catalog;
}

namespace clab::store {

class Store;

struct LinkFit
{
    std::string link;           // catalog link id, e.g. "pcie4x16"
    double rawGBps = 0;         // per direction
    double catalogFraction = 0; // what the catalog assumes now
    double fittedFraction = 0;  // median measurement / raw
    double minGBps = 0, maxGBps = 0;
    int measurements = 0;
    std::vector<std::string> from; // "tool: test (system)" of each measurement
};

// The catalog link a measurement's link name denotes: "pcie4_x16", "PCIe Gen4 x16" -> "pcie4x16";
// "" when it names none of the catalog's PCIe links.
std::string pcieLinkId(const std::string &name, const catalog::Catalog &catalog);

// One fit per PCIe link kind with measurements, in catalog order. Pageable and bidirectional
// copies are left out (neither is what a link carries one way).
std::vector<LinkFit> fitLinkFractions(Store &store, const catalog::Catalog &catalog);

} // namespace clab::store
