// The compare chart: a study's variants side by side, each bar split into where its time goes.
#include "charts/builders.h"
#include "charts/labels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <set>

namespace clab::charts {

namespace {

std::string minutes(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f" : "%.1f", v);
    return buf;
}

std::string titleOf(const std::string &study, const std::vector<std::string> &shared)
{
    std::string title = study.empty() ? "Variants compared" : study + ": variants compared";
    for (std::size_t i = 0; i < shared.size(); ++i)
        title += (i ? " " : ", all ") + shared[i];
    return title + " (model)";
}

// A variant's label; one that appears twice for a benchmark (other batch or precision) says
// which it is.
std::string variantLabel(const RunPoint &r, const std::vector<std::string> &shared, bool twice)
{
    std::string label = withoutWords(r.system, shared);
    if (twice)
        label += " (batch " + (r.globalBatch ? std::to_string(*r.globalBatch) : "?") + ", "
                 + r.precision + ")";
    return label;
}

// When every benchmark's variants together pass the bar limit: one group of bars per variant,
// one bar per benchmark, each its total time relative to the benchmark's first variant. Nothing
// is left out; the split into compute, communication, input and evaluation is (a note says so).
// Empty when even the variants alone pass the limit.
ChartData benchmarksSideBySide(const std::vector<std::string> &benchmarks,
                               std::map<std::string, std::vector<const RunPoint *>> &byBenchmark,
                               const std::vector<std::string> &shared)
{
    std::vector<std::string> variants;
    std::map<std::string, std::map<std::string, double>> relativeTime; // variant → benchmark → t
    for (const std::string &b : benchmarks) {
        const std::vector<const RunPoint *> &list = byBenchmark[b];
        std::map<std::string, int> seen;
        for (const RunPoint *r : list)
            ++seen[r->system];
        const auto total = [](const RunPoint *r) {
            const auto &p = *r->breakdownMin;
            return p[0] + p[1] + p[2] + p[3];
        };
        const double base = total(list.front());
        std::map<std::string, int> repeats;
        for (const RunPoint *r : list) {
            std::string label = variantLabel(*r, shared, seen[r->system] > 1);
            // Points that differ only in what a run does not record (the software stack) keep
            // a bar each, numbered.
            if (const int n = ++repeats[label]; n > 1)
                label += " #" + std::to_string(n);
            if (std::find(variants.begin(), variants.end(), label) == variants.end())
                variants.push_back(label);
            relativeTime[label][b] = base > 0 ? total(r) / base : 0.0;
        }
    }
    ChartData c;
    if (variants.size() > kMaxCategories)
        return c;
    c.kind = ChartKind::Compare;
    c.categories = variants;
    for (const std::string &b : benchmarks) {
        Series s{b, SeriesKind::Predicted, {}, {}};
        s.identity = b;
        for (std::size_t i = 0; i < variants.size(); ++i) {
            const auto &times = relativeTime[variants[i]];
            const auto it = times.find(b);
            s.x.push_back(double(i));
            s.values.push_back(it == times.end() ? std::nan("") : it->second);
        }
        c.series.push_back(std::move(s));
    }
    c.x.label = "variant";
    c.y.label = "time to train relative to the benchmark's first variant (one epoch without a "
                "convergence table)";
    c.horizontal = variants.size() > 8;
    c.notes.push_back(std::to_string(benchmarks.size()) + " benchmarks x "
                      + std::to_string(variants.size()) + " variants pass "
                      + std::to_string(kMaxCategories)
                      + " bars: one bar per benchmark, totals only; the split of each "
                        "benchmark's time: chart that benchmark alone");
    return c;
}

} // namespace

ChartData compareChart(const std::vector<RunPoint> &runs)
{
    // The newest study among the runs (runs come oldest first).
    std::string study;
    std::set<std::string> studies;
    for (const RunPoint &r : runs)
        if (!r.measured && !r.study.empty() && r.breakdownMin) {
            study = r.study;
            studies.insert(r.study);
        }
    // Benchmarks in the order the study first reaches them, each with its variants in order.
    std::vector<std::string> benchmarks;
    std::map<std::string, std::vector<const RunPoint *>> byBenchmark;
    for (const RunPoint &r : runs) {
        if (r.measured || r.study != study || !r.breakdownMin)
            continue;
        auto &list = byBenchmark[r.benchmark];
        if (list.empty())
            benchmarks.push_back(r.benchmark);
        list.push_back(&r);
    }
    // Words every variant's name shares (the GPU model of a study that does not vary it) go to
    // the title instead of every label.
    std::vector<std::string> names;
    for (const std::string &b : benchmarks)
        for (const RunPoint *r : byBenchmark[b])
            names.push_back(r->system);
    const std::vector<std::string> shared = sharedWords(names);
    // Several benchmarks share one axis as time relative to each benchmark's first variant.
    const bool relative = benchmarks.size() > 1;
    std::size_t barCount = 0;
    for (const std::string &b : benchmarks)
        barCount += byBenchmark[b].size();
    if (relative && barCount > kMaxCategories) {
        ChartData c = benchmarksSideBySide(benchmarks, byBenchmark, shared);
        if (!c.categories.empty()) {
            c.title = titleOf(study, shared);
            if (studies.size() > 1)
                c.notes.push_back("the store holds " + std::to_string(studies.size())
                                  + " studies; showing the newest, " + study);
            return c;
        }
    }
    std::vector<std::pair<std::string, std::array<double, 4>>> bars;
    std::vector<std::string> totals; // the absolute time each bar stands for
    std::vector<std::string> leftOut;
    std::string cut;
    for (const std::string &b : benchmarks) {
        std::vector<const RunPoint *> list = byBenchmark[b];
        if (bars.size() + list.size() > kMaxCategories) {
            if (!bars.empty()) {
                leftOut.push_back(b + " (" + std::to_string(list.size()) + " variants)");
                continue;
            }
            // One benchmark alone has more variants than bars fit: its first ones, said.
            cut = b + ": the first " + std::to_string(kMaxCategories) + " of "
                  + std::to_string(list.size()) + " variants shown";
            list.resize(kMaxCategories);
        }
        std::map<std::string, int> seen;
        for (const RunPoint *r : list)
            ++seen[r->system];
        const auto &first = *list.front()->breakdownMin;
        const double base = relative ? first[0] + first[1] + first[2] + first[3] : 1.0;
        std::map<std::string, int> repeats;
        for (const RunPoint *r : list) {
            std::string label = variantLabel(*r, shared, seen[r->system] > 1);
            if (const int n = ++repeats[label]; n > 1)
                label += " #" + std::to_string(n);
            label += " / " + b;
            std::array<double, 4> parts = *r->breakdownMin;
            double total = 0;
            for (double &part : parts) {
                total += part;
                part = base > 0 ? part / base : 0.0;
            }
            totals.push_back(minutes(total) + (r->breakdownOfEpoch ? " min/epoch" : " min"));
            bars.push_back({label, parts});
        }
    }
    ChartData c = breakdownBars(bars);
    for (std::size_t i = 0; i < c.annotations.size() && i < totals.size(); ++i)
        c.annotations[i].text = totals[i];
    c.kind = ChartKind::Compare;
    c.title = titleOf(study, shared);
    c.x.label = "variant / benchmark";
    c.y.label = relative ? "time to train relative to the benchmark's first variant (one epoch "
                           "without a convergence table)"
                         : (bars.size() && byBenchmark[benchmarks.front()].front()->breakdownOfEpoch
                                ? "one epoch (min)"
                                : "time to train (min)");
    c.horizontal = bars.size() > 8;
    if (study.empty())
        c.notes.push_back("no study in the store: run `composelab study FILE --db STORE` first");
    if (studies.size() > 1)
        c.notes.push_back("the store holds " + std::to_string(studies.size())
                          + " studies; showing the newest, " + study);
    if (!cut.empty())
        c.notes.push_back(cut);
    if (!leftOut.empty()) {
        std::string omitted;
        for (const std::string &n : leftOut)
            omitted += (omitted.empty() ? "" : ", ") + n;
        c.notes.push_back("more than " + std::to_string(kMaxCategories) + " bars: left out "
                          + omitted + "; chart each benchmark alone");
    }
    return c;
}

} // namespace clab::charts
