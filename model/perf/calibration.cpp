#include "perf/calibration.h"
#include "util/stats.h"

#include "util/embedded.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "util/limits.h"
#include "workload/workload.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace clab::perf {

namespace {

using Map = std::map<std::string, double, std::less<>>;

// `calibrate` keeps every factor within e^6 of its prior (fit.cpp), so between 0.001 and 403.
// Far outside that a file is no calibration, and the writer's five decimals would write 1e-6 as
// 0 and 1e307 (times 1e5, infinite) as null: files it could not read back.
constexpr limits::Range kFactor{1e-4, 1e4, false, "a calibration value"};
// Log-residual quantiles: a model off by more than e^5 (150x) is no model.
constexpr limits::Range kLogError{-5, 5, false, "a log error quantile"};
constexpr limits::Range kJitter{0, 10, false, "a host jitter in per-pass overheads"};

constexpr int kFormat = 2;

double factor(ObjectReader &r, const char *key, double fallback)
{
    if (!r.has(key))
        return fallback;
    const double v = r.number(key);
    if (!(v > 0))
        r.fail(key, "expected a number greater than zero");
    if (const std::string p = limits::rangeProblem(v, kFactor); !p.empty())
        r.fail(key, p);
    return v;
}

Map readMap(ObjectReader &r, const char *key)
{
    Map out;
    const Json *o = r.optionalObject(key);
    if (!o)
        return out;
    if (!o->is_object())
        r.fail(key, "expected an object of numbers");
    ObjectReader m(*o, r.pointer(key), r.file());
    for (auto it = o->begin(); it != o->end(); ++it)
        out.emplace(it.key(), factor(m, it.key().c_str(), 1));
    m.finish();
    return out;
}

double roundNumber(std::string_view key)
{
    return std::atof(std::string(key.substr(7)).c_str());
}

OrderedJson rounded(double v)
{
    return std::round(v * 1e5) / 1e5;
}

} // namespace

std::string softwareKey(std::string_view roundOrStack)
{
    if (!roundOrStack.empty() && std::isdigit(static_cast<unsigned char>(roundOrStack.front())))
        return "mlperf-" + std::string(roundOrStack);
    if (roundOrStack == "dle")
        return "ngc-dle";
    return std::string(roundOrStack);
}

const Calibration &Calibration::builtin()
{
    static const Calibration c = [] {
        for (const EmbeddedFile &f : embeddedFiles()) {
            if (f.path == "datasets/calibration.json")
                return fromJson(f.text, std::string(f.path));
        }
        return Calibration{};
    }();
    return c;
}

Calibration Calibration::fromJson(std::string_view text, const std::string &fileName)
{
    const Json json = parseJson(text, fileName);
    ObjectReader r(json, "", fileName);
    Calibration c;
    if (r.has("format") && r.integer("format", 1) != kFormat)
        r.fail("format", "expected format " + std::to_string(kFormat)
                             + " (a calibration of another model version: re-run calibrate)");
    if (const Json *bench = r.optionalObject("bench")) {
        ObjectReader b(*bench, r.pointer("bench"), fileName);
        for (auto it = bench->begin(); it != bench->end(); ++it) {
            if (!it.value().is_object())
                b.fail(it.key().c_str(), "expected an object of a benchmark's parameters");
            ObjectReader p = b.object(it.key().c_str());
            BenchParams params;
            params.gemmEfficiency = factor(p, "gemmEfficiency", params.gemmEfficiency);
            if (params.gemmEfficiency > 1)
                p.fail("gemmEfficiency", "expected at most 1: no benchmark beats the GPU's "
                                         "measured large-GEMM rate");
            params.memoryScale = factor(p, "memoryScale", params.memoryScale);
            params.overheadMs = factor(p, "overheadMs", params.overheadMs);
            params.evalOverheadS = factor(p, "evalOverheadS", params.evalOverheadS);
            params.rows = p.integer("rows", 0, 0);
            p.finish();
            c.bench.emplace(it.key(), params);
        }
        b.finish();
    }
    c.overlap = r.number("overlap", 0.7);
    if (c.overlap < 0 || c.overlap > 1)
        r.fail("overlap", "expected a fraction between 0 and 1");
    c.hostJitter = r.number("hostJitter", 0);
    if (const std::string p = limits::rangeProblem(c.hostJitter, kJitter); !p.empty())
        r.fail("hostJitter", p);
    c.software = readMap(r, "software");
    c.benchSoftware = readMap(r, "benchSoftware");
    c.defaultSoftware = r.string("defaultSoftware", "");
    if (!c.defaultSoftware.empty() && !c.software.count(c.defaultSoftware))
        r.fail("defaultSoftware", "expected one of the stacks of \"software\"");
    if (const Json *intervals = r.optionalObject("intervals")) {
        ObjectReader all(*intervals, r.pointer("intervals"), fileName);
        for (auto it = intervals->begin(); it != intervals->end(); ++it) {
            if (!it.value().is_object())
                all.fail(it.key().c_str(), "expected {\"p10\": .., \"p90\": .., \"rows\": ..}");
            ObjectReader i = all.object(it.key().c_str());
            Interval v;
            v.p10 = i.number("p10");
            v.p90 = i.number("p90");
            for (const char *k : {"p10", "p90"})
                if (const std::string p
                    = limits::rangeProblem(std::string(k) == "p10" ? v.p10 : v.p90, kLogError);
                    !p.empty())
                    i.fail(k, p);
            if (v.p10 > v.p90)
                i.fail("p10", "expected p10 at most p90");
            v.rows = i.integer("rows", 0, 0);
            i.finish();
            c.intervals.emplace(it.key(), v);
        }
        all.finish();
    }
    if (r.has("architectures")) {
        c.architectures.emplace();
        for (const std::string &a : r.strings("architectures"))
            c.architectures->insert(a);
    }
    c.inputs = r.strings("inputs");
    c.rows = r.integer("rows", 0, 0);
    c.fittedAt = r.string("fittedAt", "");
    c.report = r.string("report", "");
    r.string("about", "");
    r.finish();
    return c;
}

std::string Calibration::toJson() const
{
    OrderedJson j;
    j["about"]
        = "Fitted factors of the ComposeLab performance model (model/perf/MODEL.md), written "
          "by `composelab calibrate` from the files in `inputs`. Factors belong to a "
          "benchmark or a software stack, never to a GPU, a system or a submitter.";
    j["format"] = kFormat;
    j["fittedAt"] = fittedAt;
    j["rows"] = rows;
    j["inputs"] = inputs;
    if (architectures)
        j["architectures"] = std::vector<std::string>(architectures->begin(), architectures->end());
    j["overlap"] = rounded(overlap);
    j["hostJitter"] = rounded(hostJitter);
    OrderedJson b = OrderedJson::object();
    for (const auto &[id, p] : bench) {
        OrderedJson entry = {{"gemmEfficiency", rounded(p.gemmEfficiency)},
                             {"memoryScale", rounded(p.memoryScale)},
                             {"overheadMs", rounded(p.overheadMs)}};
        // A benchmark whose evaluation cost is measured (workloads.json), or whose evaluation
        // is untimed, fits no eval overhead.
        const workload::Workload *w = workload::Library::builtin().find(id);
        if (!w || (!w->measuredEval && w->evalTimed))
            entry["evalOverheadS"] = rounded(p.evalOverheadS);
        entry["rows"] = p.rows;
        b[id] = std::move(entry);
    }
    j["bench"] = std::move(b);
    auto put = [&](const char *key, const Map &m) {
        OrderedJson o = OrderedJson::object();
        for (const auto &[k, v] : m)
            o[k] = rounded(v);
        j[key] = std::move(o);
    };
    put("software", software);
    put("benchSoftware", benchSoftware);
    j["defaultSoftware"] = defaultSoftware;
    OrderedJson in = OrderedJson::object();
    for (const auto &[k, v] : intervals)
        in[k] = {{"p10", rounded(v.p10)}, {"p90", rounded(v.p90)}, {"rows", v.rows}};
    j["intervals"] = std::move(in);
    j["report"] = report;
    return j.dump(2) + "\n";
}

const BenchParams *Calibration::params(std::string_view id) const
{
    const auto it = bench.find(id);
    return it == bench.end() ? nullptr : &it->second;
}

BenchParams Calibration::typical() const
{
    if (bench.empty())
        return {};
    auto median = [&](double BenchParams::*field) {
        std::vector<double> v;
        for (const auto &[id, p] : bench)
            v.push_back(p.*field);
        std::sort(v.begin(), v.end());
        return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    return {median(&BenchParams::gemmEfficiency), median(&BenchParams::memoryScale),
            median(&BenchParams::overheadMs), median(&BenchParams::evalOverheadS), 0};
}

bool Calibration::knowsSoftware(std::string_view stack) const
{
    return software.find(stack) != software.end();
}

std::pair<double, double> Calibration::frameworkSpread(std::string_view id) const
{
    std::vector<double> own, stacks;
    for (const auto &[key, v] : software) {
        if (workload::isMlperfRound(key))
            continue;
        stacks.push_back(v);
        if (const auto it = benchSoftware.find(std::string(id) + "/" + key);
            it != benchSoftware.end())
            own.push_back(v * it->second);
    }
    std::vector<double> &f = own.size() >= 3 ? own : stacks;
    if (f.empty())
        return {1, 1};
    std::sort(f.begin(), f.end());
    return {quantileOfSorted(f, 0.1), quantileOfSorted(f, 0.9)};
}

double Calibration::softwareFactor(std::string_view id, std::string_view stack,
                                   std::string *note) const
{
    auto benchFactor = [&](const std::string &s) {
        const auto it = benchSoftware.find(std::string(id) + "/" + s);
        return it == benchSoftware.end() ? 1.0 : it->second;
    };
    if (const auto it = software.find(stack); it != software.end())
        return it->second * benchFactor(it->first);
    if (!workload::isMlperfRound(stack)) {
        if (note && !stack.empty())
            *note = "software \"" + std::string(stack) + "\" is not calibrated: no software factor";
        return 1;
    }
    // An MLPerf round the fit has not seen: the software of the calibrated rounds around it.
    const double want = roundNumber(stack);
    const std::string *before = nullptr, *after = nullptr;
    for (const auto &[key, v] : software) {
        if (!workload::isMlperfRound(key))
            continue;
        const double x = roundNumber(key);
        if (x <= want && (!before || x > roundNumber(*before)))
            before = &key;
        if (x >= want && (!after || x < roundNumber(*after)))
            after = &key;
    }
    double log = 0;
    int n = 0;
    std::string from;
    for (const std::string *k : {before, after}) {
        if (!k)
            continue;
        log += std::log(software.at(*k) * benchFactor(*k));
        ++n;
        from += (from.empty() ? "" : " and ") + *k;
    }
    if (note)
        *note = n ? "software " + std::string(stack) + " is not calibrated: taken from " + from
                  : "software " + std::string(stack) + " is not calibrated: no software factor";
    return n ? std::exp(log / n) : 1.0;
}

Interval Calibration::interval(std::string_view id, std::string_view arch) const
{
    // A cell needs this many held-out rows before its own quantiles are trusted (fit.cpp's
    // intervalsOf writes no smaller cells).
    constexpr int kMinRows = 8;
    for (const std::string &key : {std::string(id) + "/" + std::string(arch), std::string(id),
                                   std::string(arch), std::string()}) {
        const auto it = intervals.find(key);
        if (it != intervals.end() && it->second.rows >= kMinRows)
            return it->second;
    }
    // No held-out rows at all (a calibration written by hand): say so by a wide interval.
    return {-0.4, 0.4, 0};
}

} // namespace clab::perf
