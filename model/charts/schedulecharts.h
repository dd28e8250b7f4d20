#pragma once

// Charts of a scheduling run (model/schedule): static servers against a composable pool.

#include "charts/chartdata.h"
#include "schedule/simulate.h"

#include <string>

namespace clab::charts {

// GPU utilisation over time: the GPUs the running jobs asked for, as a share of all, averaged
// over 200 equal stretches from the first event to the last end, one line per way.
ChartData scheduleBusyChart(const schedule::Outcome &fixed, const schedule::Outcome &pool,
                            const std::string &title);
// The share of jobs (%) that waited at most x seconds, one line per way; x on a log axis from
// 1 s (shorter waits are drawn at 1 s).
ChartData waitCdfChart(const schedule::Outcome &fixed, const schedule::Outcome &pool,
                       const std::string &title);

} // namespace clab::charts
