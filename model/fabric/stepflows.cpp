#include "fabric/stepflows.h"

#include "fabric/stepflowsbuilder.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace clab::fabric {

const char *flowClassName(FlowClass c)
{
    switch (c) {
    case FlowClass::Ring:
        return "gradient ring";
    case FlowClass::Input:
        return "input copies";
    case FlowClass::Storage:
        return "storage reads";
    case FlowClass::Network:
        return "network traffic";
    }
    return "?";
}

void StepFlowsBuilder::add(FlowClass c, const Route &route)
{
    if (route.kind == RouteKind::None || route.resources.empty())
        return;
    const std::size_t k = std::size_t(c);
    ++m_out.count[k];
    m_factor[k] = std::min(m_factor[k], route.factor);
    m_out.latencyUs[k] = std::max(m_out.latencyUs[k], route.latencyUs);
    for (std::size_t r : route.resources)
        ++m_flows[long(r)][k];
}

void StepFlowsBuilder::addDrive(const Route &route, double readGBps, const std::string &label)
{
    if (route.kind == RouteKind::None)
        return;
    add(FlowClass::Storage, route);
    // The drive itself is a resource of its own, crossed by its one read.
    const long id = -long(m_drives.size()) - 1;
    m_drives.push_back({readGBps, label});
    ++m_flows[id][std::size_t(FlowClass::Storage)];
}

StepFlows StepFlowsBuilder::finish(const std::vector<double> &capacity,
                                   const std::function<std::string(std::size_t)> &labelOf)
{
    for (std::size_t k = 0; k < kFlowClasses; ++k)
        m_out.factor[k] = m_out.count[k] > 0 ? m_factor[k] : 1.0;
    // Links crossed with the same capacity by the same numbers of flows bind alike: keep one.
    std::map<std::tuple<double, std::array<int, kFlowClasses>>, std::size_t> seen;
    for (const auto &[id, flows] : m_flows) {
        const bool drive = id < 0;
        const double cap = drive ? m_drives[std::size_t(-id - 1)].first : capacity[std::size_t(id)];
        const auto key = std::make_tuple(cap, flows);
        if (seen.count(key))
            continue;
        seen.emplace(key, m_out.resources.size());
        m_out.resources.push_back(
            {cap, flows, drive ? m_drives[std::size_t(-id - 1)].second : labelOf(std::size_t(id))});
    }
    return std::move(m_out);
}

} // namespace clab::fabric
