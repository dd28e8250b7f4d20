#include "perf/contention.h"

#include <cmath>
#include <limits>

namespace clab::perf {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kN = fabric::kFlowClasses;

// Per-flow rates (GB/s) of the active classes by progressive filling: every class not yet held
// by a full link grows at the same pace; when a link fills, the classes crossing it stop.
std::array<double, kN> fill(const fabric::StepFlows &f, const std::array<bool, kN> &active,
                            const ClassTimes &cap)
{
    std::array<double, kN> rate{};
    std::array<bool, kN> frozen{};
    for (std::size_t c = 0; c < kN; ++c)
        frozen[c] = !active[c];
    double level = 0;
    for (;;) {
        double next = kInf;
        for (const fabric::SharedResource &r : f.resources) {
            double load = 0; // of frozen classes
            int growing = 0; // flows of classes still growing
            for (std::size_t c = 0; c < kN; ++c) {
                if (!active[c] || r.flows[c] == 0)
                    continue;
                if (frozen[c])
                    load += r.flows[c] * rate[c];
                else
                    growing += r.flows[c];
            }
            if (growing > 0)
                next = std::min(next, (r.capacityGBps - load) / growing);
        }
        for (std::size_t c = 0; c < kN; ++c)
            if (active[c] && !frozen[c] && cap[c] > 0)
                next = std::min(next, cap[c]);
        if (next == kInf) // nothing left to grow, or a class crosses no link at all
            break;
        level = std::max(level, next);
        bool froze = false;
        for (std::size_t c = 0; c < kN; ++c) {
            if (active[c] && !frozen[c] && cap[c] > 0 && cap[c] <= level * (1 + 1e-12)) {
                frozen[c] = true; // it asks for no more
                rate[c] = cap[c];
                froze = true;
            }
        }
        for (const fabric::SharedResource &r : f.resources) {
            double load = 0;
            int growing = 0;
            for (std::size_t c = 0; c < kN; ++c) {
                if (!active[c] || r.flows[c] == 0)
                    continue;
                if (frozen[c])
                    load += r.flows[c] * rate[c];
                else
                    growing += r.flows[c];
            }
            if (growing > 0 && load + growing * level >= r.capacityGBps * (1 - 1e-12)) {
                for (std::size_t c = 0; c < kN; ++c) {
                    if (active[c] && !frozen[c] && r.flows[c] > 0) {
                        frozen[c] = true;
                        rate[c] = level;
                        froze = true;
                    }
                }
            }
        }
        if (!froze)
            break;
        bool any = false;
        for (std::size_t c = 0; c < kN; ++c)
            any = any || (active[c] && !frozen[c]);
        if (!any)
            break;
    }
    return rate;
}

} // namespace

ClassTimes shareLinks(const fabric::StepFlows &f, const ClassTimes &bytes,
                      const ClassTimes &demandGBps)
{
    ClassTimes done{};
    std::array<double, kN> left{};
    std::array<bool, kN> active{};
    for (std::size_t c = 0; c < kN; ++c) {
        active[c] = bytes[c] > 0 && f.count[c] > 0;
        left[c] = bytes[c] / 1e9; // GB
        if (bytes[c] > 0 && f.count[c] == 0)
            done[c] = 0; // nothing to carry it: the caller decides what a missing path means
    }
    double now = 0;
    for (std::size_t phase = 0; phase < kN; ++phase) {
        const std::array<double, kN> rate = fill(f, active, demandGBps);
        double step = kInf;
        for (std::size_t c = 0; c < kN; ++c) {
            if (!active[c])
                continue;
            const double r = rate[c] * f.factor[c];
            step = std::min(step, r > 0 ? left[c] / r : kInf);
        }
        if (step == kInf) {
            for (std::size_t c = 0; c < kN; ++c)
                if (active[c])
                    done[c] = kInf;
            break;
        }
        now += step;
        bool any = false;
        for (std::size_t c = 0; c < kN; ++c) {
            if (!active[c])
                continue;
            left[c] -= rate[c] * f.factor[c] * step;
            if (left[c] <= 1e-12 * bytes[c] / 1e9 + 1e-18) {
                active[c] = false;
                done[c] = now;
            } else {
                any = true;
            }
        }
        if (!any)
            break;
    }
    return done;
}

} // namespace clab::perf
