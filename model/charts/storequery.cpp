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
        const auto c = store::jsonNumber(details, "compute_min");
        const auto m = store::jsonNumber(details, "communication_min");
        const auto i = store::jsonNumber(details, "input_min");
        const auto e = store::jsonNumber(details, "evaluation_min");
        if (c && m && i && e)
            r.breakdownMin = std::array<double, 4>{*c, *m, *i, *e};
        auto text = [&](const char *key) {
            const auto it = details.find(key);
            return it != details.end() && it->is_string() ? it->get<std::string>() : std::string();
        };
        r.breakdownOfEpoch = text("breakdown_of") == "epoch";
        r.study = text("study");
        r.energyKwh = store::jsonNumber(details, "energy_kwh");
        r.costUsd = store::jsonNumber(details, "cost_usd");
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
