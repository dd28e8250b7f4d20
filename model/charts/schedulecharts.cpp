#include "charts/schedulecharts.h"

#include <algorithm>

namespace clab::charts {

namespace {

constexpr std::size_t kMaxSteps = 2000;
constexpr std::size_t kBins = 200;

// The time-weighted mean of the asked-for GPUs in each of kBins equal stretches of time, as a
// share of all GPUs: a trace of thousands of jobs drawn step by step is a solid block.
Series busySeries(const std::string &name, const schedule::Outcome &o, double t0, double t1)
{
    Series s{name, SeriesKind::Predicted, {}, {}};
    if (o.busy.empty() || !(t1 > t0) || o.gpus <= 0)
        return s;
    const double width = (t1 - t0) / kBins;
    std::vector<double> area(kBins, 0);
    for (std::size_t i = 0; i < o.busy.size(); ++i) {
        const double from = o.busy[i].first;
        const double to = i + 1 < o.busy.size() ? o.busy[i + 1].first : t1;
        // Spread [from, to) over the bins it covers, bin by bin (integer bins: a boundary
        // recomputed from a float can fall just short of itself).
        const double level = o.busy[i].second;
        const auto binOf = [&](double t) {
            return std::min<std::size_t>(kBins - 1, std::size_t(std::max(0.0, (t - t0) / width)));
        };
        for (std::size_t bin = binOf(from); bin <= binOf(to) && from < to; ++bin) {
            const double lo = std::max(from, t0 + double(bin) * width);
            const double hi = bin + 1 == kBins ? to : std::min(to, t0 + double(bin + 1) * width);
            area[bin] += level * std::max(0.0, hi - lo);
        }
    }
    for (std::size_t b = 0; b < kBins; ++b) {
        s.x.push_back((double(b) + 0.5) * width / 3600);
        s.values.push_back(100 * area[b] / (width * o.gpus));
    }
    return s;
}

Series cdfSeries(const std::string &name, const schedule::Outcome &o)
{
    Series s{name, SeriesKind::Predicted, {}, {}};
    std::vector<double> waits = o.waitsS;
    std::sort(waits.begin(), waits.end());
    const std::size_t step = std::max<std::size_t>(1, waits.size() / kMaxSteps);
    for (std::size_t i = 0; i < waits.size(); i += step) {
        s.x.push_back(std::max(1.0, waits[i]));
        s.values.push_back(100.0 * double(i + 1) / double(waits.size()));
    }
    if (!waits.empty() && s.values.back() < 100) {
        s.x.push_back(std::max(1.0, waits.back()));
        s.values.push_back(100);
    }
    return s;
}

} // namespace

ChartData scheduleBusyChart(const schedule::Outcome &fixed, const schedule::Outcome &pool,
                            const std::string &title)
{
    ChartData c;
    c.kind = ChartKind::Placement; // flat near the top: the legend goes bottom left
    c.title = title;
    // One time axis for both: from the first event to the later of the two ends.
    double t0 = 0, t1 = 0;
    for (const schedule::Outcome *o : {&fixed, &pool}) {
        if (!o->busy.empty()) {
            t0 = o->busy.front().first;
            t1 = std::max(t1, o->busy.back().first);
        }
    }
    c.x = {"time since the first submission (h)", false};
    c.y = {"GPU utilisation (% of " + std::to_string(fixed.gpus) + " GPUs, mean over "
               + std::to_string(kBins) + " stretches)",
           false};
    c.series.push_back(busySeries("static servers", fixed, t0, t1));
    c.series.push_back(busySeries("composable pool", pool, t0, t1));
    return c;
}

ChartData waitCdfChart(const schedule::Outcome &fixed, const schedule::Outcome &pool,
                       const std::string &title)
{
    ChartData c;
    c.kind = ChartKind::Collective; // rises to the right: the legend goes top left
    c.title = title;
    c.x = {"queueing delay (s)", true};
    c.y = {"jobs that waited at most this long (%)", false};
    c.series.push_back(cdfSeries("static servers", fixed));
    c.series.push_back(cdfSeries("composable pool", pool));
    return c;
}

} // namespace clab::charts
