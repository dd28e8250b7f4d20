#include "cli/schedulecommand.h"

#include "cli/offscreenapp.h"

#include "catalog/catalog.h"
#include "charts/schedulecharts.h"
#include "design/design.h"
#include "schedule/simulate.h"
#include "schedule/stretch.h"
#include "store/schedules.h"
#include "store/sha256.h"
#include "store/store.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "views/charts/chartexport.h"

#include <CLI/CLI.hpp>

#include <QApplication>

#include <cstdio>
#include <ostream>

namespace clab::cli {

namespace {

// At most this many (time, busy GPUs) points in --json: the series thinned evenly.
constexpr std::size_t kMaxSeriesPoints = 500;

OrderedJson toJson(const schedule::Outcome &o)
{
    OrderedJson j;
    j["gpus"] = o.gpus;
    j["jobs"] = o.jobs;
    j["utilisation"] = o.utilisation;
    j["mean_wait_s"] = o.meanWaitS;
    j["p95_wait_s"] = o.p95WaitS;
    j["mean_jct_s"] = o.meanJctS;
    j["never_fit"] = o.neverFit;
    j["fragmentation"] = o.fragmentation;
    j["recompositions"] = o.recompositions;
    j["stretched_jobs"] = o.stretched;
    j["mean_stretch"] = o.meanStretch;
    j["min_stretch"] = o.minStretch;
    j["max_stretch"] = o.maxStretch;
    j["span_s"] = o.spanS;
    OrderedJson series = OrderedJson::array();
    const std::size_t step = std::max<std::size_t>(1, o.busy.size() / kMaxSeriesPoints);
    for (std::size_t i = 0; i < o.busy.size(); i += step)
        series.push_back({o.busy[i].first, o.busy[i].second});
    j["asked_gpus_over_time"] = std::move(series);
    return j;
}

void printOutcome(const char *name, const schedule::Outcome &o, std::ostream &out)
{
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "  %-7s %8.1f %%  %12.0f  %12.0f  %12.0f  %9d  %8.1f %%  %10d  %7.3f\n", name,
                  100 * o.utilisation, o.meanWaitS, o.p95WaitS, o.meanJctS, o.neverFit,
                  100 * o.fragmentation, o.recompositions, o.meanStretch);
    out << buf;
}

// Draws the chart to `path` (.png, .pdf or .svg); false with the reason in `error`.
bool drawChart(const charts::ChartData &chart, const std::string &path, std::string &error)
{
    std::unique_ptr<QApplication> app;
    if (!ensureWidgetApplication(app, error))
        return false;
    QString problem;
    if (!views::exportChartData(chart, {900, 0, 1.0}, QString::fromStdString(path), 150,
                                &problem)) {
        error = problem.toStdString();
        return false;
    }
    return true;
}

std::string twoPlaces(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

bool chartPathOk(const std::string &path)
{
    for (const char *suffix : {".png", ".pdf", ".svg"}) {
        if (path.size() > 4 && path.compare(path.size() - 4, 4, suffix) == 0)
            return true;
    }
    return false;
}

} // namespace

int scheduleCommand(const ScheduleOptions &o, std::ostream &out, std::ostream &err)
{
    for (const std::string &chart : {o.chart, o.waitChart}) {
        if (!chart.empty() && !chartPathOk(chart)) {
            err << "composelab schedule: a chart file must end in .png, .pdf or .svg: " << chart
                << "\n";
            return 2;
        }
    }
    try {
        const design::Design d = design::loadDesign(o.design);
        const schedule::Resources r
            = schedule::resourcesOf(d, catalog::Catalog::builtin(), o.design);
        std::vector<schedule::Job> jobs;
        std::string leftOut;
        std::string traceSha; // the trace's identity in the store; its text is not kept
        {
            const std::string traceText = readTextFile(o.trace);
            if (!o.db.empty())
                traceSha = store::sha256Hex(traceText);
            if (o.format == "pai") {
                auto pai = schedule::readPaiTaskTable(traceText, o.trace, r.totalGpus());
                jobs = std::move(pai.jobs);
                leftOut = "left out of the trace: " + std::to_string(pai.tooLarge)
                          + " jobs larger than the design's " + std::to_string(r.totalGpus())
                          + " GPUs, " + std::to_string(pai.notFinished)
                          + " that did not finish (a task not Terminated), "
                          + std::to_string(pai.withoutGpus) + " without GPUs";
            } else {
                jobs = schedule::readTrace(traceText, o.trace, r.totalGpus());
            }
        }
        if (!o.benchmark.empty() && !schedule::Stretcher::workloadOf(o.benchmark)) {
            err << "composelab schedule: --benchmark: unknown benchmark \"" << o.benchmark
                << "\" (known: " << schedule::knownBenchmarks() << ")\n";
            return 2;
        }
        schedule::Options opt;
        opt.policy = o.policy == "backfill" ? schedule::Policy::Backfill : schedule::Policy::Fifo;
        opt.recomposeS = o.recomposeS;
        const auto [fixed, pool]
            = schedule::runBothWays(jobs, d, r, opt, !o.noStretch, o.benchmark, o.trace);
        const std::string title = " on " + d.name + ", " + schedule::policyName(opt.policy);
        std::string error;
        if (!o.chart.empty()
            && !drawChart(charts::scheduleBusyChart(fixed, pool, "GPU utilisation" + title),
                          o.chart, error)) {
            err << "composelab schedule: " << o.chart << ": " << error << "\n";
            return 1;
        }
        if (!o.waitChart.empty()
            && !drawChart(charts::waitCdfChart(fixed, pool, "Queueing delay" + title), o.waitChart,
                          error)) {
            err << "composelab schedule: " << o.waitChart << ": " << error << "\n";
            return 1;
        }
        for (const std::string &chart : {o.chart, o.waitChart}) {
            if (!chart.empty())
                err << "Wrote " << chart << "\n";
        }
        if (!o.db.empty()) {
            try {
                store::Store db(o.db);
                store::Transaction t(db);
                const std::optional<std::int64_t> known = db.findSource(traceSha);
                const std::int64_t source
                    = known ? *known : db.addSource({o.trace, traceSha, "job_trace_" + o.format});
                for (const auto &[way, outcome] : {std::pair{"static", &fixed}, {"pool", &pool}}) {
                    store::ScheduleRecord rec;
                    rec.design = d.name;
                    rec.designFile = o.design;
                    rec.way = way;
                    rec.policy = schedule::policyName(opt.policy);
                    rec.recomposeS = opt.recomposeS;
                    rec.stretch = !o.noStretch;
                    rec.benchmark = o.benchmark;
                    rec.jobs = outcome->jobs;
                    rec.gpus = outcome->gpus;
                    rec.utilisation = outcome->utilisation;
                    rec.meanWaitS = outcome->meanWaitS;
                    rec.p95WaitS = outcome->p95WaitS;
                    rec.meanJctS = outcome->meanJctS;
                    rec.neverFit = outcome->neverFit;
                    rec.fragmentation = outcome->fragmentation;
                    rec.recompositions = outcome->recompositions;
                    rec.meanStretch = outcome->meanStretch;
                    rec.details = toJson(*outcome).dump();
                    store::addSchedule(db, source, rec);
                }
                t.commit();
            } catch (const store::StoreError &e) {
                err << "composelab schedule: --db: " << e.what() << "\n";
                return 1;
            }
            err << "Stored both ways in " << o.db << "\n";
        }
        if (o.json) {
            OrderedJson j;
            j["trace"] = o.trace;
            j["design"] = o.design;
            j["policy"] = schedule::policyName(opt.policy);
            j["recompose_s"] = opt.recomposeS;
            j["stretch"] = !o.noStretch;
            j["benchmark"] = o.benchmark;
            j["format"] = o.format;
            if (!leftOut.empty())
                j["note"] = leftOut;
            j["static"] = toJson(fixed);
            j["pool"] = toJson(pool);
            out << j.dump(2) << "\n";
            return 0;
        }
        int servers = 0;
        for (int n : r.serverGpus())
            servers += n > 0;
        out << jobs.size() << " jobs of " << o.trace << " on " << d.name << ": " << r.totalGpus()
            << " GPUs (" << servers << " static servers with the GPUs composed to them now; the "
            << "pool composes any reachable GPU to a host in " << opt.recomposeS << " s), "
            << schedule::policyName(opt.policy) << "\n";
        if (!leftOut.empty())
            out << "  " << leftOut << "\n";
        out << "  way     utilisation  mean wait s   P95 wait s   mean JCT s  never fit  "
               "fragment.  recomposed  stretch\n";
        printOutcome("static", fixed, out);
        printOutcome("pool", pool, out);
        out << "  utilisation: GPU-seconds the jobs asked for and ran, over all the design's "
               "GPUs from the first submission to the last end; fragmentation: GPU-seconds left "
               "free while jobs waited, over the same.\n";
        if (o.noStretch)
            out << "  stretch: off (--no-stretch); jobs run for the trace's durations.\n";
        else
            out << "  stretch: run time over the trace's duration, from the performance model: "
                   "the job's GPUs where they ended up against dedicated local PCIe servers of "
                   "up to 8 GPUs (below 1 where the design's fabric is better); static "
                << twoPlaces(fixed.minStretch) << " to " << twoPlaces(fixed.maxStretch) << ", pool "
                << twoPlaces(pool.minStretch) << " to " << twoPlaces(pool.maxStretch) << "; "
                << fixed.stretched << " static and " << pool.stretched << " pool jobs changed"
                << (o.benchmark.empty() ? " (jobs naming no benchmark run as recorded; "
                                          "--benchmark gives them one)"
                                        : " (jobs naming no benchmark train " + o.benchmark + ")")
                << ".\n";
        return 0;
    } catch (const InputError &e) {
        err << "composelab schedule: " << e.what() << "\n";
        return 1;
    } catch (const std::exception &e) {
        err << "composelab schedule: " << e.what() << "\n";
        return 1;
    }
}

void addScheduleSubcommand(CLI::App &app, ScheduleOptions &o)
{
    CLI::App *cmd = app.add_subcommand(
        "schedule", "Run a job trace on a design as static servers and as a composable pool");
    cmd->add_option("trace", o.trace,
                    "Trace CSV: submit_s,gpus,duration_s (benchmark and user optional)")
        ->required();
    cmd->add_option("--design", o.design, "Design (.clab) whose hosts and pool run the trace")
        ->required();
    cmd->add_option("--format", o.format,
                    "csv (submit_s,gpus,duration_s; the default) or pai (Alibaba PAI's "
                    "cluster-trace-gpu-v2020 pai_task_table.csv)")
        ->check(CLI::IsMember({"csv", "pai"}));
    cmd->add_option("--policy", o.policy, "fifo (default) or backfill (EASY)")
        ->check(CLI::IsMember({"fifo", "backfill"}));
    cmd->add_option("--recompose", o.recomposeS,
                    "Seconds to compose GPUs to another host (default 30)")
        ->check(CLI::Range(0.0, 86400.0));
    cmd->add_option("--benchmark", o.benchmark,
                    "Benchmark for jobs whose trace names none, to stretch their run time by "
                    "where their GPUs end up (default: those run as recorded)");
    cmd->add_flag("--no-stretch", o.noStretch,
                  "Run every job for the trace's duration, wherever its GPUs are");
    cmd->add_option("--chart", o.chart,
                    "Also draw GPUs busy over time, both ways (.png, .pdf or .svg)");
    cmd->add_option("--wait-chart", o.waitChart,
                    "Also draw the share of jobs against their queueing delay, both ways");
    cmd->add_option("--db", o.db,
                    "Also keep both ways' outcome in this experiment store (created if absent), "
                    "under the trace as its source");
    cmd->add_flag("--json", o.json, "Machine-readable output");
}

} // namespace clab::cli
