// The compare chart: a study's variants side by side, each bar split into where its time goes.
#include "charts/builders.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <set>

namespace clab::charts {

namespace {

std::vector<std::string> words(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

std::string bare(std::string word)
{
    if (!word.empty() && word.back() == ',')
        word.pop_back();
    return word;
}

// The words (without a trailing comma) that every name holds.
std::vector<std::string> sharedWords(const std::vector<std::string> &names)
{
    std::vector<std::string> shared;
    if (names.empty())
        return shared;
    for (const std::string &w : words(names.front())) {
        const std::string b = bare(w);
        bool everywhere = true;
        for (const std::string &n : names) {
            bool found = false;
            for (const std::string &x : words(n))
                found = found || bare(x) == b;
            everywhere = everywhere && found;
        }
        if (everywhere && std::find(shared.begin(), shared.end(), b) == shared.end())
            shared.push_back(b);
    }
    // A name made only of shared words would vanish: keep it whole.
    return shared.size() == words(names.front()).size() ? std::vector<std::string>{} : shared;
}

// The name without those words; a comma they carried stays with the word before.
std::string withoutWords(const std::string &name, const std::vector<std::string> &drop)
{
    std::string out;
    for (const std::string &w : words(name)) {
        if (std::find(drop.begin(), drop.end(), bare(w)) != drop.end()) {
            if (w.back() == ',' && !out.empty() && out.back() != ',')
                out += ',';
            continue;
        }
        out += (out.empty() ? "" : " ") + w;
    }
    return out.empty() ? name : out;
}

std::string minutes(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.2f" : "%.1f", v);
    return buf;
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
    std::vector<std::pair<std::string, std::array<double, 4>>> bars;
    std::vector<std::string> totals; // the absolute time each bar stands for
    std::vector<std::string> leftOut;
    // Several benchmarks share one axis as time relative to each benchmark's first variant.
    const bool relative = benchmarks.size() > 1;
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
        // A variant that appears twice (other batch or precision) says which it is.
        std::map<std::string, int> seen;
        for (const RunPoint *r : list)
            ++seen[r->system];
        const auto &first = *list.front()->breakdownMin;
        const double base = relative ? first[0] + first[1] + first[2] + first[3] : 1.0;
        for (const RunPoint *r : list) {
            std::string label = withoutWords(r->system, shared) + " / " + b;
            if (seen[r->system] > 1)
                label += " (batch " + (r->globalBatch ? std::to_string(*r->globalBatch) : "?")
                         + ", " + r->precision + ")";
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
    std::string title = study.empty() ? "Variants compared" : study + ": variants compared";
    for (std::size_t i = 0; i < shared.size(); ++i)
        title += (i ? " " : ", all ") + shared[i];
    c.title = title + " (model)";
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
                          + omitted + "; chart them with --benchmark");
    }
    return c;
}

} // namespace clab::charts
