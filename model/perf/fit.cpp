#include "perf/fit.h"
#include "util/stats.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>

namespace clab::perf {

namespace {

enum class Kind {
    Efficiency,
    Memory,
    Overhead,
    EvalOverhead,
    Overlap,
    Sync,
    Software,
    BenchSoftware
};

struct Param
{
    Kind kind;
    std::string key;
    double
        ridge; // weight pulling log(value) towards the prior, in units of one row's squared error
    double prior; // log of the value it is pulled towards
    double upper; // largest log value (0 for shares that may not exceed 1)
};

// Ridge weights. A benchmark's GEMM efficiency is free; its memory scale needs evidence from
// GPUs of different compute-to-bandwidth ratios to leave 1; overheads are held loosely near
// 1 ms and 1 s. A software stack needs several rows' worth of evidence to move from 1 (all
// stacks), and a benchmark on a stack more again to move from its stack (hierarchical
// shrinkage: benchmark within round within all).
constexpr double kRidgeEfficiency = 0.01;
constexpr double kRidgeMemory = 1.0;
constexpr double kRidgeOverhead = 0.3;
constexpr double kRidgeOverlap = 1.0;
constexpr double kRidgeSync = 3.0;
constexpr double kRidgeSoftware = 2.0;
constexpr double kRidgeBenchSoftware = 6.0;
constexpr double kNoUpper = 6;
// Rows of an architecture before the calibration counts it as seen (as intervalsOf's cells).
constexpr int kMinArchRows = 8;
// The calibration reader rejects a host jitter above 10 per-pass overheads; the fit stays inside.
constexpr double kMaxJitter = 10;

double &valueOf(Calibration &c, const Param &p)
{
    switch (p.kind) {
    case Kind::Efficiency:
        return c.bench[p.key].gemmEfficiency;
    case Kind::Memory:
        return c.bench[p.key].memoryScale;
    case Kind::Overhead:
        return c.bench[p.key].overheadMs;
    case Kind::EvalOverhead:
        return c.bench[p.key].evalOverheadS;
    case Kind::Overlap:
        return c.overlap;
    case Kind::Sync:
        return c.hostJitter;
    case Kind::Software:
        return c.software[p.key];
    case Kind::BenchSoftware:
        return c.benchSoftware[p.key];
    }
    return c.overlap;
}

// Solves A x = b for a small dense symmetric positive-definite A (Gaussian elimination with
// partial pivoting; A is at most a couple of hundred parameters wide).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b)
{
    const std::size_t n = b.size();
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < n; ++r) {
            if (std::abs(a[r][c]) > std::abs(a[pivot][c]))
                pivot = r;
        }
        std::swap(a[c], a[pivot]);
        std::swap(b[c], b[pivot]);
        if (std::abs(a[c][c]) < 1e-300)
            continue;
        for (std::size_t r = c + 1; r < n; ++r) {
            const double f = a[r][c] / a[c][c];
            if (f == 0)
                continue;
            for (std::size_t k = c; k < n; ++k)
                a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    std::vector<double> x(n, 0);
    for (std::size_t i = n; i-- > 0;) {
        double s = b[i];
        for (std::size_t k = i + 1; k < n; ++k)
            s -= a[i][k] * x[k];
        x[i] = std::abs(a[i][i]) < 1e-300 ? 0 : s / a[i][i];
    }
    return x;
}

// FNV-1a: the same folds on every machine and library (std::hash promises neither).
std::uint64_t stableHash(const std::string &s)
{
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

double quantile(std::vector<double> &values, double q)
{
    std::sort(values.begin(), values.end());
    return quantileOfSorted(values, q);
}

} // namespace

Calibration fitCalibration(const std::vector<const Observation *> &rows, const FitOptions &options)
{
    Calibration cal;
    std::vector<Param> params;
    std::map<std::pair<Kind, std::string>, std::size_t> indexOf;
    auto param = [&](Kind k, const std::string &key, double ridge, double prior, double upper) {
        const auto [it, inserted] = indexOf.emplace(std::pair{k, key}, params.size());
        if (inserted) {
            params.push_back({k, key, ridge, std::log(prior), upper});
            valueOf(cal, params.back()) = prior;
        }
        return it->second;
    };
    // A benchmark-on-stack factor is a software-year effect only where it compares a GPU
    // architecture with itself in another year. Where every row of the pair comes from
    // architectures that ran the benchmark on no other stack, the factor would absorb what the
    // physics gets wrong about that architecture (and carry it to every other GPU of that
    // year), so the pair keeps its stack's factor alone.
    std::map<std::pair<std::string, std::string>, std::set<std::string>> stacksOf;
    for (const Observation *o : rows)
        stacksOf[{o->workload->calibrationKey(), o->platform.gpu->arch}].insert(
            softwareKey(o->round));
    std::set<std::string> anchoredPairs;
    for (const Observation *o : rows) {
        const std::string &id = o->workload->calibrationKey();
        if (stacksOf[{id, o->platform.gpu->arch}].size() > 1)
            anchoredPairs.insert(id + "/" + softwareKey(o->round));
    }
    std::vector<std::vector<std::size_t>> depsOf(rows.size());
    std::map<std::string, int> stackRows;
    std::map<std::string, int> benchRows;
    std::map<std::string, int> archRows;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Observation &o = *rows[i];
        const std::string &id = o.workload->calibrationKey();
        auto &deps = depsOf[i];
        ++archRows[o.platform.gpu->arch];
        ++benchRows[id];
        deps.push_back(param(Kind::Efficiency, id, kRidgeEfficiency, 0.5, 0));
        if (options.physicsOnly)
            continue;
        deps.push_back(param(Kind::Memory, id, kRidgeMemory, 1.0, kNoUpper));
        deps.push_back(param(Kind::Overhead, id, kRidgeOverhead, 1.0, kNoUpper));
        if (o.kind == Observation::Kind::Minutes && !o.workload->measuredEval
            && o.workload->evalTimed)
            deps.push_back(param(Kind::EvalOverhead, id, kRidgeOverhead, 1.0, kNoUpper));
        deps.push_back(param(Kind::Overlap, "", kRidgeOverlap, 0.7, 0));
        if (o.platform.nodes > 1)
            deps.push_back(param(Kind::Sync, "", kRidgeSync, 0.2, std::log(kMaxJitter)));
        const std::string stack = softwareKey(o.round);
        ++stackRows[stack];
        deps.push_back(param(Kind::Software, stack, kRidgeSoftware, 1.0, kNoUpper));
        if (anchoredPairs.count(id + "/" + stack))
            deps.push_back(
                param(Kind::BenchSoftware, id + "/" + stack, kRidgeBenchSoftware, 1.0, kNoUpper));
    }
    if (!options.physicsOnly && !params.empty()) {
        // Shared factors start from their priors, and keep them when no row moves them (a fit
        // with no multi-node row still predicts some waiting on many nodes).
        cal.overlap = 0.7;
        cal.hostJitter = 0.2;
    }
    std::vector<std::vector<std::size_t>> rowsOf(params.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (std::size_t p : depsOf[i])
            rowsOf[p].push_back(i);
    }
    const std::size_t n = rows.size();
    const std::size_t m = params.size();
    std::vector<double> theta(m);
    for (std::size_t j = 0; j < m; ++j)
        theta[j] = params[j].prior;
    auto set = [&](std::size_t j, double value) { valueOf(cal, params[j]) = std::exp(value); };
    auto residual = [&](std::size_t i) {
        const auto pred = predictObservation(*rows[i], cal, true);
        return pred && *pred > 0 ? std::log(*pred / rows[i]->measured) : 0.0;
    };
    auto cost = [&](std::vector<double> &r) {
        double c = 0;
        r.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            r[i] = residual(i);
            c += r[i] * r[i];
        }
        for (std::size_t j = 0; j < m; ++j)
            c += params[j].ridge * std::pow(theta[j] - params[j].prior, 2);
        return c;
    };

    std::vector<double> r;
    double current = cost(r);
    double mu = 1e-2;
    constexpr double kStep = 1e-4;
    for (int iteration = 0; iteration < 80; ++iteration) {
        // Jacobian of the row residuals, one column at a time over the rows that depend on it
        // (a step towards the upper bound is taken backwards when the parameter sits on it).
        std::vector<std::vector<double>> a(m, std::vector<double>(m, 0));
        std::vector<double> g(m, 0);
        std::vector<std::vector<std::pair<std::size_t, double>>> jac(n);
        for (std::size_t j = 0; j < m; ++j) {
            const double h = theta[j] + kStep > params[j].upper ? -kStep : kStep;
            set(j, theta[j] + h);
            for (std::size_t i : rowsOf[j])
                jac[i].emplace_back(j, (residual(i) - r[i]) / h);
            set(j, theta[j]);
        }
        for (std::size_t i = 0; i < n; ++i) {
            for (const auto &[j, dj] : jac[i]) {
                g[j] += dj * r[i];
                for (const auto &[k, dk] : jac[i])
                    a[j][k] += dj * dk;
            }
        }
        for (std::size_t j = 0; j < m; ++j) {
            a[j][j] += params[j].ridge;
            g[j] += params[j].ridge * (theta[j] - params[j].prior);
        }
        bool improved = false;
        for (int attempt = 0; attempt < 10 && !improved; ++attempt) {
            std::vector<std::vector<double>> damped = a;
            std::vector<double> rhs(m);
            for (std::size_t j = 0; j < m; ++j) {
                damped[j][j] += mu * (a[j][j] + 1e-9);
                rhs[j] = -g[j];
            }
            const std::vector<double> step = solve(damped, rhs);
            const std::vector<double> old = theta;
            for (std::size_t j = 0; j < m; ++j) {
                theta[j] = std::clamp(old[j] + step[j], params[j].prior - 6,
                                      std::min(params[j].prior + 6, params[j].upper));
                set(j, theta[j]);
            }
            std::vector<double> rNew;
            const double next = cost(rNew);
            if (next < current) {
                improved = true;
                const double gain = current - next;
                current = next;
                r = std::move(rNew);
                mu = std::max(mu / 3, 1e-7);
                if (gain < 1e-7 * std::max(1.0, current))
                    iteration = 1000;
            } else {
                theta = old;
                for (std::size_t j = 0; j < m; ++j)
                    set(j, theta[j]);
                mu *= 4;
            }
        }
        if (!improved)
            break;
    }
    // The default stack: the newest MLPerf round with rows, else the stack with most rows.
    double newest = -1;
    for (const auto &[stack, count] : stackRows) {
        if (stack.rfind("mlperf-", 0) == 0 && std::atof(stack.c_str() + 7) > newest) {
            newest = std::atof(stack.c_str() + 7);
            cal.defaultSoftware = stack;
        }
    }
    if (cal.defaultSoftware.empty() && !stackRows.empty())
        cal.defaultSoftware
            = std::max_element(stackRows.begin(), stackRows.end(),
                               [](const auto &a, const auto &b) { return a.second < b.second; })
                  ->first;
    for (auto &[id, p] : cal.bench)
        p.rows = benchRows[id];
    // An architecture the fit saw in a handful of rows (one preview result of a new GPU) has not
    // taught it that architecture: its predictions keep the flag and the held-out-architecture
    // interval until it has as many rows as an interval cell needs.
    cal.architectures.emplace();
    for (const auto &[arch, count] : archRows) {
        if (count >= kMinArchRows)
            cal.architectures->insert(arch);
    }
    cal.rows = int(n);
    return cal;
}

namespace {

// Median and P90 of each group of absolute errors.
std::map<std::string, ErrorStats> statsOf(std::map<std::string, std::vector<double>> &errors)
{
    std::map<std::string, ErrorStats> out;
    for (auto &[name, list] : errors)
        out[name] = {int(list.size()), quantile(list, 0.5), quantile(list, 0.9)};
    return out;
}

} // namespace

std::map<std::string, ErrorStats> summarize(const std::vector<RowResult> &results)
{
    std::map<std::string, std::vector<double>> errors;
    for (const RowResult &r : results) {
        if (!r.predicted)
            continue;
        const double e = std::abs(*r.predicted - r.row->measured) / r.row->measured;
        if (r.row->kind == Observation::Kind::Throughput) {
            errors["throughput"].push_back(e);
            errors["throughput/" + r.row->workload->id].push_back(e);
            continue;
        }
        errors[r.row->benchmark].push_back(e);
        errors["all"].push_back(e);
    }
    return statsOf(errors);
}

std::map<std::string, ErrorStats> convergenceFloor(const std::vector<RowResult> &results)
{
    std::map<std::string, std::vector<double>> errors;
    for (const RowResult &r : results) {
        const Observation &o = *r.row;
        if (!r.predicted || o.kind != Observation::Kind::Minutes || !o.trainedSamples
            || *o.trainedSamples <= 0)
            continue;
        const auto table = workload::samplesToConverge(*o.workload, o.globalBatch);
        if (!table)
            continue;
        const double e = std::abs(*table / *o.trainedSamples - 1);
        errors[o.benchmark].push_back(e);
        errors["all"].push_back(e);
    }
    return statsOf(errors);
}

std::map<std::string, ErrorStats> summarizeByArchitecture(const std::vector<RowResult> &results)
{
    std::map<std::string, std::vector<double>> errors;
    for (const RowResult &r : results) {
        if (!r.predicted)
            continue;
        const double e = std::abs(*r.predicted - r.row->measured) / r.row->measured;
        const std::string &arch = r.row->platform.gpu->arch;
        errors[r.row->kind == Observation::Kind::Throughput ? "throughput/" + arch : arch]
            .push_back(e);
    }
    return statsOf(errors);
}

std::optional<GroupOut> parseGroupOut(std::string_view text)
{
    if (text == "system")
        return GroupOut::System;
    if (text == "architecture")
        return GroupOut::Architecture;
    if (text == "round")
        return GroupOut::Round;
    return std::nullopt;
}

const char *groupOutName(GroupOut g)
{
    switch (g) {
    case GroupOut::System:
        return "system";
    case GroupOut::Architecture:
        return "architecture";
    case GroupOut::Round:
        return "round";
    }
    return "?";
}

std::vector<RowResult> heldOut(const ObservationSet &set, GroupOut group, const FitOptions &options)
{
    constexpr std::size_t kFolds = 5;
    auto keyOf = [&](const Observation &o) -> std::string {
        switch (group) {
        case GroupOut::System:
            return std::to_string(stableHash(o.group) % kFolds);
        case GroupOut::Architecture:
            return o.platform.gpu->arch;
        case GroupOut::Round:
            return softwareKey(o.round);
        }
        return {};
    };
    std::set<std::string> keys;
    for (const Observation &o : set.rows)
        keys.insert(keyOf(o));
    std::vector<RowResult> results;
    for (const std::string &key : keys) {
        std::vector<const Observation *> train;
        for (const Observation &o : set.rows)
            if (keyOf(o) != key)
                train.push_back(&o);
        const Calibration c = fitCalibration(train, options);
        for (const Observation &o : set.rows)
            if (keyOf(o) == key)
                results.push_back({&o, predictObservation(o, c, options.recordedSamples)});
    }
    return results;
}

std::map<std::string, Interval, std::less<>> intervalsOf(const std::vector<RowResult> &results)
{
    std::map<std::string, std::vector<double>> logs;
    for (const RowResult &r : results) {
        if (!r.predicted || *r.predicted <= 0)
            continue;
        double e = std::log(*r.predicted / r.row->measured);
        if (r.row->kind == Observation::Kind::Throughput)
            e = -e;
        const std::string &id = r.row->workload->calibrationKey();
        const std::string &arch = r.row->platform.gpu->arch;
        for (const std::string &key : {id + "/" + arch, id, arch, std::string()})
            logs[key].push_back(e);
    }
    // A cell needs enough rows for its quantiles to mean something (Calibration::interval falls
    // back to wider cells); a few absurd rows (a system table naming 1 Gb Ethernet as its only
    // network) must not make a quantile the calibration file refuses.
    constexpr std::size_t kMinRows = 8;
    constexpr double kLimit = 5;
    std::map<std::string, Interval, std::less<>> out;
    for (auto &[key, list] : logs) {
        if (list.size() < kMinRows)
            continue;
        out[key] = {std::clamp(quantile(list, 0.1), -kLimit, kLimit),
                    std::clamp(quantile(list, 0.9), -kLimit, kLimit), int(list.size())};
    }
    return out;
}

} // namespace clab::perf
