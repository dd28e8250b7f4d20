#pragma once

#include "perf/observations.h"

#include <map>
#include <string>
#include <vector>

namespace clab::perf {

struct FitOptions
{
    // Fit only the per-benchmark GEMM efficiency: no memory scale, overheads, overlap or
    // software factors (the physics alone, for `validate --physics-only`).
    bool physicsOnly = false;
    // Held-out MLPerf rows train the samples their runs recorded, where known, instead of the
    // convergence table's: the step's error without the runs' convergence luck.
    bool recordedSamples = false;
};

// Fits the calibration's factors to recorded results by damped Gauss-Newton (Levenberg-
// Marquardt) on log(predicted / measured), with ridges that pull every factor towards its prior:
// software factors towards 1 (all stacks), a benchmark's factor on a stack towards the stack's.
// Minutes rows are fitted on the samples they really trained when the table records them, so
// that convergence noise does not leak into the step-time physics.
Calibration fitCalibration(const std::vector<const Observation *> &rows,
                           const FitOptions &options = {});

struct ErrorStats
{
    int rows = 0;
    double median = 0; // of |predicted - measured| / measured
    double p90 = 0;
};

struct RowResult
{
    const Observation *row = nullptr;
    std::optional<double> predicted;
};

// Errors per benchmark (minutes rows) and overall ("all"); throughput rows under "throughput"
// and "throughput/<benchmark>".
std::map<std::string, ErrorStats> summarize(const std::vector<RowResult> &results);
// What the convergence tables alone miss: for minutes rows that record the samples they trained,
// |table samples at the row's batch / trained samples - 1|, per benchmark and "all". A model
// with a perfect step time would still be off by about this much (evaluations aside).
std::map<std::string, ErrorStats> convergenceFloor(const std::vector<RowResult> &results);
// Minutes rows by the architecture of their GPU ("Ampere", ...), and throughput rows under
// "throughput/<architecture>".
std::map<std::string, ErrorStats> summarizeByArchitecture(const std::vector<RowResult> &results);

// What a held-out fit leaves out together.
enum class GroupOut {
    System,       // 5 folds, a system's rows kept together
    Architecture, // each GPU architecture in turn
    Round         // each software stack (MLPerf round, DLE, Lambda) in turn
};
std::optional<GroupOut> parseGroupOut(std::string_view text);
const char *groupOutName(GroupOut g);

// Every row predicted by a calibration fitted without its group.
std::vector<RowResult> heldOut(const ObservationSet &set, GroupOut group,
                               const FitOptions &options = {});

// P10 and P90 of log(predicted time / measured time) of held-out rows, per benchmark and
// architecture, per benchmark, per architecture and over all ("" key); throughput rows count
// with their sign turned (a throughput too high is a time too short).
std::map<std::string, Interval, std::less<>> intervalsOf(const std::vector<RowResult> &results);

} // namespace clab::perf
