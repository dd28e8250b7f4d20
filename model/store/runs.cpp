#include "store/runs.h"

#include "store/sqlite.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace clab::store {

namespace {

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

// A count of at least one, as a number: a generic CSV's extra columns store numbers as text.
// json_valid guards json_extract, which fails the whole query on malformed text.
std::string atLeastOne(const std::string &value)
{
    return "CASE WHEN CAST(" + value + " AS REAL) >= 1 THEN CAST(" + value + " AS REAL) END";
}

std::string detail(const char *key)
{
    return atLeastOne(std::string("CASE WHEN json_valid(r.details) THEN json_extract(r.details, "
                                  "'$.")
                      + key + "') END");
}

// StoredRun::gpus in SQL, so that the browser can filter on it.
const std::string &gpuExpression()
{
    static const std::string expression
        = "CAST(round(coalesce(" + detail("gpus") + ", " + detail("gpu_count") + ", "
          + detail("accelerators") + ", "
          + atLeastOne("CASE WHEN json_valid(y.description) THEN "
                       "json_extract(y.description, '$.number_of_nodes') * "
                       "json_extract(y.description, '$.accelerators_per_node') END")
          + ")) AS INTEGER)";
    return expression;
}

// instr() instead of LIKE: names may hold % or _, which LIKE would read as wildcards. Lists travel
// as one bound JSON array, read back with json_each, however long they are.
std::string selection(const std::string &columns, const RunSort &sort)
{
    return "SELECT " + columns
           + " FROM runs r LEFT JOIN systems y ON y.id = r.system_id "
             "LEFT JOIN sources o ON o.id = r.source_id "
             "WHERE (?1 = '' OR r.benchmark = ?1) "
             "AND (?2 = '' OR instr(lower(coalesce(y.name, '')), lower(?2)) > 0) "
             "AND (?3 < 0 OR "
           + gpuExpression()
           + " = ?3) "
             "AND (?4 = '' OR instr(lower(coalesce(o.path, '')), lower(?4)) > 0) "
             "AND (?5 < 0 OR r.measured = ?5) "
             "AND (?6 = '' OR instr(lower(coalesce(y.name, '') || char(31) || "
             "r.benchmark || char(31) || coalesce(r.framework, '') || char(31) || "
             "coalesce(r.tags, '')), lower(?6)) > 0) "
             "AND (?7 = '[]' OR r.metric IN (SELECT value FROM json_each(?7))) "
             "AND (?8 IS NULL OR r.id IN (SELECT value FROM json_each(?8))) "
             "ORDER BY "
           + orderBy(sort.column) + (sort.descending ? " DESC" : " ASC") + ", r.id";
}

void bindFilter(Statement &s, const RunFilter &filter)
{
    s.bind(1, filter.benchmark);
    s.bind(2, filter.system);
    s.bind(3, std::int64_t(filter.gpus < 0 ? -1 : filter.gpus));
    s.bind(4, filter.source);
    s.bind(5, filter.kind == RunKind::All ? -1 : filter.kind == RunKind::Measured ? 1 : 0);
    s.bind(6, filter.search);
    s.bind(7, nlohmann::json(filter.metrics).dump());
    if (filter.ids)
        s.bind(8, nlohmann::json(*filter.ids).dump());
    else
        s.bindNull(8);
}

std::optional<std::string> optionalText(const Statement &s, int column)
{
    return s.isNull(column) ? std::nullopt : std::optional<std::string>(s.text(column));
}

} // namespace

RunRecord StoredRun::run() const
{
    RunRecord r;
    r.systemId = row.systemId.value_or(0);
    r.benchmark = row.benchmark;
    r.metric = row.metric;
    r.value = row.value;
    r.unit = row.unit;
    r.globalBatch = row.globalBatch;
    r.precision = row.precision.value_or("");
    r.framework = row.framework.value_or("");
    r.round = row.round.value_or("");
    r.date = row.date.value_or("");
    r.measured = row.measured != 0;
    r.tags = row.tags.value_or("");
    r.details = row.details.value_or("");
    r.place = row.place.value_or("");
    return r;
}

void visitRuns(sqlite3 *db, const std::string &path, const RunFilter &filter,
               const std::function<void(StoredRun &&)> &visit, const RunSort &sort)
{
    const std::string sql = selection(
        "r.id, r.system_id, r.benchmark, r.metric, r.value, r.unit, r.global_batch_size, "
        "r.precision, r.framework, r.round, r.date, r.measured, r.tags, r.details, r.source_id, "
        "r.place, coalesce(y.name, ''), coalesce(o.path, ''), "
        "coalesce(o.sha256, ''), coalesce(o.kind, ''), coalesce(o.imported_at, ''), "
            + gpuExpression(),
        sort);
    Statement s(db, sql.c_str(), path);
    bindFilter(s, filter);
    while (s.step()) {
        StoredRun run;
        StoredRunRow &r = run.row;
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
        run.system = s.text(16);
        run.sourcePath = s.text(17);
        run.sourceSha256 = s.text(18);
        run.sourceKind = s.text(19);
        run.importedAt = s.text(20);
        if (!s.isNull(21) && s.integer(21) >= 1 && s.integer(21) <= std::numeric_limits<int>::max())
            run.gpus = int(s.integer(21));
        visit(std::move(run));
    }
}

std::vector<StoredRun> selectRuns(sqlite3 *db, const std::string &path, const RunFilter &filter,
                                  const RunSort &sort)
{
    std::vector<StoredRun> out;
    visitRuns(
        db, path, filter, [&](StoredRun &&run) { out.push_back(std::move(run)); }, sort);
    return out;
}

std::vector<std::int64_t> selectRunIds(sqlite3 *db, const std::string &path,
                                       const RunFilter &filter, const RunSort &sort)
{
    const std::string sql = selection("r.id", sort);
    Statement s(db, sql.c_str(), path);
    bindFilter(s, filter);
    std::vector<std::int64_t> out;
    while (s.step())
        out.push_back(s.integer(0));
    return out;
}

} // namespace clab::store
