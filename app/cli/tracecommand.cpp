#include "cli/tracecommand.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "schedule/generate.h"
#include "schedule/resources.h"
#include "schedule/stretch.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <CLI/CLI.hpp>

#include <numeric>
#include <ostream>

namespace clab::cli {

int traceCommand(const TraceOptions &o, std::ostream &out, std::ostream &err)
{
    if (o.design.empty() == (o.gpus == 0)) {
        err << "composelab trace: give the GPUs as --design DESIGN or --gpus N (one of them)\n";
        return 2;
    }
    for (const std::string &b : o.benchmarks) {
        if (!schedule::Stretcher::workloadOf(b)) {
            err << "composelab trace: --benchmarks: unknown benchmark \"" << b
                << "\" (known: " << schedule::knownBenchmarks() << ")\n";
            return 2;
        }
    }
    schedule::TraceSpec spec;
    spec.cluster = o.cluster;
    spec.jobs = o.jobs;
    spec.load = o.load;
    spec.diurnal = o.diurnal;
    spec.seed = o.seed;
    spec.benchmarks = o.benchmarks;
    spec.totalGpus = o.gpus;
    try {
        if (!o.design.empty()) {
            const design::Design d = design::loadDesign(o.design);
            spec.totalGpus
                = schedule::resourcesOf(d, catalog::Catalog::builtin(), o.design).totalGpus();
        }
        spec.maxGpus = o.maxGpus > 0 ? std::min(o.maxGpus, spec.totalGpus) : spec.totalGpus;
        const std::vector<schedule::Job> jobs = schedule::generateTrace(spec);
        writeFileAtomically(o.out, schedule::traceCsv(jobs));
        const double work
            = std::accumulate(jobs.begin(), jobs.end(), 0.0, [](double a, const schedule::Job &j) {
                  return a + j.gpus * j.durationS;
              });
        out << "Wrote " << jobs.size() << " jobs to " << o.out << ": Helios " << o.cluster
            << " sizes (1 to " << spec.maxGpus << " GPUs) and durations, arrivals offering "
            << o.load * 100 << " % of " << spec.totalGpus << " GPUs"
            << (o.diurnal ? " with Venus' day" : "") << " over "
            << (jobs.empty() ? 0.0 : jobs.back().submitS / 3600) << " h; " << work / 3600
            << " GPU-hours, seed " << o.seed << "\n";
        return 0;
    } catch (const InputError &e) {
        err << "composelab trace: " << e.what() << "\n";
        return 1;
    } catch (const std::exception &e) {
        err << "composelab trace: " << e.what() << "\n";
        return 1;
    }
}

void addTraceSubcommand(CLI::App &app, TraceOptions &o)
{
    CLI::App *cmd = app.add_subcommand(
        "trace", "Write a synthetic job trace from the Helios GPU clusters' published job sizes, "
                 "durations and arrivals (for composelab schedule)");
    cmd->add_option("--out", o.out, "Trace CSV to write (submit_s,gpus,duration_s[,benchmark])")
        ->required();
    cmd->add_option("--design", o.design, "Design whose GPUs the load is offered to");
    cmd->add_option("--gpus", o.gpus, "GPUs the load is offered to, without a design")
        ->check(CLI::Range(1, 1'000'000));
    cmd->add_option("--jobs", o.jobs, "Jobs to draw (default 1000)")
        ->check(CLI::Range(1, 10'000'000));
    cmd->add_option("--cluster", o.cluster,
                    "Whose distributions: helios (the four pooled; default), venus, earth, "
                    "saturn or uranus")
        ->check(CLI::IsMember(schedule::traceClusters()));
    cmd->add_option("--load", o.load,
                    "Offered load: GPU-seconds asked for per second over the GPUs (default 0.8)")
        ->check(CLI::Range(0.01, 100.0));
    cmd->add_option("--max-gpus", o.maxGpus, "Largest job (default: all the GPUs)")
        ->check(CLI::Range(1, 1'000'000));
    cmd->add_flag("--diurnal", o.diurnal,
                  "Arrivals follow Helios Venus' submissions per hour of day (else a steady rate)");
    cmd->add_option("--seed", o.seed, "Random seed (default 1; the same seed, the same trace)");
    cmd->add_option("--benchmarks", o.benchmarks,
                    "Benchmarks the jobs train, drawn uniformly (so schedule stretches them); "
                    "comma-separated")
        ->delimiter(',');
}

} // namespace clab::cli
