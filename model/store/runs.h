#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace clab::store {

// A run to store (Store::addRun): empty text is stored as NULL.
struct RunRecord
{
    std::int64_t systemId = 0; // 0: no system
    std::string benchmark;
    std::string metric; // time_to_train, score, throughput, ...
    double value = 0;
    std::string unit; // min, images/s, ...
    std::optional<std::int64_t> globalBatch;
    std::string precision;
    std::string framework;
    std::string round;    // MLPerf round ("1.0") or empty
    std::string date;     // ISO date or empty
    bool measured = true; // false: a prediction
    std::string tags;     // JSON array text, or empty
    std::string details;  // JSON object text, or empty
    std::string place;    // where in the source: "line 12", "result_3.txt line 240"
};

// A runs row exactly as stored, NULLs kept apart from empty text, so that deleting and restoring
// it gives back the same bytes and the same id.
struct StoredRunRow
{
    std::int64_t id = 0;
    std::optional<std::int64_t> systemId;
    std::string benchmark;
    std::string metric;
    double value = 0;
    std::string unit;
    std::optional<std::int64_t> globalBatch;
    std::optional<std::string> precision;
    std::optional<std::string> framework;
    std::optional<std::string> round;
    std::optional<std::string> date;
    std::int64_t measured = 1;
    std::optional<std::string> tags;
    std::optional<std::string> details;
    std::int64_t sourceId = 0;
    std::optional<std::string> place;

    bool operator==(const StoredRunRow &) const = default;
};

// A run as read back: its row and what the row refers to.
struct StoredRun
{
    StoredRunRow row;
    std::string system; // the system's name, "" without one
    std::string sourcePath;
    std::string sourceSha256;
    std::string sourceKind; // how the source was read: generic_csv, mlperf, ...
    std::string importedAt;
    // The details' gpus, gpu_count or accelerators, else the MLPerf system's number_of_nodes x
    // accelerators_per_node; none when neither gives at least one.
    std::optional<int> gpus;

    RunRecord run() const; // NULL text as empty
};

// The columns a run list can be sorted by. Each maps to a fixed SQL expression in runs.cpp: ORDER
// BY is never built from user text.
enum class RunColumn {
    Id, // import order
    System,
    Benchmark,
    Metric,
    Value,
    Unit,
    GlobalBatch,
    Precision,
    Framework,
    Round, // round, then date
    Kind,  // measured or predicted
};

enum class RunKind { All, Measured, Predicted };

// Which runs: every field is optional (empty, a negative GPU count or no ids means "any"); all are
// bound values. The one filter of the store's browser, its CLI and its charts.
struct RunFilter
{
    std::string benchmark; // exact benchmark name
    std::string system;    // substring of the system name (case-insensitive, ASCII)
    int gpus = -1;         // StoredRun::gpus
    std::string source;    // substring of the source file path
    RunKind kind = RunKind::All;
    std::string search;                           // substring of system, benchmark, framework, tags
    std::vector<std::string> metrics;             // one of these metrics; empty: any
    std::optional<std::vector<std::int64_t>> ids; // just these runs (a selection); none: any
};

struct RunSort
{
    RunColumn column = RunColumn::Id;
    bool descending = false;
};

// A number in a JSON object (a run's details), given as a number or as text that is all a number
// (a generic CSV's extra columns are text); anything else ("8 GPUs", "1,024", true) is none.
std::optional<double> jsonNumber(const nlohmann::json &object, const char *key);

// Registers the SQL functions the readers below use (clab_gpus); every store Connection does.
void addRunFunctions(sqlite3 *db);

// The one reader of the runs table: the runs that pass the filter, in the sort's order (then by
// id). Throws StoreError naming `path`.
std::vector<StoredRun> selectRuns(sqlite3 *db, const std::string &path, const RunFilter &filter,
                                  const RunSort &sort = {});
// The same, one run at a time, for a reader that keeps only a part of each (the charts).
void visitRuns(sqlite3 *db, const std::string &path, const RunFilter &filter,
               const std::function<void(StoredRun &&)> &visit, const RunSort &sort = {});
// The same selection, ids only: for a browser that loads rows as they are shown.
std::vector<std::int64_t> selectRunIds(sqlite3 *db, const std::string &path,
                                       const RunFilter &filter, const RunSort &sort = {});

} // namespace clab::store
