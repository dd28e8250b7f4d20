#include "perf/fit.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <functional>
#include <set>

namespace clab::perf {

namespace {

enum class Table { Efficiency, Overhead, Arch, BenchArch, Gpu, Round, BenchRound, Link };

struct Param
{
    Table table;
    std::string key;
    double ridge; // weight pulling log(value) towards log(prior)
    double prior; // log of the value it is pulled towards
};

using Map = std::map<std::string, double, std::less<>>;

Map &tableOf(Calibration &c, Table t)
{
    switch (t) {
    case Table::Efficiency:
        return c.benchEfficiency;
    case Table::Overhead:
        return c.benchOverheadMs;
    case Table::Arch:
        return c.archFactor;
    case Table::BenchArch:
        return c.benchArchFactor;
    case Table::Gpu:
        return c.gpuFactor;
    case Table::BenchRound:
        return c.benchRoundFactor;
    case Table::Round:
        return c.roundFactor;
    case Table::Link:
        return c.linkFactor;
    }
    return c.linkFactor;
}

// Ridge weights, in units of one row's squared log error: the benchmark's own efficiency is
// free; a per-step overhead is mildly held near 1 ms; shared factors need several rows' worth
// of evidence to move from 1.
constexpr double kRidgeEfficiency = 0.01;
constexpr double kRidgeOverhead = 0.3;
constexpr double kRidgeShared = 2.0;
// How a benchmark fares on an architecture beyond the architecture's general factor (tensor-core
// generations favour some layer shapes): held a little harder, so that it needs a pattern
// across several rows.
constexpr double kRidgeInteraction = 1.0;
// A GPU's form factor sets its power limit and so its sustained clocks (a 250 W A100 PCIe is
// not a 400 W A100 SXM, though the datasheet peaks agree). Keyed by architecture and form
// factor, not by memory size: the 40 and 80 GB parts of one chip share a factor.
constexpr double kRidgeGpu = 1.0;

// Solves A x = b for a small dense symmetric positive-definite A (Gaussian elimination with
// partial pivoting; A is at most a few dozen parameters wide).
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

} // namespace

Calibration fitCalibration(const std::vector<const Observation *> &rows)
{
    Calibration cal;
    std::vector<Param> params;
    std::map<std::pair<Table, std::string>, std::size_t> indexOf;
    auto param = [&](Table t, const std::string &key, double ridge, double prior) {
        const auto [it, inserted] = indexOf.emplace(std::pair{t, key}, params.size());
        if (inserted) {
            params.push_back({t, key, ridge, std::log(prior)});
            tableOf(cal, t)[key] = prior;
        }
        return it->second;
    };
    std::vector<std::vector<std::size_t>> rowsOf;
    std::vector<std::vector<std::size_t>> depsOf(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Observation &o = *rows[i];
        auto &deps = depsOf[i];
        deps.push_back(param(Table::Efficiency, o.workload->id, kRidgeEfficiency, 0.4));
        deps.push_back(param(Table::Overhead, o.workload->id, kRidgeOverhead, 1.0));
        deps.push_back(param(Table::Arch, o.platform.gpu->arch, kRidgeShared, 1.0));
        deps.push_back(param(Table::BenchArch, o.workload->id + "/" + o.platform.gpu->arch,
                             kRidgeInteraction, 1.0));
        deps.push_back(param(Table::Gpu, gpuKey(*o.platform.gpu), kRidgeGpu, 1.0));
        deps.push_back(param(Table::Round, o.round, kRidgeShared, 1.0));
        deps.push_back(
            param(Table::BenchRound, o.workload->id + "/" + o.round, kRidgeInteraction, 1.0));
        if (o.platform.gpusPerNode > 1)
            deps.push_back(param(Table::Link, o.platform.linkKey, kRidgeShared, 1.0));
    }
    rowsOf.assign(params.size(), {});
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (std::size_t p : depsOf[i])
            rowsOf[p].push_back(i);
    }
    const std::size_t n = rows.size();
    const std::size_t m = params.size();
    std::vector<double> theta(m);
    for (std::size_t j = 0; j < m; ++j)
        theta[j] = params[j].prior;
    auto set = [&](std::size_t j, double value) {
        tableOf(cal, params[j].table)[params[j].key] = std::exp(value);
    };
    auto residual = [&](std::size_t i) {
        const auto pred = predictObservation(*rows[i], cal);
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
    for (int iteration = 0; iteration < 60; ++iteration) {
        // Jacobian of the row residuals, one column at a time over the rows that depend on it.
        std::vector<std::vector<double>> a(m, std::vector<double>(m, 0));
        std::vector<double> g(m, 0);
        std::vector<std::map<std::size_t, double>> jac(n);
        for (std::size_t j = 0; j < m; ++j) {
            set(j, theta[j] + kStep);
            for (std::size_t i : rowsOf[j])
                jac[i][j] = (residual(i) - r[i]) / kStep;
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
                theta[j] = std::clamp(old[j] + step[j], params[j].prior - 6, params[j].prior + 6);
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
    // Efficiencies above what hardware reaches would only mean the model misses a term.
    for (auto &[k, v] : cal.benchEfficiency)
        v = std::min(v, 0.95);
    cal.rows = int(n);
    return cal;
}

std::map<std::string, ErrorStats> summarize(const std::vector<RowResult> &results)
{
    std::map<std::string, std::vector<double>> errors;
    for (const RowResult &r : results) {
        if (!r.predicted)
            continue;
        const double e = std::abs(*r.predicted - r.row->measured) / r.row->measured;
        if (r.row->kind == Observation::Kind::Throughput) {
            errors["throughput"].push_back(e);
            continue;
        }
        errors[r.row->benchmark].push_back(e);
        errors["all"].push_back(e);
    }
    std::map<std::string, ErrorStats> out;
    for (auto &[name, list] : errors) {
        std::sort(list.begin(), list.end());
        // Named capture: clang before 16 cannot capture a structured binding.
        auto quantile = [&values = list](double q) {
            const double pos = q * double(values.size() - 1);
            const std::size_t lo = std::size_t(std::floor(pos));
            const std::size_t hi = std::min(values.size() - 1, lo + 1);
            return values[lo] + (values[hi] - values[lo]) * (pos - double(lo));
        };
        out[name] = {int(list.size()), quantile(0.5), quantile(0.9)};
    }
    return out;
}

CrossValidation crossValidate(const ObservationSet &set)
{
    CrossValidation cv;
    auto heldOut = [&](const std::function<bool(const Observation &)> &test) {
        std::vector<const Observation *> train;
        std::vector<RowResult> results;
        for (const Observation &o : set.rows) {
            if (!test(o))
                train.push_back(&o);
        }
        const Calibration c = fitCalibration(train);
        for (const Observation &o : set.rows) {
            if (test(o))
                results.push_back({&o, predictObservation(o, c)});
        }
        return results;
    };
    std::vector<RowResult> folds;
    constexpr std::size_t kFolds = 5;
    for (std::size_t f = 0; f < kFolds; ++f) {
        auto part
            = heldOut([&](const Observation &o) { return stableHash(o.group) % kFolds == f; });
        folds.insert(folds.end(), part.begin(), part.end());
    }
    cv.bySystemFolds = summarize(folds);
    std::set<std::string> rounds;
    for (const Observation &o : set.rows) {
        if (o.kind == Observation::Kind::Minutes)
            rounds.insert(o.round);
    }
    std::vector<RowResult> byRound;
    for (const std::string &round : rounds) {
        auto part = heldOut([&](const Observation &o) {
            return o.kind == Observation::Kind::Minutes && o.round == round;
        });
        byRound.insert(byRound.end(), part.begin(), part.end());
    }
    cv.byRound = summarize(byRound);
    return cv;
}

} // namespace clab::perf
