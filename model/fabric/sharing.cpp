#include "fabric/sharing.h"

#include <algorithm>
#include <cmath>

namespace clab::fabric {

std::vector<FlowRate> maxMinFair(const std::vector<Flow> &flows,
                                 const std::vector<double> &capacity)
{
    // Work on the resources the flows actually cross, numbered densely: a system's transfers
    // touch a few dozen links of a fabric that may have thousands.
    std::vector<std::size_t> used;
    for (const Flow &f : flows)
        used.insert(used.end(), f.resources.begin(), f.resources.end());
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    auto local = [&](std::size_t r) {
        return std::size_t(std::lower_bound(used.begin(), used.end(), r) - used.begin());
    };

    const std::size_t n = used.size();
    std::vector<double> residual(n);
    for (std::size_t i = 0; i < n; ++i)
        residual[i] = capacity[used[i]];
    std::vector<int> users(n, 0);
    std::vector<std::vector<std::size_t>> flowsOn(n);
    std::vector<std::vector<std::size_t>> path(flows.size());
    std::vector<FlowRate> out(flows.size());
    std::vector<bool> frozen(flows.size(), false);
    std::size_t active = 0;
    for (std::size_t f = 0; f < flows.size(); ++f) {
        if (flows[f].resources.empty() && !std::isfinite(flows[f].limit)) {
            frozen[f] = true; // no path: rate 0
            continue;
        }
        ++active;
        for (std::size_t r : flows[f].resources) {
            const std::size_t l = local(r);
            path[f].push_back(l);
            ++users[l];
            flowsOn[l].push_back(f);
        }
    }

    constexpr double kEps = 1e-9;
    auto freeze = [&](std::size_t f, long why) {
        frozen[f] = true;
        out[f].bottleneck = why;
        --active;
        for (std::size_t l : path[f])
            --users[l];
    };
    while (active > 0) {
        double step = std::numeric_limits<double>::infinity();
        for (std::size_t l = 0; l < n; ++l) {
            if (users[l] > 0)
                step = std::min(step, residual[l] / users[l]);
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
        for (std::size_t l = 0; l < n; ++l)
            residual[l] -= step * users[l];
        for (std::size_t l = 0; l < n; ++l) {
            if (users[l] > 0 && residual[l] <= kEps * std::max(1.0, capacity[used[l]])) {
                for (std::size_t f : flowsOn[l]) {
                    if (!frozen[f])
                        freeze(f, static_cast<long>(used[l]));
                }
            }
        }
        for (std::size_t f = 0; f < flows.size(); ++f) {
            const double limit = flows[f].limit;
            if (!frozen[f] && std::isfinite(limit)
                && limit - out[f].rate <= kEps * std::max(1.0, limit))
                freeze(f, -1);
        }
    }
    return out;
}

} // namespace clab::fabric
