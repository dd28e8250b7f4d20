#include "store/runquery.h"

#include "store/sqlite.h"
#include "store/storeschema.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace clab::store {

namespace {

// A list of ids as one bound JSON array, read back with json_each: one prepared statement for any
// number of ids, and no SQL text built from values.
std::string idArray(const std::vector<std::int64_t> &ids)
{
    std::string out = "[";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            out += ',';
        out += std::to_string(ids[i]);
    }
    return out + "]";
}

// The rows of these ids (an empty list is none, not all), sorted by id.
std::vector<StoredRunRow> readStored(sqlite3 *db, const std::string &path,
                                     const std::vector<std::int64_t> &ids)
{
    RunFilter filter;
    filter.ids = ids;
    std::vector<StoredRunRow> out;
    for (StoredRun &run : selectRuns(db, path, filter))
        out.push_back(std::move(run.row));
    return out;
}

constexpr const char *storedColumns
    = "id, system_id, benchmark, metric, value, unit, global_batch_size, precision, framework, "
      "round, date, measured, tags, details, source_id, place";

// A writable connection for one transaction; rolls back unless commit() was reached.
class WriteSession
{
public:
    explicit WriteSession(const std::string &path)
        : m_connection(path, Connection::Open::ReadWrite)
    {
        execute(db(), "BEGIN IMMEDIATE", path);
    }
    ~WriteSession()
    {
        if (!sqlite3_get_autocommit(db()))
            sqlite3_exec(db(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
    WriteSession(const WriteSession &) = delete;
    WriteSession &operator=(const WriteSession &) = delete;

    sqlite3 *db() const { return m_connection.get(); }
    void commit() { execute(db(), "COMMIT", m_connection.path()); }

private:
    Connection m_connection;
};

} // namespace

RunQuery::RunQuery(const std::string &path)
    : m_path(path)
    , m_connection(path, Connection::Open::ReadOnly)
    , m_db(m_connection.get())
{
}

RunQuery::~RunQuery() = default;

std::vector<std::int64_t> RunQuery::ids(const RunFilter &filter, const RunSort &sort)
{
    return selectRunIds(m_db, m_path, filter, sort);
}

std::vector<StoredRun> RunQuery::runs(const RunFilter &filter, const RunSort &sort)
{
    return selectRuns(m_db, m_path, filter, sort);
}

std::vector<StoredRun> RunQuery::rows(const std::vector<std::int64_t> &ids)
{
    RunFilter filter;
    filter.ids = ids;
    std::map<std::int64_t, StoredRun> found;
    for (StoredRun &run : selectRuns(m_db, m_path, filter))
        found.emplace(run.row.id, std::move(run));
    std::vector<StoredRun> out;
    out.reserve(found.size());
    for (std::int64_t id : ids)
        if (const auto it = found.find(id); it != found.end()) {
            out.push_back(std::move(it->second));
            found.erase(it); // an id given twice comes once
        }
    return out;
}

std::vector<StoredRunRow> RunQuery::stored(const std::vector<std::int64_t> &ids)
{
    return readStored(m_db, m_path, ids);
}

std::optional<StoredRun> RunQuery::run(std::int64_t id)
{
    std::vector<StoredRun> found = rows({id});
    return found.empty() ? std::nullopt : std::optional<StoredRun>(std::move(found.front()));
}

std::vector<std::string> RunQuery::benchmarks()
{
    Statement s(m_db, "SELECT DISTINCT benchmark FROM runs ORDER BY benchmark", m_path);
    std::vector<std::string> out;
    while (s.step())
        out.push_back(s.text(0));
    return out;
}

std::int64_t RunQuery::count()
{
    Statement s(m_db, "SELECT count(*) FROM runs", m_path);
    return s.step() ? s.integer(0) : 0;
}

std::vector<StoredRunRow> deleteRuns(const std::string &path, const std::vector<std::int64_t> &ids)
{
    WriteSession session(path);
    std::vector<StoredRunRow> rows = readStored(session.db(), path, ids);
    Statement s(session.db(), "DELETE FROM runs WHERE id IN (SELECT value FROM json_each(?1))",
                path);
    s.bind(1, idArray(ids));
    s.run();
    session.commit();
    return rows;
}

void restoreRuns(const std::string &path, const std::vector<StoredRunRow> &rows)
{
    WriteSession session(path);
    const std::string sql = std::string("INSERT INTO runs(") + storedColumns
                            + ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                              "?14, ?15, ?16)";
    Statement s(session.db(), sql.c_str(), path);
    for (const StoredRunRow &r : rows) {
        s.bind(1, r.id);
        s.bind(2, r.systemId);
        s.bind(3, r.benchmark).bind(4, r.metric).bind(5, r.value).bind(6, r.unit);
        s.bind(7, r.globalBatch);
        s.bind(8, r.precision);
        s.bind(9, r.framework);
        s.bind(10, r.round);
        s.bind(11, r.date);
        s.bind(12, r.measured);
        s.bind(13, r.tags);
        s.bind(14, r.details);
        s.bind(15, r.sourceId);
        s.bind(16, r.place);
        s.run();
    }
    session.commit();
}

} // namespace clab::store
