// The Pareto chart: what a run costs (money or energy) against how long it takes.
#include "charts/builders.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace clab::charts {

namespace {

struct Point
{
    double x = 0; // cost or energy
    double y = 0; // minutes
    std::string system;
};

// Minutes of the run: the time to train, or the breakdown of one epoch when the benchmark has
// no convergence table (its energy and cost are of one epoch too).
std::optional<double> minutesOf(const RunPoint &r, bool &epoch)
{
    if (r.metric == "time_to_train" && (r.unit.empty() || r.unit == "min"))
        return r.value;
    if (r.breakdownMin && r.breakdownOfEpoch) {
        epoch = true;
        const auto &b = *r.breakdownMin;
        return b[0] + b[1] + b[2] + b[3];
    }
    return std::nullopt;
}

} // namespace

ChartData paretoChart(const std::vector<RunPoint> &runs, ParetoAgainst against)
{
    ChartData c;
    c.kind = against == ParetoAgainst::Cost ? ChartKind::Pareto : ChartKind::ParetoEnergy;
    std::map<std::string, std::vector<Point>> byBenchmark;
    std::map<std::string, bool> epochOf;
    std::size_t without = 0;
    for (const RunPoint &r : runs) {
        const std::optional<double> x = against == ParetoAgainst::Cost ? r.costUsd : r.energyKwh;
        bool epoch = false;
        const std::optional<double> y = r.measured ? std::nullopt : minutesOf(r, epoch);
        if (!x || !y || !(*x > 0) || !(*y > 0)) {
            ++without;
            continue;
        }
        byBenchmark[r.benchmark].push_back({*x, *y, r.system});
        epochOf[r.benchmark] = epochOf[r.benchmark] || epoch;
    }
    const std::string what = against == ParetoAgainst::Cost ? "cost (USD)" : "energy (kWh)";
    if (without)
        c.notes.push_back(std::to_string(without) + " runs without a predicted time and " + what
                          + " left out (predictions of a study or `predict --save` carry them)");
    if (byBenchmark.empty()) {
        c.title = "Time against " + what + ": no predicted runs with both";
        return c;
    }
    auto most = std::max_element(byBenchmark.begin(), byBenchmark.end(), [](auto &a, auto &b) {
        return a.second.size() < b.second.size();
    });
    for (const auto &[benchmark, points] : byBenchmark) {
        if (benchmark != most->first)
            c.notes.push_back(benchmark + ": " + std::to_string(points.size())
                              + " points not drawn (chart that benchmark alone to draw them)");
    }
    std::vector<Point> &points = most->second;
    const bool epoch = epochOf[most->first];
    const std::string time = epoch ? "minutes per epoch" : "time to train (min)";
    c.title = most->first + ": " + (epoch ? "time per epoch" : "time to train") + " against "
              + (against == ParetoAgainst::Cost ? "cost" : "energy") + ", "
              + std::to_string(points.size()) + " runs";
    c.x = {what, false};
    c.y = {time, false};
    // One series per system, in the order systems first appear; past the category limit the
    // rest share one series.
    std::vector<std::string> order;
    std::map<std::string, std::size_t> seriesOf;
    for (const Point &p : points) {
        if (seriesOf.count(p.system))
            continue;
        if (order.size() + 1 < kMaxCategories) {
            seriesOf[p.system] = order.size();
            order.push_back(p.system);
        } else {
            if (order.size() + 1 == kMaxCategories)
                order.push_back("others");
            seriesOf[p.system] = kMaxCategories - 1;
        }
    }
    const bool folded = order.size() == kMaxCategories; // the last series is "others"
    for (std::size_t i = 0; i < order.size(); ++i) {
        c.series.push_back({order[i], SeriesKind::Measured, {}, {}});
        if (!(folded && i + 1 == order.size()))
            c.series.back().identity = order[i];
    }
    std::sort(points.begin(), points.end(),
              [](const Point &a, const Point &b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
    Series front{"Pareto front", SeriesKind::Predicted, {}, {}};
    double best = std::numeric_limits<double>::infinity();
    double lo = points.front().x, hi = lo, ylo = points.front().y, yhi = ylo;
    for (const Point &p : points) {
        Series &s = c.series[seriesOf[p.system]];
        s.x.push_back(p.x);
        s.values.push_back(p.y);
        if (p.y < best) { // cheaper points come first: this one is faster than all of them
            best = p.y;
            front.x.push_back(p.x);
            front.values.push_back(p.y);
        }
        lo = std::min(lo, p.x), hi = std::max(hi, p.x);
        ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
    }
    c.series.push_back(std::move(front));
    // Spans of more than a decade read better on log axes.
    c.x.log = hi > 10 * lo;
    c.y.log = yhi > 10 * ylo;
    return c;
}

} // namespace clab::charts
