#pragma once

#include <functional>

namespace clab::schedule {

// The body of `composelab bench`'s schedule_100k: a synthetic 100,000-job trace (sizes 1-32
// GPUs, exponential durations of mean one hour, Poisson arrivals at 90 % load; built once) run
// with backfill on a 64-GPU pool, as static servers and as a pool.
std::function<void()> schedule100kBody();
// schedule_4096gpu_20k: the same kind of trace, 20,000 jobs offering 110 % of 4,096 GPUs (512
// hosts, 256 chassis): a long queue, where the allocators' work per host and chassis and the
// backfill's probes show.
std::function<void()> scheduleLargeBody();

} // namespace clab::schedule
