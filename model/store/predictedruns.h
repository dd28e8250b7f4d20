#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clab::store {

class Store;

// A prediction to keep beside the measurements, so that charts can put the two side by side.
struct PredictedRun
{
    std::string benchmark; // MLPerf-style name when there is one ("resnet"), else the workload id
    std::string precision;
    std::int64_t globalBatch = 0;
    std::optional<double> timeToTrainMin;
    double throughput = 0; // samples/s
    std::string details;   // JSON object: breakdown, step time, plan, calibration
};

struct PredictedSystem
{
    std::string name;        // composed-system name
    std::string description; // JSON object: host, GPUs, ...
    std::string design;      // the whole design (canonical .clab text)
};

// Saves the predictions of one composed system as predicted runs (time_to_train and throughput),
// in one transaction. The source is the design's canonical text plus the predictions, hashed:
// saving the same again adds nothing. Returns the number of runs added (0 when already there).
int savePredictions(Store &store, const std::string &designPath, const PredictedSystem &system,
                    const std::vector<PredictedRun> &runs);

// A prediction of one row of a recorded-results table (`validate --save`), kept as a predicted run
// under the row's own system, benchmark, round, batch and precision, so that the parity chart
// finds the measurement it predicts.
struct RowPrediction
{
    std::string system;
    std::string submitter;
    std::string benchmark; // as the table writes it
    std::string round;     // "" where the measured run has none (throughput tables)
    std::string precision; // "" where the measured run has none (MLPerf tables)
    std::optional<std::int64_t> globalBatch;
    int gpus = 0;
    bool minutes = true; // time to train (min); else throughput (unit)
    std::string unit;
    double predicted = 0;
    double measured = 0;
    std::string where; // "file:line" of the row
};

// Saves them in one transaction as the source `label` (the tables and the calibration). Saving the
// same again adds nothing; returns the number of runs added.
int saveRowPredictions(Store &store, const std::string &label,
                       const std::vector<RowPrediction> &rows);

} // namespace clab::store
