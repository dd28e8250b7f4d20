#include "charts/storequery.h"

#include "store/store.h"
#include "store/sqlite.h"
#include "store/storeschema.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cmath>
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

} // namespace

StoreQuery::StoreQuery(const std::string &path)
    : m_path(path)
    , m_connection(path, store::Connection::Open::ReadOnly)
    , m_db(m_connection.get())
{
}

StoreQuery::~StoreQuery() = default;

std::vector<RunPoint> StoreQuery::runs(const store::RunFilter &filter)
{
    store::RunFilter charted = filter;
    charted.metrics = {"time_to_train", "score", "throughput"};
    std::vector<RunPoint> out;
    store::visitRuns(m_db, m_path, charted, [&](store::StoredRun &&run) {
        const store::StoredRunRow &row = run.row;
        RunPoint r;
        r.system = run.system;
        r.benchmark = row.benchmark;
        r.metric = row.metric;
        r.value = row.value;
        r.unit = row.unit;
        r.measured = row.measured != 0;
        r.gpus = run.gpus;
        if (row.globalBatch && *row.globalBatch > 0
            && *row.globalBatch <= std::numeric_limits<int>::max())
            r.globalBatch = int(*row.globalBatch);
        r.round = row.round.value_or("");
        r.precision = row.precision.value_or("");
        const nlohmann::json details = object(row.details.value_or(""));
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
    });
    return out;
}

std::vector<BandwidthPoint> StoreQuery::bandwidth(const store::RunFilter &filter)
{
    store::BandwidthFilter which;
    which.system = filter.system;
    which.withGbps = true;
    std::vector<BandwidthPoint> out;
    for (const store::BandwidthRecord &b : store::selectBandwidth(m_db, m_path, which))
        out.push_back({b.system, b.tool, b.test, b.link, b.from, b.to, b.messageBytes, *b.gbps});
    return out;
}

ChartData chartFromStore(StoreQuery &store, ChartKind kind, const store::RunFilter &filter)
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
        store::RunFilter predicted = filter;
        predicted.kind = store::RunKind::Predicted;
        return breakdownChart(store.runs(predicted));
    }
    case ChartKind::Compare: {
        store::RunFilter predicted = filter;
        predicted.kind = store::RunKind::Predicted;
        return compareChart(store.runs(predicted));
    }
    case ChartKind::Pareto:
    case ChartKind::ParetoEnergy: {
        store::RunFilter predicted = filter;
        predicted.kind = store::RunKind::Predicted;
        return paretoChart(store.runs(predicted),
                           kind == ChartKind::Pareto ? ParetoAgainst::Cost : ParetoAgainst::Energy);
    }
    case ChartKind::Parity:
    case ChartKind::Error: {
        store::RunFilter both = filter; // a prediction needs its measurement
        both.kind = store::RunKind::All;
        return kind == ChartKind::Parity ? parityChart(store.runs(both))
                                         : errorChart(store.runs(both));
    }
    case ChartKind::Placement:
        return {}; // a simulation, not a store's content (charts::placementChart)
    }
    return {};
}

} // namespace clab::charts
