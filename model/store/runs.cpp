#include "store/runs.h"

#include "store/sqlite.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cmath>
#include <cstdlib>
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

nlohmann::json object(const unsigned char *text)
{
    if (!text)
        return nlohmann::json::object();
    nlohmann::json j = nlohmann::json::parse(reinterpret_cast<const char *>(text), nullptr, false);
    return j.is_object() ? j : nlohmann::json::object();
}

std::optional<int> count(std::optional<double> value)
{
    if (!value || !std::isfinite(*value) || *value < 1
        || *value >= double(std::numeric_limits<int>::max()))
        return std::nullopt;
    return int(std::lround(*value));
}

// StoredRun::gpus as the SQL function clab_gpus(details, system description), so that the browser
// filters on the very count the charts draw.
void gpusFunction(sqlite3_context *context, int, sqlite3_value **args)
{
    const nlohmann::json details = object(sqlite3_value_text(args[0]));
    for (const char *key : {"gpus", "gpu_count", "accelerators"})
        if (const auto n = count(jsonNumber(details, key))) {
            sqlite3_result_int(context, *n);
            return;
        }
    const nlohmann::json system = object(sqlite3_value_text(args[1]));
    const auto nodes = jsonNumber(system, "number_of_nodes");
    const auto perNode = jsonNumber(system, "accelerators_per_node");
    if (const auto n = count(nodes && perNode ? std::optional(*nodes * *perNode) : std::nullopt))
        sqlite3_result_int(context, *n);
    else
        sqlite3_result_null(context);
}

constexpr const char *gpuExpression = "clab_gpus(r.details, y.description)";

// instr() instead of LIKE: names may hold % or _, which LIKE would read as wildcards. Lists travel
// as one bound JSON array, read back with json_each, however long they are.
std::string selection(const std::string &columns, const RunFilter &filter, const RunSort &sort)
{
    // With ids, they lead: SQLite then looks each up by its rowid instead of reading every run.
    return "SELECT " + columns
           + " FROM runs r LEFT JOIN systems y ON y.id = r.system_id "
             "LEFT JOIN sources o ON o.id = r.source_id WHERE "
           + (filter.ids ? "r.id IN (SELECT value FROM json_each(?8)) AND " : "")
           + "(?1 = '' OR r.benchmark = ?1) "
             "AND (?2 = '' OR instr(lower(coalesce(y.name, '')), lower(?2)) > 0) "
             "AND (?3 < 0 OR "
           + gpuExpression
           + " = ?3) "
             "AND (?4 = '' OR instr(lower(coalesce(o.path, '')), lower(?4)) > 0) "
             "AND (?5 < 0 OR r.measured = ?5) "
             "AND (?6 = '' OR instr(lower(coalesce(y.name, '') || char(31) || "
             "r.benchmark || char(31) || coalesce(r.framework, '') || char(31) || "
             "coalesce(r.tags, '')), lower(?6)) > 0) "
             "AND (?7 = '[]' OR r.metric IN (SELECT value FROM json_each(?7))) "
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
}

std::optional<std::string> optionalText(const Statement &s, int column)
{
    return s.isNull(column) ? std::nullopt : std::optional<std::string>(s.text(column));
}

} // namespace

std::optional<double> jsonNumber(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    if (it == j.end())
        return std::nullopt;
    if (it->is_number())
        return it->get<double>();
    if (it->is_string()) {
        const std::string &s = it->get_ref<const std::string &>();
        char *end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(v))
            return v;
    }
    return std::nullopt;
}

void addRunFunctions(sqlite3 *db)
{
    sqlite3_create_function_v2(db, "clab_gpus", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                               gpusFunction, nullptr, nullptr, nullptr);
}

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
            + std::string(gpuExpression),
        filter, sort);
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
        if (!s.isNull(21))
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
    const std::string sql = selection("r.id", filter, sort);
    Statement s(db, sql.c_str(), path);
    bindFilter(s, filter);
    std::vector<std::int64_t> out;
    while (s.step())
        out.push_back(s.integer(0));
    return out;
}

} // namespace clab::store
