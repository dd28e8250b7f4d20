#include "llm/published.h"

#include "catalog/catalog.h"
#include "util/embedded.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>

namespace clab::llm {

namespace {

long long count(ObjectReader &r, const char *key)
{
    return r.integer(key, 1);
}

Hardware hardwareFor(const PublishedRun &run)
{
    return hardwareOf(catalog::Catalog::builtin(), kPublishedGpu, run.gpus, 8, 200);
}

PublishedCheck checkOn(const PublishedRun &run, const Hardware &hw)
{
    PublishedCheck c;
    c.run = &run;
    const auto figure
        = [&](const StepTime &t) { return run.throughput ? t.tflopsPerGpu : t.total; };
    if (!run.tuned) {
        checkPlan(run.shape, hw, run.plan);
        c.plan = run.plan;
        c.fits = memoryPerGpu(run.shape, hw, run.plan).fits();
        c.model = figure(stepTime(run.shape, hw, run.plan));
        return c;
    }
    std::optional<StepTime> best;
    for (const long long micro : {1, 2, 4, 8}) {
        for (long long v = 1; v <= (run.plan.pipeline > 1 ? 8 : 1); ++v) {
            Plan q = run.plan;
            q.micro = micro;
            q.interleave = v;
            try {
                checkPlan(run.shape, hw, q);
            } catch (const PlanError &) {
                continue;
            }
            if (!memoryPerGpu(run.shape, hw, q).fits())
                continue;
            const StepTime t = stepTime(run.shape, hw, q);
            if (!best || t.total < best->total) {
                best = t;
                c.plan = q;
            }
        }
    }
    c.fits = best.has_value();
    c.model = best ? figure(*best) : 0;
    return c;
}

// A run the model cannot price is bad input: a plan that breaks a rule, or none that fits.
void mustPrice(const PublishedRun &run, const std::string &path, std::size_t row)
{
    PublishedCheck c;
    try {
        // A tuned run's sizes must keep the rules at micro-batch 1 without interleaving at least.
        const Hardware hw = hardwareFor(run);
        Plan base = run.plan;
        if (run.tuned)
            base.micro = base.interleave = 1;
        checkPlan(run.shape, hw, base);
        c = checkOn(run, hw);
    } catch (const PlanError &e) {
        throw InputError(path, childPointer("/rows", row),
                         std::string("the plan breaks a rule: ") + e.what());
    }
    if (!c.fits)
        throw InputError(path, childPointer("/rows", row),
                         "no plan of the published sizes fits in the memory of an "
                             + std::string(kPublishedGpu));
}

} // namespace

std::vector<PublishedRun> readPublishedRuns(const std::string &path)
{
    const Json root = parseJson(readTextFile(path), path);
    ObjectReader top(root, "", path);
    top.string("about");
    top.string("source");
    const Json &rows = top.array("rows");
    top.finish();
    const std::string table = std::filesystem::path(path).stem().string();
    std::vector<PublishedRun> runs;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ObjectReader r(rows[i], childPointer("/rows", i), path);
        PublishedRun run;
        run.table = table;
        run.gpus = count(r, "gpus");
        run.plan.tensor = count(r, "tensor");
        run.plan.pipeline = count(r, "pipeline");
        if (r.has("tflops")) {
            // Narayanan et al. 2021, Table 1: full recomputation, no sequence parallelism.
            run.shape = parseShape("llm:layers=" + std::to_string(count(r, "layers"))
                                   + ",hidden=" + std::to_string(count(r, "hidden"))
                                   + ",heads=" + std::to_string(count(r, "heads")) + ",seq=2048");
            run.plan.globalBatch = count(r, "batch");
            run.plan.recompute = Recompute::Full;
            run.tuned = true;
            run.throughput = true;
            run.published = r.positive("tflops");
            r.finish();
            mustPrice(run, path, i);
            runs.push_back(run);
            continue;
        }
        // Korthikanti et al. 2022, Table 5: sequence parallelism with selective recomputation,
        // and full recomputation without it, on the same configuration.
        run.shape = parseShape(r.string("preset"));
        run.plan.interleave = count(r, "interleave");
        run.plan.micro = count(r, "micro");
        run.plan.globalBatch = count(r, "globalBatch");
        run.plan.recompute = Recompute::Selective;
        run.plan.sequenceParallel = true;
        run.published = r.positive("iterationS");
        PublishedRun full = run;
        full.plan.recompute = Recompute::Full;
        full.plan.sequenceParallel = false;
        full.published = r.positive("fullRecomputeS");
        r.positive("mfu");
        r.positive("hfu");
        r.finish();
        mustPrice(run, path, i);
        mustPrice(full, path, i);
        runs.push_back(run);
        runs.push_back(full);
    }
    return runs;
}

PublishedCheck checkPublished(const PublishedRun &run, double efficiency)
{
    Hardware hw = hardwareFor(run);
    if (efficiency > 0)
        hw.efficiency = efficiency;
    return checkOn(run, hw);
}

ErrorSummary summarize(const std::vector<PublishedCheck> &checks)
{
    ErrorSummary s;
    for (const PublishedCheck &c : checks) {
        s.mean += std::abs(c.error());
        s.worst = std::max(s.worst, std::abs(c.error()));
        ++s.runs;
    }
    if (s.runs > 0)
        s.mean /= s.runs;
    return s;
}

double fitEfficiency(const std::vector<PublishedRun> &runs)
{
    // Each table is a publication, one version of Megatron-LM, and they disagree (LLM.md,
    // "Validation"): the fit favours none, whatever its number of rows, and minimises the largest
    // of the tables' mean absolute errors.
    // Each run's hardware is built once; only its efficiency changes along the search.
    std::map<std::string, std::vector<std::pair<const PublishedRun *, Hardware>>> tables;
    for (const PublishedRun &r : runs)
        tables[r.table].emplace_back(&r, hardwareFor(r));
    double best = 0, bestError = 0;
    for (int milli = 500; milli <= 1000; ++milli) {
        const double e = milli / 1000.0;
        double error = 0;
        for (auto &[name, rows] : tables) {
            std::vector<PublishedCheck> checks;
            for (auto &[r, hw] : rows) {
                hw.efficiency = e;
                checks.push_back(checkOn(*r, hw));
            }
            error = std::max(error, summarize(checks).mean);
        }
        if (best == 0 || error < bestError) {
            best = e;
            bestError = error;
        }
    }
    return best;
}

std::vector<std::vector<PublishedRun>> readPublishedTables(const std::vector<std::string> &paths)
{
    std::vector<std::vector<PublishedRun>> tables;
    std::map<std::string, std::string> fileOf;
    for (const std::string &path : paths) {
        const std::string name = std::filesystem::path(path).stem().string();
        if (const auto [it, fresh] = fileOf.emplace(name, path); !fresh) {
            std::error_code ec;
            const bool same = std::filesystem::equivalent(path, it->second, ec);
            throw InputError(path, "",
                             same ? "given twice (also as " + it->second + ")"
                                  : "has the same name \"" + name + "\" as " + it->second
                                        + ": each publication's table needs its own file name");
        }
        tables.push_back(readPublishedRuns(path));
    }
    return tables;
}

double fittedEfficiency()
{
    static const double e = [] {
        for (const EmbeddedFile &f : embeddedFiles()) {
            if (f.path == "datasets/llm_calibration.json") {
                const Json j = parseJson(f.text, std::string(f.path));
                const double fitted = j.at("gemmEfficiency").get<double>();
                if (fitted > 0 && fitted <= 1)
                    return fitted;
            }
        }
        throw std::logic_error("datasets/llm_calibration.json is not built in, or its "
                               "gemmEfficiency is not in (0, 1]");
    }();
    return e;
}

} // namespace clab::llm
