#include "schedule/bench.h"

#include "schedule/simulate.h"

#include <memory>
#include <random>

namespace clab::schedule {

std::function<void()> schedule100kBody()
{
    // Eight hosts, four chassis of 16 GPUs, each host linked to two of them, 8 GPUs composed
    // to each host.
    Resources r;
    for (int h = 0; h < 8; ++h)
        r.hosts.push_back("h" + std::to_string(h));
    r.chassis = {"c0", "c1", "c2", "c3"};
    r.localGpus.assign(8, 0);
    r.pooledGpus.assign(4, 16);
    r.composed.assign(4, std::vector<int>(8, 0));
    for (int h = 0; h < 8; ++h) {
        r.reachable.push_back({h / 2, (h / 2 + 1) % 4});
        r.composed[std::size_t(h / 2)][std::size_t(h)] = 8;
    }
    auto jobs = std::make_shared<std::vector<Job>>();
    std::mt19937_64 rng(1);
    const int sizes[] = {1, 1, 1, 1, 2, 2, 4, 8, 16, 32}; // mean 6.8 GPUs
    std::exponential_distribution<double> duration(1.0 / 3600);
    std::exponential_distribution<double> gap(0.9 * 64 / (6.8 * 3600));
    double t = 0;
    for (int i = 0; i < 100'000; ++i) {
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

} // namespace clab::schedule
