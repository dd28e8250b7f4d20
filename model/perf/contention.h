#pragma once

#include "fabric/stepflows.h"

#include <array>

namespace clab::perf {

using ClassTimes = std::array<double, fabric::kFlowClasses>;

// How long each class of a step's transfers takes when all start together and share the links
// they cross max-min fairly (as PCIe and NVLink arbitration share bulk copies), as a fluid: when
// a class finishes, the others take over what it used. `bytes` is each class's bytes per flow
// (0: the class does not run this step). `demandGBps` caps a class's rate per flow: a stream
// that spreads its bytes over the step (prefetched input) asks for no more than its average
// rate, and leaves the rest of a shared link to the others; 0 means no cap (a burst, such as the
// gradient ring). A class with flows but no path takes forever; a class that does not run takes
// 0 seconds. Latencies are not included.
//
// Every flow of a class moves the same bytes and runs at the rate of the class's most loaded
// link, so a class finishes when its slowest flow does: what a synchronous step waits for.
ClassTimes shareLinks(const fabric::StepFlows &flows, const ClassTimes &bytes,
                      const ClassTimes &demandGBps = {});

} // namespace clab::perf
