#include "fabric/sharing.h"

#include <algorithm>
#include <cmath>

namespace clab::fabric {

std::vector<FlowRate> maxMinFair(const std::vector<Flow> &flows,
                                 const std::vector<double> &capacity)
{
    std::vector<FlowRate> out(flows.size());
    std::vector<double> residual = capacity;
    std::vector<int> users(capacity.size(), 0);
    std::vector<std::vector<std::size_t>> flowsOn(capacity.size());
    std::vector<bool> frozen(flows.size(), false);
    std::size_t active = 0;
    for (std::size_t f = 0; f < flows.size(); ++f) {
        if (flows[f].resources.empty() && flows[f].limit == std::numeric_limits<double>::infinity()) {
            frozen[f] = true; // no path: rate 0
            continue;
        }
        ++active;
        for (std::size_t r : flows[f].resources) {
            ++users[r];
            flowsOn[r].push_back(f);
        }
    }
    std::vector<std::size_t> touched;
    for (std::size_t r = 0; r < capacity.size(); ++r) {
        if (users[r] > 0)
            touched.push_back(r);
    }
    constexpr double kEps = 1e-9;
    while (active > 0) {
        double step = std::numeric_limits<double>::infinity();
        for (std::size_t r : touched) {
            if (users[r] > 0)
                step = std::min(step, residual[r] / users[r]);
        }
        for (std::size_t f = 0; f < flows.size(); ++f) {
            if (!frozen[f])
                step = std::min(step, flows[f].limit - out[f].rate);
        }
        step = std::max(step, 0.0);
        for (std::size_t f = 0; f < flows.size(); ++f) {
            if (!frozen[f])
                out[f].rate += step;
        }
        for (std::size_t r : touched)
            residual[r] -= step * users[r];
        auto freeze = [&](std::size_t f, long why) {
            frozen[f] = true;
            out[f].bottleneck = why;
            --active;
            for (std::size_t r : flows[f].resources)
                --users[r];
        };
        for (std::size_t r : touched) {
            if (users[r] > 0 && residual[r] <= kEps * std::max(1.0, capacity[r])) {
                for (std::size_t f : flowsOn[r]) {
                    if (!frozen[f])
                        freeze(f, static_cast<long>(r));
                }
            }
        }
        for (std::size_t f = 0; f < flows.size(); ++f) {
            const double limit = flows[f].limit;
            if (!frozen[f] && std::isfinite(limit) && limit - out[f].rate <= kEps * std::max(1.0, limit))
                freeze(f, -1);
        }
    }
    return out;
}

} // namespace clab::fabric
