#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab schedule TRACE --design DESIGN [--format csv|pai] [--policy fifo|backfill]
// [--recompose S] [--benchmark ID] [--no-stretch] [--db DB] [--json] [--chart F]
// [--wait-chart F]`:
// runs a job trace on the design's GPUs as static servers and as a composable pool
// (model/schedule/simulate.h) and reports utilisation, waits, completion times, jobs that never
// fit and fragmentation for both.
struct ScheduleOptions
{
    std::string trace;
    std::string design;
    std::string format = "csv"; // or "pai": Alibaba PAI's pai_task_table.csv
    std::string policy = "fifo";
    double recomposeS = 30;
    std::string benchmark;  // for jobs whose trace names none; empty: those are not stretched
    bool noStretch = false; // durations as recorded
    std::string chart;      // GPUs busy over time, both ways; empty: none
    std::string waitChart;  // CDF of queueing delay, both ways; empty: none
    std::string db;         // experiment store to keep the outcome in; empty: none
    bool json = false;
};

// 0 done, 1 bad input (trace, design: message on err naming the file and place).
int scheduleCommand(const ScheduleOptions &options, std::ostream &out, std::ostream &err);
void addScheduleSubcommand(CLI::App &app, ScheduleOptions &options);

} // namespace clab::cli
