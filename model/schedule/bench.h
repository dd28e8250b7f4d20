#pragma once

#include <functional>

namespace clab::schedule {

// The body of `composelab bench`'s schedule_100k: a synthetic 100,000-job trace (sizes 1-32
// GPUs, exponential durations of mean one hour, Poisson arrivals at 90 % load; built once) run
// with backfill on a 64-GPU pool, as static servers and as a pool.
std::function<void()> schedule100kBody();

} // namespace clab::schedule
