#pragma once

#include "fabric/routes.h"
#include "fabric/stepflows.h"

#include <functional>
#include <limits>
#include <map>
#include <utility>

namespace clab::fabric {

// Collects the routes of a step's transfers, class by class, into StepFlows.
class StepFlowsBuilder
{
public:
    void add(FlowClass c, const Route &route);
    // A storage read: its route, and the drive's own read rate as a resource of its own.
    void addDrive(const Route &route, double readGBps, const std::string &label);
    StepFlows finish(const std::vector<double> &capacity,
                     const std::function<std::string(std::size_t)> &labelOf);

private:
    StepFlows m_out;
    std::array<double, kFlowClasses> m_factor{1, 1, 1, 1};
    std::map<long, std::array<int, kFlowClasses>> m_flows; // resource (drives < 0) -> flows
    std::vector<std::pair<double, std::string>> m_drives;
};

} // namespace clab::fabric
