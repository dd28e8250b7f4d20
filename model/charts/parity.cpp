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

// The matched (measured, predicted) pairs of each benchmark: time to train when any pair has it,
// throughput (one unit) otherwise.
struct Pairs
{
    bool time = true;
    std::map<std::string, std::vector<std::pair<double, double>>> byBenchmark;
    std::size_t unmatched = 0;
    double lo = 0, hi = 0; // the span of all values
};

Pairs matchedPairs(const std::vector<RunPoint> &runs)
{
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
    Pairs out;
    out.time = matched(time) > 0 || matched(rate) == 0;
    for (const auto &[key, s] : out.time ? time : rate) {
        if (!s.matched()) {
            ++out.unmatched;
            continue;
        }
        const double m = s.measuredValue(), p = *s.predicted;
        if (!(m > 0) || !(p > 0))
            continue;
        out.byBenchmark[std::get<1>(key)].emplace_back(m, p);
        out.lo = out.lo == 0 ? std::min(m, p) : std::min({out.lo, m, p});
        out.hi = std::max({out.hi, m, p});
    }
    return out;
}

std::string unmatchedNote(std::size_t unmatched)
{
    return std::to_string(unmatched)
           + " measured or predicted runs without their counterpart (same system, benchmark, "
             "round, batch and precision) left out";
}

} // namespace

ChartData parityChart(const std::vector<RunPoint> &runs)
{
    ChartData c;
    c.kind = ChartKind::Parity;
    Pairs pairs = matchedPairs(runs);
    const std::string what = pairs.time ? "time to train (min)" : "throughput (samples/s)";
    c.x = {"measured " + what, true};
    c.y = {"predicted " + what, true};
    auto &byBenchmark = pairs.byBenchmark;
    const double lo = pairs.lo, hi = pairs.hi;
    const std::size_t unmatched = pairs.unmatched;
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
        c.notes.push_back(unmatchedNote(unmatched));
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

ChartData errorChart(const std::vector<RunPoint> &runs)
{
    ChartData c;
    c.kind = ChartKind::Error;
    const Pairs pairs = matchedPairs(runs);
    c.x.label = "benchmark";
    c.y.label = "prediction error (% of measured)";
    std::size_t n = 0;
    std::vector<double> all;
    for (const auto &[benchmark, points] : pairs.byBenchmark) {
        if (c.categories.size() == kMaxCategories) {
            c.notes.push_back("more than " + std::to_string(kMaxCategories)
                              + " benchmarks: the rest left out");
            break;
        }
        std::vector<double> errors;
        for (const auto &[m, p] : points)
            errors.push_back((p - m) / m * 100);
        std::sort(errors.begin(), errors.end());
        Box b;
        b.count = errors.size();
        b.p10 = quantileOfSorted(errors, 0.1);
        b.q1 = quantileOfSorted(errors, 0.25);
        b.median = quantileOfSorted(errors, 0.5);
        b.q3 = quantileOfSorted(errors, 0.75);
        b.p90 = quantileOfSorted(errors, 0.9);
        for (double e : errors)
            if (e < b.p10 || e > b.p90)
                b.outliers.push_back(e);
        c.categories.push_back(benchmark + " (" + std::to_string(b.count) + ")");
        c.boxes.push_back(std::move(b));
        for (double e : errors)
            all.push_back(std::abs(e) / 100);
        n += errors.size();
    }
    c.title = std::string(pairs.time ? "Error of predicted time to train: "
                                     : "Error of predicted throughput: ")
              + std::to_string(n) + " matched runs";
    if (!all.empty())
        c.title += ", median absolute error " + percent(median(all));
    if (pairs.unmatched)
        c.notes.push_back(unmatchedNote(pairs.unmatched));
    return c;
}

} // namespace clab::charts
