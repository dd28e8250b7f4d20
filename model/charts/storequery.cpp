#include "charts/storequery.h"

#include "store/sqlite.h"
#include "store/storeschema.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <limits>

namespace clab::charts {

namespace {

// A number in a JSON object, given as a number or as text (a generic CSV's extra columns are text).
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

nlohmann::json object(const std::string &text)
{
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    return j.is_object() ? j : nlohmann::json::object();
}

// GPUs of a run: its details (gpus, gpu_count, accelerators: the throughput CSV stores gpu_count),
// else the MLPerf system description (number_of_nodes x accelerators_per_node).
std::optional<int> gpuCount(const nlohmann::json &details, const nlohmann::json &system)
{
    for (const char *key : {"gpus", "gpu_count", "accelerators"})
        if (const auto v = jsonNumber(details, key); v && *v >= 1)
            return int(std::lround(*v));
    const auto nodes = jsonNumber(system, "number_of_nodes");
    const auto perNode = jsonNumber(system, "accelerators_per_node");
    if (nodes && perNode && *nodes * *perNode >= 1)
        return int(std::lround(*nodes * *perNode));
    return std::nullopt;
}

} // namespace

StoreQuery::StoreQuery(const std::string &path)
    : m_path(path)
    , m_connection(path, store::Connection::Open::ReadOnly)
    , m_db(m_connection.get())
{
}

StoreQuery::~StoreQuery() = default;

std::vector<RunPoint> StoreQuery::runs(const Filter &filter)
{
    // instr() instead of LIKE: a system name may hold % or _, which LIKE would read as wildcards.
    store::Statement s(m_db,
                       "SELECT coalesce(y.name, ''), r.benchmark, r.metric, r.value, "
                       "coalesce(r.unit, ''), r.measured, coalesce(r.details, ''), "
                       "coalesce(y.description, ''), r.global_batch_size, "
                       "coalesce(r.round, ''), coalesce(r.precision, '') "
                       "FROM runs r LEFT JOIN systems y ON y.id = r.system_id "
                       "WHERE r.metric IN ('time_to_train', 'score', 'throughput') "
                       "AND (?1 = '' OR r.benchmark = ?1) "
                       "AND (?2 = '' OR instr(lower(coalesce(y.name, '')), lower(?2)) > 0) "
                       "AND (?3 < 0 OR r.measured = ?3) "
                       // The selection travels as one bound JSON array, however long it is.
                       "AND (?4 = '[]' OR r.id IN (SELECT value FROM json_each(?4))) "
                       "ORDER BY r.id",
                       m_path);
    s.bind(1, filter.benchmark);
    s.bind(2, filter.system);
    s.bind(3, filter.which == Which::All ? -1 : filter.which == Which::Measured ? 1 : 0);
    s.bind(4, nlohmann::json(filter.runIds).dump());
    std::vector<RunPoint> out;
    while (s.step()) {
        RunPoint r;
        r.system = s.text(0);
        r.benchmark = s.text(1);
        r.metric = s.text(2);
        r.value = s.real(3);
        r.unit = s.text(4);
        r.measured = s.integer(5) != 0;
        const nlohmann::json details = object(s.text(6));
        r.gpus = gpuCount(details, object(s.text(7)));
        if (!s.isNull(8) && s.integer(8) > 0 && s.integer(8) <= std::numeric_limits<int>::max())
            r.globalBatch = int(s.integer(8));
        r.round = s.text(9);
        r.precision = s.text(10);
        const auto c = jsonNumber(details, "compute_min");
        const auto m = jsonNumber(details, "communication_min");
        const auto i = jsonNumber(details, "input_min");
        const auto e = jsonNumber(details, "evaluation_min");
        if (c && m && i && e)
            r.breakdownMin = std::array<double, 4>{*c, *m, *i, *e};
        auto text = [&](const char *key) {
            const auto it = details.find(key);
            return it != details.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        r.breakdownOfEpoch = text("breakdown_of") == "epoch";
        r.study = text("study");
        r.energyKwh = jsonNumber(details, "energy_kwh");
        r.costUsd = jsonNumber(details, "cost_usd");
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<BandwidthPoint> StoreQuery::bandwidth(const Filter &filter)
{
    store::Statement s(m_db,
                       "SELECT coalesce(y.name, ''), b.tool, coalesce(b.test, ''), b.link, "
                       "coalesce(b.from_endpoint, ''), coalesce(b.to_endpoint, ''), "
                       "b.message_bytes, b.gbps "
                       "FROM bandwidth b LEFT JOIN systems y ON y.id = b.system_id "
                       "WHERE b.gbps IS NOT NULL "
                       "AND (?1 = '' OR instr(lower(coalesce(y.name, '')), lower(?1)) > 0) "
                       "ORDER BY b.id",
                       m_path);
    s.bind(1, filter.system);
    std::vector<BandwidthPoint> out;
    while (s.step()) {
        BandwidthPoint b;
        b.system = s.text(0);
        b.tool = s.text(1);
        b.test = s.text(2);
        b.link = s.text(3);
        b.from = s.text(4);
        b.to = s.text(5);
        if (!s.isNull(6))
            b.messageBytes = s.integer(6);
        b.gbps = s.real(7);
        out.push_back(std::move(b));
    }
    return out;
}

ChartData chartFromStore(StoreQuery &store, ChartKind kind, const Filter &filter)
{
    switch (kind) {
    case ChartKind::Ttt:
        return tttChart(store.runs(filter));
    case ChartKind::Scaling:
        return scalingChart(store.runs(filter));
    case ChartKind::Bandwidth:
        return bandwidthChart(store.bandwidth(filter));
    case ChartKind::Heatmap:
        return heatmapChart(store.bandwidth(filter));
    case ChartKind::Collective:
        return collectiveChart(store.bandwidth(filter));
    case ChartKind::Breakdown: {
        Filter predicted = filter;
        predicted.which = Which::Predicted;
        return breakdownChart(store.runs(predicted));
    }
    case ChartKind::Compare: {
        Filter predicted = filter;
        predicted.which = Which::Predicted;
        return compareChart(store.runs(predicted));
    }
    case ChartKind::Pareto:
    case ChartKind::ParetoEnergy: {
        Filter predicted = filter;
        predicted.which = Which::Predicted;
        return paretoChart(store.runs(predicted),
                           kind == ChartKind::Pareto ? ParetoAgainst::Cost : ParetoAgainst::Energy);
    }
    case ChartKind::Parity:
    case ChartKind::Error: {
        Filter both = filter; // a prediction needs its measurement
        both.which = Which::All;
        return kind == ChartKind::Parity ? parityChart(store.runs(both))
                                         : errorChart(store.runs(both));
    }
    case ChartKind::Placement:
        return {}; // a simulation, not a store's content (charts::placementChart)
    }
    return {};
}

} // namespace clab::charts
