#pragma once

// The two halves of fabric::analyze, for analyze() and fabric::Analyzer alone.

#include "fabric/analysis.h"
#include "fabric/fabric.h"
#include "fabric/routes.h"

#include <vector>

namespace clab::fabric {

// What one system's tables depend on alone: its host and devices on the fabric.
struct SystemTables
{
    SystemReport report;    // without what other systems do to it (allSystemsGBps, sharing)
    std::vector<Route> h2d; // host memory to each GPU, as report.h2d lists them
};
SystemTables tablesOf(const Fabric &fabric, Router &router, const design::System &system);

// What couples the systems of `out` (every system busy at once, the network between them), then
// the design's measurements; h2d[i] are system i's routes from tablesOf.
void finishAnalysis(Analysis &out, const design::Design &design, const Fabric &fabric,
                    Router &router, const std::vector<const std::vector<Route> *> &h2d);

} // namespace clab::fabric
