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

// Sort keys, indexed by RunColumn. Fixed text only.
const char *orderBy(RunColumn column)
{
    switch (column) {
    case RunColumn::Id:
        return "r.id";
    case RunColumn::System:
        return "lower(coalesce(y.name, ''))";
    case RunColumn::Benchmark:
        return "r.benchmark";
    case RunColumn::Metric:
        return "r.metric";
    case RunColumn::Value:
        return "r.value";
    case RunColumn::Unit:
        return "r.unit";
    case RunColumn::GlobalBatch:
        return "r.global_batch_size";
    case RunColumn::Precision:
        return "coalesce(r.precision, '')";
    case RunColumn::Framework:
        return "lower(coalesce(r.framework, ''))";
    case RunColumn::Round:
        return "coalesce(r.round, '') || char(31) || coalesce(r.date, '')";
    case RunColumn::Kind:
        return "r.measured";
    }
    return "r.id";
}

// GPUs of a run as the charts count them (charts/storequery.cpp): the details' gpus, gpu_count or
// accelerators, else the MLPerf system's number_of_nodes x accelerators_per_node. json_valid
// guards json_extract, which fails the whole query on malformed text.
constexpr const char *gpuExpression
    = "CAST(round(CAST(coalesce("
      "CASE WHEN json_valid(r.details) THEN coalesce(json_extract(r.details, '$.gpus'), "
      "json_extract(r.details, '$.gpu_count'), json_extract(r.details, '$.accelerators')) END, "
      "CASE WHEN json_valid(y.description) THEN json_extract(y.description, '$.number_of_nodes') "
      "* json_extract(y.description, '$.accelerators_per_node') END) AS REAL)) AS INTEGER)";

std::optional<std::string> optionalText(const Statement &s, int column)
{
    return s.isNull(column) ? std::nullopt : std::optional<std::string>(s.text(column));
}

constexpr const char *storedColumns
    = "id, system_id, benchmark, metric, value, unit, global_batch_size, precision, framework, "
      "round, date, measured, tags, details, source_id, place";

std::vector<StoredRunRow> readStored(sqlite3 *db, const std::string &path,
                                     const std::vector<std::int64_t> &ids)
{
    const std::string sql
        = std::string("SELECT ") + storedColumns
          + " FROM runs WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id";
    Statement s(db, sql.c_str(), path);
    s.bind(1, idArray(ids));
    std::vector<StoredRunRow> out;
    while (s.step()) {
        StoredRunRow r;
        r.id = s.integer(0);
        if (!s.isNull(1))
            r.systemId = s.integer(1);
        r.benchmark = s.text(2);
        r.metric = s.text(3);
        r.value = s.real(4);
        r.unit = s.text(5);
        if (!s.isNull(6))
            r.globalBatch = s.integer(6);
        r.precision = optionalText(s, 7);
        r.framework = optionalText(s, 8);
        r.round = optionalText(s, 9);
        r.date = optionalText(s, 10);
        r.measured = s.integer(11);
        r.tags = optionalText(s, 12);
        r.details = optionalText(s, 13);
        r.sourceId = s.integer(14);
        r.place = optionalText(s, 15);
        out.push_back(std::move(r));
    }
    return out;
}

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
    // instr() instead of LIKE: names may hold % or _, which LIKE would read as wildcards.
    std::string sql
        = std::string("SELECT r.id FROM runs r LEFT JOIN systems y ON y.id = r.system_id "
                      "LEFT JOIN sources o ON o.id = r.source_id "
                      "WHERE (?1 = '' OR r.benchmark = ?1) "
                      "AND (?2 = '' OR instr(lower(coalesce(y.name, '')), lower(?2)) > 0) "
                      "AND (?3 < 0 OR ")
          + gpuExpression
          + " = ?3) "
            "AND (?4 = '' OR instr(lower(coalesce(o.path, '')), lower(?4)) > 0) "
            "AND (?5 < 0 OR r.measured = ?5) "
            "AND (?6 = '' OR instr(lower(coalesce(y.name, '') || char(31) || "
            "r.benchmark || char(31) || coalesce(r.framework, '') || char(31) || "
            "coalesce(r.tags, '')), lower(?6)) > 0) "
            "ORDER BY "
          + orderBy(sort.column) + (sort.descending ? " DESC" : " ASC") + ", r.id";
    Statement s(m_db, sql.c_str(), m_path);
    s.bind(1, filter.benchmark);
    s.bind(2, filter.system);
    s.bind(3, std::int64_t(filter.gpus < 0 ? -1 : filter.gpus));
    s.bind(4, filter.source);
    s.bind(5, filter.kind == RunKind::All ? -1 : filter.kind == RunKind::Measured ? 1 : 0);
    s.bind(6, filter.search);
    std::vector<std::int64_t> out;
    while (s.step())
        out.push_back(s.integer(0));
    return out;
}

std::vector<RunRow> RunQuery::rows(const std::vector<std::int64_t> &ids)
{
    Statement s(m_db,
                "SELECT r.id, coalesce(y.name, ''), r.benchmark, r.metric, r.value, r.unit, "
                "r.global_batch_size, coalesce(r.precision, ''), coalesce(r.framework, ''), "
                "coalesce(r.round, ''), coalesce(r.date, ''), r.measured, coalesce(o.path, '') "
                "FROM runs r LEFT JOIN systems y ON y.id = r.system_id "
                "LEFT JOIN sources o ON o.id = r.source_id "
                "WHERE r.id IN (SELECT value FROM json_each(?1))",
                m_path);
    s.bind(1, idArray(ids));
    std::map<std::int64_t, RunRow> found;
    while (s.step()) {
        RunRow r;
        r.id = s.integer(0);
        r.system = s.text(1);
        r.benchmark = s.text(2);
        r.metric = s.text(3);
        r.value = s.real(4);
        r.unit = s.text(5);
        if (!s.isNull(6))
            r.globalBatch = s.integer(6);
        r.precision = s.text(7);
        r.framework = s.text(8);
        r.round = s.text(9);
        r.date = s.text(10);
        r.measured = s.integer(11) != 0;
        r.source = s.text(12);
        found.emplace(r.id, std::move(r));
    }
    std::vector<RunRow> out;
    out.reserve(found.size());
    for (std::int64_t id : ids)
        if (const auto it = found.find(id); it != found.end())
            out.push_back(it->second);
    return out;
}

std::vector<StoredRunRow> RunQuery::stored(const std::vector<std::int64_t> &ids)
{
    return readStored(m_db, m_path, ids);
}

std::optional<RunProvenance> RunQuery::provenance(std::int64_t id)
{
    Statement s(m_db,
                "SELECT o.path, o.sha256, o.kind, o.imported_at, coalesce(r.place, ''), "
                "coalesce(r.tags, ''), coalesce(r.details, '') "
                "FROM runs r JOIN sources o ON o.id = r.source_id WHERE r.id = ?1",
                m_path);
    s.bind(1, id);
    if (!s.step())
        return std::nullopt;
    RunProvenance p;
    p.id = id;
    p.sourcePath = s.text(0);
    p.sha256 = s.text(1);
    p.kind = s.text(2);
    p.importedAt = s.text(3);
    p.place = s.text(4);
    p.tags = s.text(5);
    p.details = s.text(6);
    return p;
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
