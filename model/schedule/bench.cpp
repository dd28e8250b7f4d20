#include "schedule/bench.h"

#include "schedule/simulate.h"

#include <memory>
#include <random>

namespace clab::schedule {

namespace {

// `hosts` hosts and hosts / 2 chassis of 16 GPUs, each host linked to two of them, 8 GPUs
// composed to each host; `count` jobs offering 90 % of the GPUs, both ways with EASY backfill.
std::function<void()> scheduleBody(int hosts, int count, double load)
{
    const int chassis = hosts / 2;
    Resources r;
    for (int h = 0; h < hosts; ++h)
        r.hosts.push_back("h" + std::to_string(h));
    for (int c = 0; c < chassis; ++c)
        r.chassis.push_back("c" + std::to_string(c));
    r.localGpus.assign(std::size_t(hosts), 0);
    r.pooledGpus.assign(std::size_t(chassis), 16);
    r.composed.assign(std::size_t(chassis), std::vector<int>(std::size_t(hosts), 0));
    for (int h = 0; h < hosts; ++h) {
        r.reachable.push_back({h / 2, (h / 2 + 1) % chassis});
        r.composed[std::size_t(h / 2)][std::size_t(h)] = 8;
    }
    auto jobs = std::make_shared<std::vector<Job>>();
    std::mt19937_64 rng(1);
    const int sizes[] = {1, 1, 1, 1, 2, 2, 4, 8, 16, 32}; // mean 6.8 GPUs
    std::exponential_distribution<double> duration(1.0 / 3600);
    std::exponential_distribution<double> gap(load * 8 * hosts / (6.8 * 3600));
    double t = 0;
    for (int i = 0; i < count; ++i) {
        t += gap(rng);
        jobs->push_back({t, sizes[rng() % 10], duration(rng), {}, {}, i + 2});
    }
    return [r, jobs] {
        Options o;
        o.policy = Policy::Backfill;
        volatile double u = simulate(*jobs, r, Mode::Static, o).utilisation
                            + simulate(*jobs, r, Mode::Pool, o).utilisation;
        (void)u;
    };
}

} // namespace

std::function<void()> schedule100kBody()
{
    return scheduleBody(8, 100'000, 0.9);
}

std::function<void()> scheduleLargeBody()
{
    return scheduleBody(512, 20'000, 1.1);
}

} // namespace clab::schedule
