#pragma once

#include "store/sqlite.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace clab::store {

// The columns the experiments browser can sort by. Each maps to a fixed SQL expression in
// runquery.cpp: ORDER BY is never built from user text.
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

// Every field is optional (empty, or a negative GPU count, means "any"); all are bound values.
struct RunFilter
{
    std::string benchmark; // exact benchmark name
    std::string system;    // substring of the system name (case-insensitive, ASCII)
    int gpus = -1;         // GPUs from the run's details, else from the system description
    std::string source;    // substring of the source file path
    RunKind kind = RunKind::All;
    std::string search; // substring of the system, benchmark, framework or tags
};

struct RunSort
{
    RunColumn column = RunColumn::Id;
    bool descending = false;
};

// One line of the browser's table.
struct RunRow
{
    std::int64_t id = 0;
    std::string system;
    std::string benchmark;
    std::string metric;
    double value = 0;
    std::string unit;
    std::optional<std::int64_t> globalBatch;
    std::string precision;
    std::string framework;
    std::string round;
    std::string date;
    bool measured = true;
    std::string source; // path of the file it was imported from
};

// Where a run came from.
struct RunProvenance
{
    std::int64_t id = 0;
    std::string sourcePath;
    std::string sha256;
    std::string kind; // how the source was read: generic_csv, mlperf, ...
    std::string importedAt;
    std::string place; // "line 12", "result_3.txt line 240"
    std::string tags;
    std::string details;
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

// A read-only view of the runs of an experiment store, for a browser that may hold 100,000 runs:
// ids() filters and sorts in SQL and returns only ids; rows() loads the few the table shows.
// Opening refuses (StoreError) a missing file, a non-SQLite or truncated file and a schema this
// build does not know; it never writes.
class RunQuery
{
public:
    explicit RunQuery(const std::string &path);
    ~RunQuery();
    RunQuery(const RunQuery &) = delete;
    RunQuery &operator=(const RunQuery &) = delete;

    const std::string &path() const { return m_path; }

    std::vector<std::int64_t> ids(const RunFilter &filter, const RunSort &sort = {});
    // The rows of these ids, in the order given; ids no longer in the store are left out.
    std::vector<RunRow> rows(const std::vector<std::int64_t> &ids);
    std::vector<StoredRunRow> stored(const std::vector<std::int64_t> &ids);
    std::optional<RunProvenance> provenance(std::int64_t id);
    std::vector<std::string> benchmarks(); // distinct, sorted
    std::int64_t count();

private:
    std::string m_path;
    Connection m_connection;
    sqlite3 *m_db = nullptr;
};

// Deletes these runs in one transaction and returns them as they were (sorted by id), so that
// restoreRuns() can put them back. Opens the store writable only for the call.
std::vector<StoredRunRow> deleteRuns(const std::string &path, const std::vector<std::int64_t> &ids);
// Re-inserts rows with their ids, in one transaction. An id taken in the meantime, or a source or
// system that is gone, fails with StoreError and restores nothing.
void restoreRuns(const std::string &path, const std::vector<StoredRunRow> &rows);

} // namespace clab::store
