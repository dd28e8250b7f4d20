#include "charts/builders.h"
#include "charts/labels.h"
#include "util/stats.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace clab::charts {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

bool isTimeMetric(const std::string &metric)
{
    return metric == "time_to_train" || metric == "score";
}

std::string lower(std::string s)
{
    for (char &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "GPU2" before "GPU10": digits compare as numbers.
bool naturalLess(const std::string &a, const std::string &b)
{
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i]))
            && std::isdigit(static_cast<unsigned char>(b[j]))) {
            std::size_t ei = i, ej = j;
            while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei])))
                ++ei;
            while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej])))
                ++ej;
            const std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
            if (na.size() != nb.size())
                return na.size() < nb.size();
            if (na != nb)
                return na < nb;
            i = ei, j = ej;
        } else {
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i, ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

struct NaturalLess
{
    bool operator()(const std::string &a, const std::string &b) const { return naturalLess(a, b); }
};

std::string fixed1(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// Bidirectional figures count both directions and "P2P disabled" ones go through the host: neither
// is the link's one-way peak, so the bar chart leaves them out (the heat map can show them).
bool oneWayPeakTest(const std::string &test)
{
    const std::string t = lower(test);
    return t.find("bidirectional") == std::string::npos && t.find("disabled") == std::string::npos
           && t.find("latency") == std::string::npos;
}

std::string linkCategory(const BandwidthPoint &b)
{
    if (b.link == "h2d")
        return "H2D " + b.to;
    if (b.link == "d2h")
        return "D2H " + b.from;
    if (b.link == "d2d")
        return "D2D " + b.from;
    return b.from + "->" + b.to;
}

} // namespace

ChartData tttChart(const std::vector<RunPoint> &runs)
{
    ChartData c;
    c.kind = ChartKind::Ttt;
    c.title = "Time to train: measured and predicted";
    c.x.label = "system / benchmark";
    c.y.label = "time to train (min)";
    // (benchmark, system) -> [measured, predicted] x [score, time_to_train]
    std::map<std::pair<std::string, std::string>, std::array<std::array<Mean, 2>, 2>> cells;
    for (const RunPoint &r : runs) {
        if (!isTimeMetric(r.metric) || !(r.unit.empty() || r.unit == "min"))
            continue;
        cells[{r.benchmark, r.system}][r.measured ? 0 : 1][r.metric == "score" ? 0 : 1].add(
            r.value);
    }
    // Each benchmark's pairs, fastest first.
    struct Pair
    {
        std::string label;
        double measured, predicted;
        double sortKey() const { return std::isfinite(measured) ? measured : predicted; }
    };
    std::map<std::string, std::vector<Pair>> groups;
    for (const auto &[key, m] : cells) {
        const std::string system = key.second.empty() ? std::string("(no system)") : key.second;
        groups[key.first].push_back({system + " / " + key.first,
                                     m[0][0].n ? m[0][0].value() : m[0][1].value(),
                                     m[1][0].n ? m[1][0].value() : m[1][1].value()});
    }
    std::vector<std::pair<std::string, std::vector<Pair>>> ordered(groups.begin(), groups.end());
    // Too many benchmarks for one axis: those with the most pairs.
    const std::size_t maxGroups = kMaxCategories / 3;
    if (ordered.size() > maxGroups) {
        std::stable_sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
            return a.second.size() > b.second.size();
        });
        c.notes.push_back(
            std::to_string(ordered.size() - maxGroups)
            + " benchmarks with the fewest pairs left out (chart one benchmark alone to see it)");
        ordered.resize(maxGroups);
        std::sort(ordered.begin(), ordered.end(),
                  [](const auto &a, const auto &b) { return a.first < b.first; });
    }
    const std::size_t perGroup
        = std::max<std::size_t>(3, kMaxCategories / std::max<std::size_t>(1, ordered.size()));
    Series measured{"measured", SeriesKind::Measured, {}, {}};
    Series predicted{"predicted", SeriesKind::Predicted, {}, {}};
    std::size_t folded = 0;
    for (auto &[benchmark, pairs] : ordered) {
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const Pair &a, const Pair &b) { return a.sortKey() < b.sortKey(); });
        if (pairs.size() > perGroup) {
            // The fastest, then the rest as one bar: their medians.
            std::vector<double> ms, ps;
            for (std::size_t i = perGroup - 1; i < pairs.size(); ++i) {
                if (std::isfinite(pairs[i].measured))
                    ms.push_back(pairs[i].measured);
                if (std::isfinite(pairs[i].predicted))
                    ps.push_back(pairs[i].predicted);
            }
            const std::size_t rest = pairs.size() - (perGroup - 1);
            folded += rest;
            pairs.resize(perGroup - 1);
            pairs.push_back({"others (" + std::to_string(rest) + ", median) / " + benchmark,
                             ms.empty() ? nan : median(ms), ps.empty() ? nan : median(ps)});
        }
        for (const Pair &p : pairs) {
            const double idx = double(c.categories.size());
            c.categories.push_back(p.label);
            measured.x.push_back(idx);
            measured.values.push_back(p.measured);
            predicted.x.push_back(idx);
            predicted.values.push_back(p.predicted);
            if (std::isfinite(p.measured) && std::isfinite(p.predicted))
                c.annotations.push_back(
                    {idx, std::max(p.measured, p.predicted), errorLabel(p.predicted, p.measured)});
        }
    }
    if (folded)
        c.notes.push_back(
            std::to_string(folded)
            + " slower pairs shown as one \"others\" bar "
              "per benchmark, at their medians (charting one system or benchmark narrows it)");
    std::size_t longest = 0;
    for (const std::string &label : c.categories)
        longest = std::max(longest, label.size());
    c.horizontal = c.categories.size() > 8 || longest > 24;
    // Times that span more than 30x (a minute on a pod, hours on one server) go on a log axis,
    // where the short bars still show.
    double fastest = std::numeric_limits<double>::infinity(), slowest = 0;
    for (const Series *s : {&measured, &predicted})
        for (double v : s->values)
            if (std::isfinite(v) && v > 0) {
                fastest = std::min(fastest, v);
                slowest = std::max(slowest, v);
            }
    c.y.log = slowest > 30 * fastest;
    c.series = {measured, predicted};
    return c;
}

ChartData scalingChart(const std::vector<RunPoint> &runs, bool logAxes)
{
    ChartData c;
    c.kind = ChartKind::Scaling;
    c.x = {"GPUs", logAxes};
    c.y.log = logAxes;
    bool haveTime = false;
    for (const RunPoint &r : runs)
        haveTime = haveTime || (isTimeMetric(r.metric) && r.gpus);
    std::string unit = "min";
    int withoutGpus = 0;
    // A study's points: the newest study's only (runs come oldest first).
    std::string newestStudy;
    for (const RunPoint &r : runs)
        if (!r.measured && !r.study.empty())
            newestStudy = r.study;
    int olderStudyPoints = 0;
    // benchmark -> measured/predicted -> gpus -> mean, and a study's predicted variants apart:
    // (benchmark, variant) -> gpus -> mean
    std::map<std::string, std::array<std::map<int, Mean>, 2>> points;
    std::map<std::pair<std::string, std::string>, std::map<int, Mean>> variants;
    for (const RunPoint &r : runs) {
        const bool time = isTimeMetric(r.metric);
        if (haveTime != time)
            continue;
        if (!r.gpus || *r.gpus <= 0) {
            ++withoutGpus;
            continue;
        }
        if (!time) {
            if (points.empty() && !r.unit.empty())
                unit = r.unit;
            else if (r.unit != unit)
                continue; // one unit per axis
        }
        if (!r.measured && !r.study.empty() && r.study != newestStudy)
            ++olderStudyPoints;
        else if (!r.measured && !r.study.empty())
            variants[{r.benchmark, withoutSize(r.system)}][*r.gpus].add(r.value);
        else
            points[r.benchmark][r.measured ? 0 : 1][*r.gpus].add(r.value);
    }
    // More curves than a legend can name: the variants merge into one mean per GPU count.
    constexpr std::size_t kMaxVariantCurves = 12;
    if (variants.size() > kMaxVariantCurves) {
        for (const auto &[key, byGpus] : variants)
            for (const auto &[gpus, mean] : byGpus) {
                Mean &all = points[key.first][1][gpus];
                all.sum += mean.sum;
                all.n += mean.n;
            }
        c.notes.push_back(
            std::to_string(variants.size()) + " study variants (more than "
            + std::to_string(kMaxVariantCurves)
            + " curves) shown as one mean per GPU count; charting one system narrows it");
        variants.clear();
    }
    // Words all variants share (the GPU model of a study that does not vary it) go to the title.
    std::vector<std::string> variantNames;
    for (const auto &[key, byGpus] : variants) {
        points[key.first]; // a benchmark with study points only still gets its series
        variantNames.push_back(key.second);
    }
    const std::vector<std::string> shared = sharedWords(variantNames);
    c.title = haveTime ? "Scaling: time to train against GPUs" : "Scaling: throughput against GPUs";
    for (std::size_t i = 0; i < shared.size(); ++i)
        c.title += (i ? " " : ", all ") + shared[i];
    c.y.label = haveTime ? "time to train (min)" : "throughput (" + unit + ")";
    if (withoutGpus)
        c.notes.push_back(std::to_string(withoutGpus) + " runs without a GPU count left out");
    if (olderStudyPoints)
        c.notes.push_back(std::to_string(olderStudyPoints)
                          + " points of older studies left out; showing the newest, "
                          + newestStudy);
    const bool several = points.size() > 1;
    for (const auto &[benchmark, kinds] : points) {
        const std::string prefix = several ? benchmark + " " : std::string();
        std::set<int> allGpus;
        for (int k = 0; k < 2; ++k) {
            Series s{prefix + (k == 0 ? "measured" : "predicted"),
                     k == 0 ? SeriesKind::Measured : SeriesKind::Predicted,
                     {},
                     {}};
            for (const auto &[gpus, mean] : kinds[k]) {
                s.x.push_back(gpus);
                s.values.push_back(mean.value());
                allGpus.insert(gpus);
            }
            if (!s.values.empty())
                c.series.push_back(std::move(s));
        }
        for (auto it = variants.lower_bound({benchmark, std::string()});
             it != variants.end() && it->first.first == benchmark; ++it) {
            const std::string variant = withoutWords(it->first.second, shared);
            Series s{prefix + (variant.empty() ? "" : variant + " ") + "predicted",
                     SeriesKind::Predicted,
                     {},
                     {}};
            for (const auto &[gpus, mean] : it->second) {
                s.x.push_back(gpus);
                s.values.push_back(mean.value());
                allGpus.insert(gpus);
            }
            c.series.push_back(std::move(s));
        }
        if (!kinds[0].empty() && allGpus.size() > 1) {
            // Linear speed-up from the smallest measured configuration.
            const double n0 = kinds[0].begin()->first, v0 = kinds[0].begin()->second.value();
            Series ideal{prefix + "ideal (linear)", SeriesKind::Ideal, {}, {}};
            for (int n : allGpus) {
                if (n < n0)
                    continue;
                ideal.x.push_back(n);
                ideal.values.push_back(haveTime ? v0 * n0 / n : v0 * n / n0);
            }
            c.series.push_back(std::move(ideal));
        }
    }
    return c;
}

ChartData bandwidthChart(const std::vector<BandwidthPoint> &measured,
                         const std::vector<BandwidthPoint> &modelled)
{
    ChartData c;
    c.kind = ChartKind::Bandwidth;
    c.title = "Link bandwidth: measured peak and model";
    c.x.label = "link";
    c.y.label = "bandwidth (GB/s)";
    std::map<std::string, std::array<double, 2>, NaturalLess> peak;
    auto add = [&](const std::vector<BandwidthPoint> &rows, int k) {
        for (const BandwidthPoint &b : rows) {
            if (b.link != "h2d" && b.link != "d2h" && b.link != "p2p" && b.link != "d2d")
                continue;
            if (!oneWayPeakTest(b.test) || !std::isfinite(b.gbps))
                continue;
            auto it = peak.try_emplace(linkCategory(b), std::array<double, 2>{nan, nan}).first;
            double &v = it->second[k];
            v = std::isfinite(v) ? std::max(v, b.gbps) : b.gbps;
        }
    };
    add(measured, 0);
    add(modelled, 1);
    Series m{"measured", SeriesKind::Measured, {}, {}};
    Series p{"model", SeriesKind::Predicted, {}, {}};
    for (const auto &[category, v] : peak) {
        m.x.push_back(double(c.categories.size()));
        p.x.push_back(double(c.categories.size()));
        c.categories.push_back(category);
        m.values.push_back(v[0]);
        p.values.push_back(v[1]);
        if (std::isfinite(v[0]) && std::isfinite(v[1]))
            c.annotations.push_back({m.x.back(), std::max(v[0], v[1]), errorLabel(v[1], v[0])});
    }
    c.series.push_back(std::move(m));
    if (!modelled.empty())
        c.series.push_back(std::move(p));
    return c;
}

ChartData heatmapChart(const std::vector<BandwidthPoint> &rows, const std::string &test)
{
    ChartData c;
    c.kind = ChartKind::Heatmap;
    c.x.label = "receiver";
    c.y.label = "sender";
    // Default: the first one-way P2P-enabled test (what the links can do), else any p2p test;
    // one machine's matrix, the first that has one (rows without both endpoints, as in a table
    // of link bandwidths, are no matrix).
    const auto isPeer = [](const BandwidthPoint &b) {
        return b.link == "p2p" && !b.from.empty() && !b.to.empty() && std::isfinite(b.gbps);
    };
    std::string chosen = test;
    std::optional<std::string> system;
    for (int pass = 0; pass < 2 && !system; ++pass)
        for (const BandwidthPoint &b : rows)
            if (!system && isPeer(b)
                && (chosen.empty() ? pass == 1 || oneWayPeakTest(b.test) : b.test == chosen)
                && lower(b.test).find("latency") == std::string::npos) {
                chosen = b.test;
                system = b.system;
            }
    c.title = "Peer-to-peer bandwidth" + (chosen.empty() ? std::string() : ": " + chosen)
              + (system && !system->empty() ? " (" + *system + ")" : std::string());
    c.matrix.valueLabel = "bandwidth (GB/s)";
    std::set<std::string, NaturalLess> endpoints;
    std::map<std::pair<std::string, std::string>, double> cell;
    std::set<std::string> others;
    for (const BandwidthPoint &b : rows) {
        // A GPU's copy to itself (the diagonal, ~1 TB/s of local memory) is left blank: on the
        // same colour scale it would flatten every peer link to the darkest colour.
        if (b.test != chosen || !isPeer(b))
            continue;
        if (b.system != system) {
            others.insert(b.system);
            continue;
        }
        endpoints.insert(b.from);
        endpoints.insert(b.to);
        double &v = cell.try_emplace({b.from, b.to}, b.gbps).first->second;
        v = std::max(v, b.gbps);
    }
    if (!others.empty())
        c.notes.push_back(std::to_string(others.size())
                          + " other machines' matrices of this test not shown (chart one system "
                            "alone to see its own)");
    c.matrix.rows.assign(endpoints.begin(), endpoints.end());
    c.matrix.columns = c.matrix.rows;
    for (const std::string &from : c.matrix.rows)
        for (const std::string &to : c.matrix.columns) {
            const auto it = cell.find({from, to});
            c.matrix.cells.push_back(it == cell.end() ? nan : it->second);
        }
    return c;
}

ChartData collectiveChart(const std::vector<BandwidthPoint> &rows)
{
    ChartData c;
    c.kind = ChartKind::Collective;
    c.title = "Collective bus bandwidth against message size";
    c.x = {"message size (bytes)", true};
    c.y.label = "bus bandwidth (GB/s)";
    std::map<std::string, std::map<std::int64_t, Mean>> series;
    for (const BandwidthPoint &b : rows)
        if (b.link == "collective" && b.messageBytes && *b.messageBytes > 0
            && std::isfinite(b.gbps))
            series[b.system.empty() ? b.test : b.system + ": " + b.test][*b.messageBytes].add(
                b.gbps);
    for (const auto &[name, points] : series) {
        Series s{name, SeriesKind::Measured, {}, {}};
        s.identity = name;
        for (const auto &[bytes, mean] : points) {
            s.x.push_back(double(bytes));
            s.values.push_back(mean.value());
        }
        c.series.push_back(std::move(s));
    }
    return c;
}

ChartData breakdownBars(const std::vector<std::pair<std::string, std::array<double, 4>>> &bars)
{
    ChartData c;
    c.kind = ChartKind::Breakdown;
    c.title = "Where the time to train goes (model)";
    c.x.label = "system / benchmark";
    c.y.label = "time to train (min)";
    c.stacked = true;
    const char *names[] = {"compute", "exposed communication", "input stall", "evaluation"};
    for (int k = 0; k < 4; ++k)
        c.series.push_back({names[k], SeriesKind::Predicted, {}, {}});
    for (const auto &[label, parts] : bars) {
        const double idx = double(c.categories.size());
        c.categories.push_back(label);
        double total = 0;
        for (int k = 0; k < 4; ++k) {
            c.series[k].x.push_back(idx);
            c.series[k].values.push_back(parts[k]);
            total += parts[k];
        }
        c.annotations.push_back({idx, total, fixed1(total) + " min"});
    }
    return c;
}

ChartData breakdownChart(const std::vector<LabelledPrediction> &predictions)
{
    std::vector<std::pair<std::string, std::array<double, 4>>> bars;
    ChartData c;
    for (const LabelledPrediction &p : predictions) {
        if (!p.prediction.timeToTrainMin) {
            c.notes.push_back(p.label + ": no time to train (no convergence table)");
            continue;
        }
        const auto &b = p.prediction.breakdownMin;
        bars.push_back({p.label, {b.compute, b.communication, b.input, b.evaluation}});
    }
    ChartData out = breakdownBars(bars);
    out.notes = c.notes;
    return out;
}

ChartData breakdownChart(const std::vector<RunPoint> &runs)
{
    std::vector<std::pair<std::string, std::array<double, 4>>> bars;
    for (const RunPoint &r : runs)
        if (!r.measured && r.breakdownMin && !r.breakdownOfEpoch)
            bars.push_back(
                {(r.system.empty() ? std::string("(no system)") : r.system) + " / " + r.benchmark,
                 *r.breakdownMin});
    // The newest predictions (runs come oldest first), as many as bars stay apart.
    const std::size_t older = bars.size() > kMaxCategories ? bars.size() - kMaxCategories : 0;
    bars.erase(bars.begin(), bars.begin() + std::ptrdiff_t(older));
    ChartData c = breakdownBars(bars);
    c.horizontal = bars.size() > 8;
    if (older)
        c.notes.push_back(std::to_string(older) + " older predicted runs left out (at most "
                          + std::to_string(kMaxCategories)
                          + " bars); select fewer runs, or chart one benchmark and system");
    if (bars.empty())
        c.notes.push_back("no predicted run carries a breakdown (details compute_min, "
                          "communication_min, input_min, evaluation_min)");
    return c;
}

} // namespace clab::charts
