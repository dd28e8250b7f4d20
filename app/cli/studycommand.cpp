// study and merge: many compositions predicted at once, and shard stores joined.
#include "cli/studycommand.h"

#include "cli/validators.h"

#include "catalog/catalog.h"
#include "perf/studyrun.h"
#include "store/store.h"
#include "store/studies.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <chrono>
#include <iomanip>
#include <map>
#include <ostream>
#include <thread>

namespace clab::cli {

namespace {

std::optional<perf::Shard> parseShard(const std::string &text)
{
    perf::Shard s;
    const auto slash = text.find('/');
    if (slash == std::string::npos)
        return std::nullopt;
    const char *b = text.data(), *m = b + slash, *e = b + text.size();
    const auto [p1, ec1] = std::from_chars(b, m, s.index);
    const auto [p2, ec2] = std::from_chars(m + 1, e, s.count);
    if (ec1 != std::errc() || ec2 != std::errc() || p1 != m || p2 != e || s.count < 1
        || s.count > 1'000'000 || s.index < 1 || s.index > s.count)
        return std::nullopt;
    return s;
}

// A fixed-point number for the table.
std::string fixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

} // namespace

int studyCommand(const StudyOptions &o, std::ostream &out, std::ostream &err)
{
    perf::Shard shard;
    if (!o.shard.empty()) {
        const auto s = parseShard(o.shard);
        if (!s) {
            err << "composelab study: --shard: expected k/N with 1 <= k <= N, got \"" << o.shard
                << "\"\n";
            return 2;
        }
        shard = *s;
    }
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    perf::Study study;
    try {
        study = perf::readStudy(readTextFile(o.file), o.file, catalog);
    } catch (const InputError &e) {
        err << "composelab study: " << e.what() << "\n";
        return 1;
    }
    if (o.count) {
        out << study.points() << "\n";
        return 0;
    }
    const auto start = std::chrono::steady_clock::now();
    std::optional<perf::StudyRunner> runner;
    try {
        runner.emplace(study, catalog, perf::Calibration::builtin());
    } catch (const InputError &e) {
        err << "composelab study: " << e.what() << "\n";
        return 1;
    }
    std::optional<store::Store> db;
    if (!o.db.empty()) {
        try {
            db.emplace(o.db);
        } catch (const std::exception &e) {
            err << "composelab study: " << e.what() << "\n";
            return 1;
        }
    }
    perf::StudyRunOptions options;
    options.shard = shard;
    options.jobs = o.jobs > 0 ? o.jobs : int(std::max(1u, std::thread::hardware_concurrency()));
    int lastPercent = -1;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
        const int percent = total ? int(done * 100 / total) : 100;
        if (percent / 10 != lastPercent / 10 && total > 10'000)
            err << "composelab study: " << done << " of " << total << " points (" << percent
                << " %)\n";
        lastPercent = percent;
        return true;
    };
    const std::vector<perf::StudyRunner::Composition> &compositions = runner->compositions();
    std::size_t width = 44; // the system column fits the longest composition name
    for (const perf::StudyRunner::Composition &c : compositions)
        width = std::max(width, c.name.size() + 2);
    const int systemWidth = int(width);
    bool header = false;
    std::map<std::string, std::uint64_t> dropped; // reason -> points
    options.each = [&](const perf::StudyResult &r) {
        if (o.json) {
            out << perf::studyResultToJson(*runner, r).dump() << "\n";
            return;
        }
        if (!r.dropped.empty()) {
            ++dropped[r.dropped];
            return;
        }
        if (!header) {
            out << std::left << std::setw(systemWidth) << "system" << std::setw(14) << "benchmark"
                << std::right << std::setw(8) << "batch" << std::setw(12) << "samples/s"
                << std::setw(12) << "step ms" << std::setw(14) << "train min" << std::setw(10)
                << "kWh" << std::setw(10) << "USD"
                << "\n";
            header = true;
        }
        out << std::left << std::setw(systemWidth) << compositions[r.composition].name
            << std::setw(14) << r.benchmark << std::right;
        const perf::Prediction &p = r.prediction;
        out << std::setw(8) << p.globalBatch << std::setw(12) << fixed(p.throughput, 0)
            << std::setw(12) << fixed(p.stepS * 1e3, 1) << std::setw(14)
            << (p.timeToTrainMin ? fixed(*p.timeToTrainMin, 1) : std::string("-")) << std::setw(10)
            << (p.energy ? fixed(p.energy->kwh, 2) : std::string("-")) << std::setw(10)
            << (p.energy ? fixed(p.energy->usd(), 2) : std::string("-"))
            << (p.fits ? "" : "  does not fit in memory") << "\n";
    };
    // A large study prints nothing per point unless asked for JSON: the store holds them.
    if (!o.json && perf::shardPoints(study.points(), shard) > 10'000)
        options.each = nullptr;
    perf::StudyRunCounts counts;
    try {
        counts = perf::runStudy(*runner, db ? &*db : nullptr, options);
    } catch (const std::exception &e) {
        err << "composelab study: " << e.what() << "\n";
        return 1;
    }
    if (header)
        out << "kWh and USD: energy and cost of the time to train, or of one epoch where there is "
               "none (assumed prices: --part-prices)\n";
    for (const auto &[reason, n] : dropped)
        out << "Dropped " << n << (n == 1 ? " point: " : " points: ") << reason << "\n";
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    err << "composelab study: " << study.name << (o.shard.empty() ? "" : " shard " + o.shard)
        << ": " << counts.points << " points, " << counts.predicted << " predicted, "
        << counts.dropped << " dropped by the rules, in " << fixed(seconds, 2) << " s";
    if (db)
        err << (counts.alreadyStored
                    ? "; already in "
                    : "; " + std::to_string(counts.stored) + " predicted runs stored in ")
            << o.db;
    err << "\n";
    return 0;
}

int mergeCommand(const MergeOptions &o, std::ostream &out, std::ostream &err)
{
    try {
        const store::MergeCounts c = store::mergeStores(o.out, o.inputs);
        out << "Merged " << c.inputs << " stores into " << o.out << ": " << c.sources
            << " sources, " << c.runs << " runs, " << c.bandwidth << " bandwidth measurements";
        if (c.skipped)
            out << " (" << c.skipped << " sources already there, skipped)";
        out << "\n";
    } catch (const std::exception &e) {
        err << "composelab merge: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

void addStudySubcommands(CLI::App &app, StudyOptions &study, MergeOptions &merge)
{
    CLI::App *cmd = app.add_subcommand(
        "study", "Predict every point of a study (.clabstudy): compositions x runs, in parallel");
    cmd->add_option("file", study.file, "Study file (.clabstudy; see `example seed-study`)")
        ->required();
    cmd->add_option("--db", study.db, "Keep every predicted point in this experiment store");
    cmd->add_option("--shard", study.shard,
                    "Only shard k of N (1-based, e.g. $SLURM_ARRAY_TASK_ID/64); merge the stores "
                    "afterwards");
    cmd->add_option("--jobs,-j", study.jobs, "Threads (default: one per core)")
        ->check(wholeNumber(1, 1024));
    cmd->add_flag("--json", study.json, "One JSON object per point (JSON lines)");
    cmd->add_flag("--count", study.count, "Only print how many points the study has");

    CLI::App *m = app.add_subcommand(
        "merge", "Merge experiment stores (e.g. the shards of a study) into one");
    m->add_option("out", merge.out, "Store to merge into (created when absent)")->required();
    m->add_option("inputs", merge.inputs, "Stores to merge")->required();
}

} // namespace clab::cli
