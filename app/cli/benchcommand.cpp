// `composelab bench`: the project's micro-benchmarks. Each runs until it has at least five
// samples and a quarter of a second of work, and reports the median, which a busy machine
// disturbs far less than the mean.
#include "cli/commands.h"

#include "predictions.h"

#include "catalog/catalog.h"
#include "design/examples.h"
#include "cli/chartcommand.h"
#include "cli/editbench.h"
#include "cli/offscreenapp.h"
#include "cluster/report.h"
#include "fabric/analysis.h"
#include "fabric/analyzer.h"
#include "llm/plan.h"
#include "perf/fit.h"
#include "perf/study.h"
#include "schedule/bench.h"
#include "store/import.h"
#include "store/store.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "util/jsonreader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <ostream>
#include <vector>

namespace clab::cli {

namespace {

// What the GUI does after every edit of the canvas: apply the edit (here: move a device from one
// system to another and back, alternately) and re-run the model, i.e. the design rules and the
// fabric analysis, then the default predictions (ResNet-50, BERT-Large) of every system, reusing
// as the GUI does the tables and predictions of the systems the edit did not change.
std::function<void()> editRerun(design::Design start)
{
    auto design = std::make_shared<design::Design>(std::move(start));
    auto flip = std::make_shared<bool>(false);
    auto memo = std::make_shared<perf::PredictionMemo>();
    auto analyzer = std::make_shared<fabric::Analyzer>();
    return [design, flip, memo, analyzer] {
        design::Design &d = *design;
        if (d.systems.size() >= 2 && !d.systems[0].devices.empty()) {
            auto &from = d.systems[*flip ? 1 : 0].devices;
            auto &to = d.systems[*flip ? 0 : 1].devices;
            to.push_back(from.back());
            from.pop_back();
            *flip = !*flip;
        }
        const fabric::Analysis analysis = analyzer->analyze(d, catalog::Catalog::builtin());
        volatile auto n = defaultPredictions(d, analysis, kDefaultBenchmarks, memo.get()).size();
        (void)n;
    };
}

struct Benchmark
{
    const char *name;
    const char *goal; // what the issue asks for, shown beside the median
    std::function<std::function<void()>()> setup; // returns the timed body, or nothing to skip
    const char *skipReason = "../shared/reference is not here; set COMPOSELAB_SHARED";
    bool widgets = false; // draws: runs inside the bench's offscreen QApplication
};

// The shared reference folder beside the checkout (or $COMPOSELAB_SHARED), when it is there.
std::string referenceFile(const char *name)
{
    std::vector<std::filesystem::path> roots;
    if (const char *env = std::getenv("COMPOSELAB_SHARED"))
        roots.emplace_back(env);
    roots.emplace_back(COMPOSELAB_SOURCE_DIR "/../shared");
    roots.emplace_back("../shared");
    for (const auto &root : roots) {
        const auto path = root / "reference" / name;
        std::error_code ec;
        if (std::filesystem::exists(path, ec))
            return path.string();
    }
    return {};
}

// A file in a scratch folder of this process, removed at exit.
std::filesystem::path scratch(const std::string &name)
{
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path()
                 / ("composelab-bench-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(std::filesystem::temp_directory_path()
                                            / ("composelab-bench-" + std::to_string(::getpid())),
                                        ec);
        });
        return d;
    }();
    return dir / name;
}

// Imports a file into a new, empty store each time it runs.
std::function<void()> importInto(const std::string &file)
{
    return [file] {
        static int n = 0;
        const auto db = scratch("store" + std::to_string(n++) + ".sqlite");
        {
            store::Store s(db.string());
            store::importPaths(s, {file});
        }
        std::error_code ec;
        for (const char *suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(db.string() + suffix, ec);
    };
}

std::vector<Benchmark> benchmarks()
{
    std::vector<Benchmark> list = {
        {"analyze_seed", "<= 1 ms",
         [] {
             auto design = std::make_shared<design::Design>(design::seedTestbed());
             return std::function<void()>([design] {
                 volatile auto n
                     = fabric::analyze(*design, catalog::Catalog::builtin()).systems.size();
                 (void)n;
             });
         }},
        {"analyze_1000", "<= 20 ms",
         [] {
             auto design = std::make_shared<design::Design>(design::generatePool(1000));
             return std::function<void()>([design] {
                 volatile auto n
                     = fabric::analyze(*design, catalog::Catalog::builtin()).systems.size();
                 (void)n;
             });
         }},
        {"edit_rerun_seed", "<= 16 ms", [] { return editRerun(design::seedTestbed()); }},
        {"edit_rerun_1000", "<= 5 ms", [] { return editRerun(design::generatePool(1000)); }},
        {"edit_move_1000", "<= 1 ms", [] { return editMoveBenchmarkBody(); },
         "no QApplication to draw in", true},
        {"predict", "<= 10 us",
         [] {
             // What the canvas does after an edit, once the fabric analysis has run: turn the
             // system into a platform and predict one benchmark.
             auto design = std::make_shared<design::Design>(design::seedTestbed());
             auto analysis = std::make_shared<fabric::Analysis>(
                 fabric::analyze(*design, catalog::Catalog::builtin()));
             const workload::Workload *w = workload::Library::builtin().find("resnet50");
             return std::function<void()>([design, analysis, w] {
                 const perf::Platform p
                     = perf::platformOf(*design, *analysis, 0, catalog::Catalog::builtin());
                 volatile double t = perf::predict(p, *w, 1632, perf::Precision::Fp16,
                                                   perf::Calibration::builtin())
                                         .stepS;
                 (void)t;
             });
         }},
        {"study_seed", "<= 20 us",
         [] {
             // One point of the seed study, cycling through all 64: the compositions are built
             // and analysed once (as `composelab study` does), each point runs the model.
             auto study = std::make_shared<perf::Study>(perf::readStudy(
                 perf::seedStudyText(), "seed.clabstudy", catalog::Catalog::builtin()));
             auto runner = std::make_shared<perf::StudyRunner>(*study, catalog::Catalog::builtin(),
                                                               perf::Calibration::builtin());
             auto next = std::make_shared<std::uint64_t>(0);
             return std::function<void()>([runner, next, points = study->points()] {
                 volatile double t = runner->evaluate((*next)++ % points).prediction.stepS;
                 (void)t;
             });
         }},
        {"validate_calibration", "<= 1 s",
         [] {
             const std::string path = referenceFile("mlperf_training_calibration.csv");
             if (path.empty())
                 return std::function<void()>();
             auto text = std::make_shared<std::string>(readTextFile(path));
             return std::function<void()>([text, path] {
                 perf::ObservationSet set;
                 perf::addMlperfRows(CsvTable::parse(*text, path), set);
                 volatile double sum = 0;
                 for (const auto &r : set.rows)
                     sum = sum
                           + perf::predictObservation(r, perf::Calibration::builtin()).value_or(0);
             });
         }},
    };
    list.push_back({"calibrate_cv", "<= 10 s", [] {
                        // `composelab calibrate` on the shipped inputs: the fit and its two
                        // held-out passes (5 folds by system, each architecture left out).
                        const std::string mlperf = referenceFile("mlperf_training_calibration.csv");
                        const std::string tput = referenceFile("throughput_calibration.csv");
                        if (mlperf.empty() || tput.empty())
                            return std::function<void()>();
                        auto set = std::make_shared<perf::ObservationSet>();
                        perf::addCsv(CsvTable::parse(readTextFile(mlperf), mlperf), *set);
                        perf::addCsv(CsvTable::parse(readTextFile(tput), tput), *set);
                        return std::function<void()>([set] {
                            std::vector<const perf::Observation *> rows;
                            for (const auto &r : set->rows)
                                rows.push_back(&r);
                            volatile double o = perf::fitCalibration(rows).overlap;
                            (void)o;
                            volatile std::size_t a
                                = perf::heldOut(*set, perf::GroupOut::System).size()
                                  + perf::heldOut(*set, perf::GroupOut::Architecture).size();
                            (void)a;
                        });
                    }});
    list.push_back({"import_calibration_csv", "<= 1 s", [] {
                        const std::string path = referenceFile("mlperf_training_calibration.csv");
                        if (path.empty())
                            return std::function<void()>();
                        return importInto(path);
                    }});
    list.push_back(
        {"import_100k", "<= 5 s", [] {
             // 100,000 runs of the generic CSV, written once; each run imports them
             // into a new store.
             const auto file = scratch("runs.csv");
             std::ofstream out(file);
             out << "system,benchmark,metric,value,unit,global_batch_size,precision,date\n";
             for (int i = 0; i < 100000; ++i)
                 out << "system " << i % 50 << ",resnet,time_to_train," << 20 + (i % 997) * 0.01
                     << ",min," << 256 * (1 + i % 8) << ",fp16,2024-01-0" << 1 + i % 9 << "\n";
             out.close();
             return importInto(file.string());
         }});
    list.push_back({"chart_100k", "<= 200 ms", [] { return chartBenchmarkBody(); },
                    "no QApplication to draw in", true});
    list.push_back({"schedule_100k", "<= 2 s", [] { return schedule::schedule100kBody(); }});
    list.push_back(
        {"schedule_4096gpu_20k", "<= 2 s", [] { return schedule::scheduleLargeBody(); }});
    // Issue 16: every plan of GPT-3 175B on 3,072 A100s, and one plan's prediction.
    list.push_back({"plans_gpt3_3072", "<= 1 s", [] {
                        return std::function<void()>([] {
                            const llm::Shape s = llm::parseShape("gpt3-175b");
                            const llm::Hardware hw = llm::hardwareOf(
                                catalog::Catalog::builtin(), "A100-SXM4-80GB", 3072, 8, 200);
                            volatile auto n = llm::searchPlans(s, hw, 1536).plans.size();
                            (void)n;
                        });
                    }});
    list.push_back({"plan_predict", "<= 10 us", [] {
                        auto s = std::make_shared<llm::Shape>(llm::parseShape("gpt3-175b"));
                        auto hw = std::make_shared<llm::Hardware>(llm::hardwareOf(
                            catalog::Catalog::builtin(), "A100-SXM4-80GB", 3072, 8, 200));
                        llm::Plan p;
                        p.tensor = 8;
                        p.pipeline = 12;
                        p.interleave = 2;
                        p.recompute = llm::Recompute::Selective;
                        p.sequenceParallel = true;
                        p.zero = 1;
                        p.globalBatch = 1536;
                        return std::function<void()>([s, hw, p] {
                            volatile double t = llm::memoryPerGpu(*s, *hw, p).total()
                                                + llm::stepTime(*s, *hw, p).total;
                            (void)t;
                        });
                    }});
    for (const cluster::ClusterBenchmark &c : cluster::clusterBenchmarks()) {
        auto body = c.body;
        list.push_back({c.name, c.goal, [body] { return body; }});
    }
    return list;
}

struct Result
{
    std::string name;
    std::string goal;
    double median = 0;
    int runs = 0;
};

Result measure(const Benchmark &b)
{
    using Clock = std::chrono::steady_clock;
    const std::function<void()> body = b.setup();
    if (!body)
        return {b.name, b.goal, 0, 0};
    body(); // warm-up: first-touch allocations and caches
    std::vector<double> samples;
    const auto start = Clock::now();
    while (samples.size() < 5
           || (Clock::now() - start < std::chrono::milliseconds(250) && samples.size() < 100000)) {
        const auto t0 = Clock::now();
        body();
        samples.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    const double median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    return {b.name, b.goal, median, static_cast<int>(n)};
}

std::string human(double seconds)
{
    char buf[32];
    if (seconds < 1e-3)
        std::snprintf(buf, sizeof buf, "%.1f us", seconds * 1e6);
    else if (seconds < 1)
        std::snprintf(buf, sizeof buf, "%.2f ms", seconds * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.2f s", seconds);
    return buf;
}

} // namespace

int benchCommand(const BenchOptions &options, std::ostream &out, std::ostream &err)
{
    std::vector<Result> results;
    // Made for the first bench that draws and destroyed when the command returns, after every
    // bench's widgets (a QApplication left to static destruction crashes at exit).
    std::unique_ptr<QApplication> app;
    int matched = 0;
    for (const Benchmark &b : benchmarks()) {
        if (!options.filter.empty()
            && std::string(b.name).find(options.filter) == std::string::npos)
            continue;
        ++matched;
        if (std::string problem; b.widgets && !ensureWidgetApplication(app, problem)) {
            err << b.name << ": skipped (" << problem << ")\n";
            continue;
        }
        results.push_back(measure(b));
        if (results.back().runs == 0) {
            err << b.name << ": skipped (" << b.skipReason << ")\n";
            results.pop_back();
            continue;
        }
        if (!options.json)
            out << results.back().name << ": median " << human(results.back().median) << " over "
                << results.back().runs << " runs (goal " << results.back().goal << ")\n";
    }
    if (matched == 0) {
        err << "composelab bench: no benchmark matches \"" << options.filter << "\"\n";
        return 2;
    }
    if (options.json) {
        OrderedJson j;
        j["results"] = OrderedJson::array();
        for (const Result &r : results)
            j["results"].push_back({{"name", r.name}, {"median_s", r.median}, {"runs", r.runs}});
        out << j.dump(2) << "\n";
    }
    return 0;
}

} // namespace clab::cli
