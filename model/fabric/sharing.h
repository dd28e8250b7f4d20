#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace clab::fabric {

// Max-min fair sharing of link capacity among transfers that run at once ("progressive filling"):
// every transfer's rate grows at the same pace until a link it crosses is full (or it reaches its
// own limit, e.g. a drive's read rate); then it is frozen and the others go on. This is what
// PCIe and NVLink arbitration converge to for bulk copies of equal priority.

struct Flow
{
    std::vector<std::size_t> resources; // directed-edge numbers the transfer crosses
    double limit = std::numeric_limits<double>::infinity();
};

struct FlowRate
{
    double rate = 0;
    long bottleneck = -1; // the resource that froze it; -1 when its own limit did
};

std::vector<FlowRate> maxMinFair(const std::vector<Flow> &flows,
                                 const std::vector<double> &capacity);

} // namespace clab::fabric
