#pragma once

#include "perf/observations.h"

#include <map>
#include <string>
#include <vector>

namespace clab::perf {

// Fits the calibration's factors to recorded results by damped Gauss-Newton (Levenberg-
// Marquardt) on log(predicted / measured), with a ridge that pulls architecture, round and link
// factors towards 1 so that a factor moves only where the data asks for it.
Calibration fitCalibration(const std::vector<const Observation *> &rows);

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

// Errors per benchmark (minutes rows) and overall ("all"); throughput rows under "throughput".
std::map<std::string, ErrorStats> summarize(const std::vector<RowResult> &results);

struct CrossValidation
{
    std::map<std::string, ErrorStats> bySystemFolds; // 5 folds, a system's rows kept together
    std::map<std::string, ErrorStats> byRound;       // each MLPerf round left out in turn
};

// Out-of-sample errors: every row is predicted by a calibration fitted without it.
CrossValidation crossValidate(const ObservationSet &set);

} // namespace clab::perf
