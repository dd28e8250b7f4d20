// The parity chart: every prediction against the measurement it predicts.
#include "charts/builders.h"
#include "perf/precision.h"
#include "util/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace clab::charts {

namespace {

// Runs predict each other when they name the same system, benchmark, round, global batch and
// precision ("AMP" and "fp16" alike); what a run leaves blank is blank on both sides.
using Key = std::tuple<std::string, std::string, std::string, int, std::string>;

Key keyOf(const RunPoint &r)
{
    const auto precision = perf::parsePrecision(r.precision);
    return {r.system, r.benchmark, r.round, r.globalBatch.value_or(0),
            precision ? perf::precisionName(*precision) : std::string()};
}

// A measured side: MLPerf's score when there is one (what MLPerf reports), else the runs' times.
// The predicted side is the newest prediction (runs come in the order they were stored): a
// held-out validation saved after the in-sample one replaces it, rather than mixing with it.
struct Sides
{
    Mean score, measured;
    std::optional<double> predicted;
    double measuredValue() const { return score.n ? score.value() : measured.value(); }
    bool matched() const { return (score.n || measured.n) && predicted; }
};

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %%", fraction * 100);
    return buf;
}

} // namespace

ChartData parityChart(const std::vector<RunPoint> &runs)
{
    ChartData c;
    c.kind = ChartKind::Parity;
    // Time to train when any pair has it; throughput (one unit) otherwise.
    // images/s, sequences/s, tokens/s... are all samples a second of their benchmark.
    std::map<Key, Sides> time, rate;
    for (const RunPoint &r : runs) {
        const bool minutes = (r.metric == "time_to_train" || r.metric == "score")
                             && (r.unit.empty() || r.unit == "min");
        if (!minutes && r.metric != "throughput")
            continue;
        Sides &s = (minutes ? time : rate)[keyOf(r)];
        if (!r.measured)
            s.predicted = r.value;
        else if (r.metric == "score")
            s.score.add(r.value);
        else
            s.measured.add(r.value);
    }
    const auto matched = [](const std::map<Key, Sides> &m) {
        return std::count_if(m.begin(), m.end(), [](const auto &e) { return e.second.matched(); });
    };
    const bool useTime = matched(time) > 0 || matched(rate) == 0;
    const std::map<Key, Sides> &pairs = useTime ? time : rate;
    const std::string what = useTime ? "time to train (min)" : "throughput (samples/s)";
    c.x = {"measured " + what, true};
    c.y = {"predicted " + what, true};

    std::map<std::string, std::vector<std::pair<double, double>>> byBenchmark;
    double lo = 0, hi = 0;
    std::size_t unmatched = 0;
    for (const auto &[key, s] : pairs) {
        if (!s.matched()) {
            ++unmatched;
            continue;
        }
        const double m = s.measuredValue(), p = *s.predicted;
        if (!(m > 0) || !(p > 0))
            continue;
        byBenchmark[std::get<1>(key)].emplace_back(m, p);
        lo = lo == 0 ? std::min(m, p) : std::min({lo, m, p});
        hi = std::max({hi, m, p});
    }
    std::size_t n = 0;
    std::vector<double> allErrors;
    for (auto &[benchmark, points] : byBenchmark) {
        std::sort(points.begin(), points.end());
        Series s{benchmark, SeriesKind::Measured, {}, {}};
        std::vector<double> errors;
        for (const auto &[m, p] : points) {
            s.x.push_back(m);
            s.values.push_back(p);
            errors.push_back(std::abs(p - m) / m);
        }
        allErrors.insert(allErrors.end(), errors.begin(), errors.end());
        s.name += " (" + std::to_string(points.size()) + ", median error " + percent(median(errors))
                  + ")";
        n += points.size();
        c.series.push_back(std::move(s));
    }
    c.title = "Predicted against measured: " + std::to_string(n) + " matched runs";
    if (!allErrors.empty())
        c.title += ", median error " + percent(median(allErrors));
    if (unmatched)
        c.notes.push_back(std::to_string(unmatched)
                          + " measured or predicted runs without their counterpart (same system, "
                            "benchmark, round, batch and precision) left out");
    if (n == 0)
        return c;
    // The bands: y = x, within 10 % and within 25 %, over the points' span.
    const double a = lo / 1.5, b = hi * 1.5;
    const auto band = [&](const std::string &name, double factor, LineStyle line) {
        c.series.push_back({name, SeriesKind::Ideal, {a, b}, {a * factor, b * factor}, line});
    };
    band("predicted = measured", 1.0, LineStyle::Solid);
    band("±10 %", 1.1, LineStyle::Dashed);
    band("±10 %", 1 / 1.1, LineStyle::Dashed);
    band("±25 %", 1.25, LineStyle::Dotted);
    band("±25 %", 1 / 1.25, LineStyle::Dotted);
    return c;
}

} // namespace clab::charts
