#include "perf/calibration.h"

#include "catalog/catalog.h"
#include "util/embedded.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "util/limits.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace clab::perf {

namespace {

using Map = std::map<std::string, double, std::less<>>;

// `calibrate` keeps every value within e^6 of its prior of 0.4 or 1 (fit.cpp), so between 0.001
// and 403. Far outside that a file is no calibration, and toJson's five decimals would write
// 1e-6 as 0 and 1e307 (times 1e5, infinite) as null: files it could not read back.
constexpr limits::Range kFactor{1e-4, 1e4, false, "a calibration value"};

Map readMap(ObjectReader &r, const char *key)
{
    Map out;
    const Json *o = r.optionalObject(key);
    if (!o)
        return out;
    for (auto it = o->begin(); it != o->end(); ++it) {
        const std::string place = "at " + childPointer(r.pointer(key), it.key());
        if (!it.value().is_number() || !(it.value().get<double>() > 0))
            throw InputError(r.file(), place, "expected a number greater than zero");
        if (const std::string p = limits::rangeProblem(it.value().get<double>(), kFactor);
            !p.empty())
            throw InputError(r.file(), place, p);
        out.emplace(it.key(), it.value().get<double>());
    }
    return out;
}

double lookup(const Map &m, std::string_view key, double fallback)
{
    const auto it = m.find(key);
    return it == m.end() ? fallback : it->second;
}

bool isRound(std::string_view s)
{
    return !s.empty() && std::isdigit(static_cast<unsigned char>(s.front()));
}

} // namespace

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
    c.benchEfficiency = readMap(r, "benchEfficiency");
    c.benchOverheadMs = readMap(r, "benchOverheadMs");
    c.archFactor = readMap(r, "archFactor");
    c.benchArchFactor = readMap(r, "benchArchFactor");
    c.gpuFactor = readMap(r, "gpuFactor");
    c.benchRoundFactor = readMap(r, "benchRoundFactor");
    c.roundFactor = readMap(r, "roundFactor");
    c.linkFactor = readMap(r, "linkFactor");
    c.overlap = r.number("overlap", 0.7);
    if (c.overlap < 0 || c.overlap > 1)
        r.fail("overlap", "expected a fraction between 0 and 1");
    c.inputs = r.strings("inputs");
    c.rows = r.integer("rows", 0, 0);
    c.fittedAt = r.string("fittedAt", "");
    r.string("about", "");
    r.optionalObject("crossValidation"); // written for people; not read back
    r.optionalObject("inSample");
    r.finish();
    return c;
}

std::string Calibration::toJson() const
{
    OrderedJson j;
    j["about"] = "Efficiency factors of the ComposeLab performance model, fitted by "
                 "`composelab calibrate` on the files in `inputs`. Factors belong to a benchmark, "
                 "a GPU architecture, an intra-node link kind or a software year (MLPerf round).";
    j["fittedAt"] = fittedAt;
    j["rows"] = rows;
    j["inputs"] = inputs;
    j["overlap"] = overlap;
    auto put = [&](const char *key, const Map &m) {
        OrderedJson o = OrderedJson::object();
        for (const auto &[k, v] : m)
            o[k] = std::round(v * 1e5) / 1e5;
        j[key] = std::move(o);
    };
    put("benchEfficiency", benchEfficiency);
    put("benchOverheadMs", benchOverheadMs);
    put("archFactor", archFactor);
    put("benchArchFactor", benchArchFactor);
    put("gpuFactor", gpuFactor);
    put("benchRoundFactor", benchRoundFactor);
    put("roundFactor", roundFactor);
    put("linkFactor", linkFactor);
    return j.dump(2) + "\n";
}

double Calibration::efficiency(std::string_view bench) const
{
    // Uncalibrated benchmarks: a typical share of peak for training (40 %).
    return lookup(benchEfficiency, bench, 0.4);
}

double Calibration::overheadS(std::string_view bench) const
{
    return lookup(benchOverheadMs, bench, 0) / 1000.0;
}

double Calibration::arch(std::string_view a) const
{
    return lookup(archFactor, a, 1);
}

double Calibration::benchArch(std::string_view bench, std::string_view arch) const
{
    std::string key(bench);
    key += '/';
    key += arch;
    return lookup(benchArchFactor, key, 1);
}

double Calibration::link(std::string_view l) const
{
    return lookup(linkFactor, l, 1);
}

namespace {

// A factor keyed by `prefix` + round: the round itself, else the newest calibrated round at or
// before it (software only gets better), else, for no round at all, the newest; else 1.
double roundLookup(const Map &m, const std::string &prefix, std::string_view r)
{
    if (const auto it = m.find(prefix + std::string(r)); it != m.end())
        return it->second;
    if (!r.empty() && !isRound(r))
        return 1;
    const double want = r.empty() ? 1e9 : std::atof(std::string(r).c_str());
    double best = -1;
    double factor = 1;
    for (const auto &[k, v] : m) {
        if (k.compare(0, prefix.size(), prefix) != 0)
            continue;
        const std::string round = k.substr(prefix.size());
        if (!isRound(round))
            continue;
        const double x = std::atof(round.c_str());
        if (x <= want && x > best) {
            best = x;
            factor = v;
        }
    }
    return factor;
}

} // namespace

double Calibration::round(std::string_view r) const
{
    return roundLookup(roundFactor, "", r);
}

double Calibration::benchRound(std::string_view bench, std::string_view r) const
{
    return roundLookup(benchRoundFactor, std::string(bench) + "/", r);
}

std::string gpuKey(const catalog::Gpu &gpu)
{
    return gpu.arch + " " + gpu.formFactor;
}

double Calibration::gpu(const catalog::Gpu &g) const
{
    return lookup(gpuFactor, gpuKey(g), 1);
}

} // namespace clab::perf
