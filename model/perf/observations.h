#pragma once

#include "perf/model.h"
#include "util/csv.h"

#include <string>
#include <vector>

namespace clab::perf {

// One recorded result the model can be fitted on or judged against.
struct Observation
{
    enum class Kind { Minutes, Throughput };
    Kind kind = Kind::Minutes;
    double measured = 0; // minutes to train, or samples/s
    std::string where;   // "file:line"
    std::string round;   // software year: MLPerf round, or "dle" / "lambda"
    std::string submitter;
    std::string system;
    std::string benchmark; // as the file writes it
    std::string group;     // for cross-validation: rows of one system family stay together
    const workload::Workload *workload = nullptr;
    int globalBatch = 0;
    Precision precision = Precision::Fp16;
    Platform platform;
    // Minutes rows: the samples the run really trained (median_epoch_at_stop or train_samples),
    // when the table records them. Fitting uses them; validation predicts from the convergence
    // table, as a user's prediction would.
    std::optional<double> trainedSamples;
    std::string loader; // throughput rows: "synthetic" for data made on the GPU; "" the default
};

struct Skipped
{
    std::string where;
    std::string label;
    std::string reason;
    Observation row; // what was read of it (measured, round, submitter, system, benchmark)
};

struct ObservationSet
{
    std::vector<Observation> rows;
    std::vector<Skipped> skipped;
    std::vector<std::string> files;
};

// Rows of an MLPerf results table (the header of mlperf_training_calibration.csv; unknown extra
// columns are ignored, optional ones may be missing). Rows that cannot be modelled are skipped
// with their reason, never silently. Throws InputError when a required column is missing.
void addMlperfRows(const CsvTable &table, ObservationSet &into);
// Rows of a training-throughput table (the header of throughput_calibration.csv).
void addThroughputRows(const CsvTable &table, ObservationSet &into);
// Either, chosen by the header.
void addCsv(const CsvTable &table, ObservationSet &into);

// The model's figure for an observation (minutes or samples/s); nullopt when it cannot say.
// With `recordedSamples`, a minutes row trains the samples it really trained, when known.
std::optional<double> predictObservation(const Observation &o, const Calibration &calibration,
                                         bool recordedSamples = false);

} // namespace clab::perf
