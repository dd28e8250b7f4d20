#pragma once

#include "store/runs.h"
#include "store/sqlite.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace clab::store {

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
    // The runs themselves, for a caller that needs them all (the CLI).
    std::vector<StoredRun> runs(const RunFilter &filter, const RunSort &sort = {});
    // The runs of these ids, in the order given (each once); ids no longer in the store are left
    // out.
    std::vector<StoredRun> rows(const std::vector<std::int64_t> &ids);
    std::vector<StoredRunRow> stored(const std::vector<std::int64_t> &ids);
    std::optional<StoredRun> run(std::int64_t id); // with where it came from
    std::vector<std::string> benchmarks();         // distinct, sorted
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
