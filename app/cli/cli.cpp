#include "cli/cli.h"

#include "cli/chartcommand.h"
#include "cli/examplecommand.h"
#include "cli/rendercommand.h"
#include "cli/commands.h"
#include "cli/escapingstream.h"
#include "cli/importcommand.h"
#include "cli/machinecommand.h"
#include "cli/runscommand.h"
#include "cli/studycommand.h"
#include "cli/planscommand.h"
#include "cli/schedulecommand.h"
#include "cli/tracecommand.h"
#include "cli/topocommand.h"
#include "cli/upgradecommand.h"
#include "cli/validators.h"

#include "catalog/catalog.h"
#include "perf/energy.h"
#include "util/fileio.h"

#include <CLI/CLI.hpp>

#include <cstring>
#include <filesystem>
#include <limits>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace clab::cli {

namespace {

const std::set<std::string> &subcommands()
{
    static const std::set<std::string> names
        = {"analyze", "bench", "predict", "calibrate", "validate", "topo",
           "import",  "chart", "render",  "example",   "upgrade",  "machine",
           "runs",    "study", "merge",   "schedule",  "trace",    "plans"};
    return names;
}

// What CLI11 calls "arguments not expected", in the command's terms: an unknown option names the
// options there are, a stray word says what the command takes.
std::string extrasMessage(const CLI::App &command, const std::vector<std::string> &extras)
{
    std::string options;
    std::string positionals;
    for (const CLI::Option *o : command.get_options()) {
        if (o->get_positional())
            positionals += (positionals.empty() ? "" : "> <") + o->get_name();
        else if (!o->get_lnames().empty())
            options += " --" + o->get_lnames().front();
    }
    for (const std::string &x : extras) {
        if (x.size() > 1 && x[0] == '-')
            return "unknown option \"" + x + "\"; the options are:" + options;
    }
    const std::string first = extras.empty() ? std::string() : extras.front();
    return "unexpected argument \"" + first + "\": "
           + (positionals.empty() ? "this command takes only options"
                                  : "this command takes <" + positionals + "> and options");
}

} // namespace

bool isCliInvocation(int argc, const char *const *argv)
{
    if (argc < 2)
        return false;
    const std::string first = argv[1];
    return subcommands().count(first) || first == "--help" || first == "-h" || first == "--version";
}

namespace {

// run() without the last step when `execute` is false: parseOnly() shares every option and check.
int parseAndRun(int argc, const char *const *argv, std::ostream &out, std::ostream &err,
                bool execute)
{
    CLI::App app{"ComposeLab: design composable GPU systems and predict what they will do.\n"
                 "Without a subcommand, opens the GUI (optionally on a design file)."};
    app.set_version_flag("--version", std::string("composelab ") + COMPOSELAB_VERSION);
    app.require_subcommand(1);

    AnalyzeOptions analyze;
    CLI::App *analyzeCmd = app.add_subcommand(
        "analyze", "Composed systems of a design: host-to-device table, peer-to-peer matrix, "
                   "shared links and design-rule findings");
    analyzeCmd->add_option("file", analyze.file, "Design file (.clab)")->required();
    analyzeCmd->add_flag("--json", analyze.json, "Machine-readable output");
    analyzeCmd->add_option("--db", analyze.db,
                           "Also show the measurements this store holds for systems of the same "
                           "name (import --system NAME) beside the model's values");

    BenchOptions bench;
    CLI::App *benchCmd = app.add_subcommand("bench", "Run the micro-benchmarks and print medians");
    benchCmd->add_flag("--json", bench.json, "Machine-readable output");
    benchCmd->add_option("--filter", bench.filter, "Only benchmarks whose name contains this");

    PredictOptions predict;
    CLI::App *predictCmd = app.add_subcommand(
        "predict", "Step time, throughput and time-to-train of a composed system for a benchmark");
    predictCmd->add_option("file", predict.file, "Design file (.clab)")->required();
    predictCmd->add_option("--system", predict.system, "Composed system (default: the first)");
    predictCmd
        ->add_option("--benchmark", predict.benchmark,
                     "resnet50, bert_large, maskrcnn, ... (or MLPerf names: resnet, bert)")
        ->required();
    predictCmd->add_option("--global-batch", predict.globalBatch, "Global batch size")
        ->check(wholeNumber(1, std::numeric_limits<int>::max()));
    predictCmd->add_option("--precision", predict.precision, "fp32, tf32, fp16 or bf16");
    predictCmd->add_option("--nodes", predict.nodes, "Copies of the system joined by its network")
        ->check(wholeNumber(1, 100000));
    predictCmd->add_option(
        "--cluster", predict.cluster,
        "Network joining the --nodes: fattree or rail, e.g. fattree:taper=2,radix=64");
    predictCmd->add_option("--software", predict.software,
                           "Software stack of the calibration, e.g. mlperf-4.1 or ngc-dle "
                           "(default: the newest calibrated MLPerf round)");
    predictCmd->add_option("--loader", predict.loader,
                           "Input pipeline: dali (GPU decode) or cpu (default: the benchmark's)");
    predictCmd->add_flag("--json", predict.json, "Machine-readable output");
    predictCmd->add_option("--save", predict.saveDb,
                           "Also keep the prediction as predicted runs in this experiment store");

    CalibrateOptions calibrate;
    CLI::App *calibrateCmd = app.add_subcommand(
        "calibrate", "Fit the model's efficiency factors to recorded results (MLPerf or "
                     "throughput CSV tables)");
    CLI::Option *csvOpt = calibrateCmd->add_option("csv", calibrate.files, "Result tables");
    calibrateCmd->add_option("--out", calibrate.out, "Calibration file to write");
    bool noCv = false;
    CLI::Option *noCvOpt = calibrateCmd->add_flag("--no-cross-validation", noCv,
                                                  "Skip the (slower) cross-validation");
    CLI::Option *bandwidthOpt
        = calibrateCmd->add_option("--bandwidth", calibrate.bandwidthDb,
                                   "Instead: fit the PCIe links' achieved fractions from the "
                                   "host-to-device measurements in this experiment store");
    CLI::Option *jsonOpt
        = calibrateCmd->add_flag("--json", calibrate.json, "With --bandwidth: the fits as JSON");
    calibrateCmd
        ->add_option("--llm", calibrate.llmFiles,
                     "Instead: fit the LLM planner's GEMM efficiency to published Megatron-LM "
                     "runs (datasets/llm/*.json)")
        ->excludes(csvOpt)
        ->excludes(noCvOpt)
        ->excludes(bandwidthOpt)
        ->excludes(jsonOpt);

    ValidateOptions validate;
    CLI::App *validateCmd = app.add_subcommand(
        "validate", "Predict every row of MLPerf results or training-throughput tables and report "
                    "the errors");
    validateCmd->add_option("csv", validate.files, "Result tables")->required();
    validateCmd->add_flag("--json", validate.json, "Machine-readable output");
    validateCmd->add_option("--calibration", validate.calibration,
                            "Calibration file (default: the shipped one)");
    validateCmd
        ->add_option("--group-out", validate.groupOut,
                     "Fit on the other groups and predict each held-out one: architecture, "
                     "round or system (5 folds)")
        ->check(CLI::IsMember({"architecture", "round", "system"}));
    validateCmd->add_flag("--physics-only", validate.physicsOnly,
                          "With --group-out: fit one GEMM efficiency per benchmark and nothing "
                          "else");
    validateCmd->add_flag("--recorded-samples", validate.recordedSamples,
                          "MLPerf time-to-train rows train the samples their runs recorded "
                          "(median_epoch_at_stop or train_samples, or datasets/"
                          "mlperf_trained_samples.json; a count over 3x off the convergence "
                          "table is ignored) instead of the table's: the step's error without "
                          "the runs' convergence luck");
    validateCmd->add_option("--save", validate.save,
                            "Also keep every prediction as a predicted run of its row's system in "
                            "this experiment store, for `chart --kind parity`");

    TopoOptions topo;
    addTopoSubcommand(app, topo);
    ScheduleOptions scheduleOptions;
    addScheduleSubcommand(app, scheduleOptions);
    PlansOptions plansOptions;
    addPlansSubcommand(app, plansOptions);
    TraceOptions traceOptions;
    addTraceSubcommand(app, traceOptions);
    ImportOptions importOptions;
    addImportSubcommand(app, importOptions);
    ChartOptions chartOptions;
    addChartSubcommand(app, chartOptions);
    RenderOptions renderOptions;
    addRenderSubcommand(app, renderOptions);
    UpgradeOptions upgradeOptions;
    addUpgradeSubcommand(app, upgradeOptions);
    MachineCommandOptions machineOptions;
    addMachineSubcommand(app, machineOptions);
    RunsOptions runsOptions;
    addRunsSubcommand(app, runsOptions);
    ExampleOptions exampleOptions;
    addExampleSubcommand(app, exampleOptions);
    StudyOptions studyOptions;
    MergeOptions mergeOptions;
    addStudySubcommands(app, studyOptions, mergeOptions);

    // --catalog DIR: user parts from another folder, for the commands that read designs.
    std::string catalogDir;
    for (CLI::App *sub : {analyzeCmd, predictCmd, validateCmd, app.get_subcommand("study"),
                          app.get_subcommand("plans")})
        sub->add_option("--catalog", catalogDir,
                        "Also read the user parts (catalog JSON files) of this folder");
    app.get_subcommand("render")->add_option(
        "--catalog", catalogDir, "Also read the user parts (catalog JSON files) of this folder");
    // --part-prices FILE: the prices, electricity, PUE and life that energy and cost assume.
    std::string partPricesFile;
    for (CLI::App *sub : {predictCmd, app.get_subcommand("study")})
        sub->add_option("--part-prices", partPricesFile,
                        "Prices of parts, electricity, PUE and hardware life for energy and cost "
                        "(an edited copy of resources/prices/parts.json; default: the user's "
                        "prices/parts.json, else the shipped assumptions)");

    std::vector<std::string> args;
    for (int i = argc - 1; i > 0; --i)
        args.emplace_back(argv[i]);
    try {
        app.parse(args);
    } catch (const CLI::CallForHelp &) {
        out << app.help();
        return 0;
    } catch (const CLI::CallForVersion &) {
        out << app.version() << "\n";
        return 0;
    } catch (const CLI::ParseError &e) {
        // An unknown command reads as a missing subcommand: name it and list the known ones.
        if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-') {
            err << "composelab: unknown command \"" << argv[1] << "\"; the commands are:";
            for (const std::string &name : subcommands())
                err << " " << name;
            err << "\nRun 'composelab --help' for usage.\n";
            return 2;
        }
        // Name the command the error belongs to.
        std::string where = "composelab";
        const CLI::App *command = &app;
        for (const CLI::App *sub : app.get_subcommands()) {
            where += " " + sub->get_name();
            command = sub;
        }
        if (dynamic_cast<const CLI::ExtrasError *>(&e))
            err << where << ": " << extrasMessage(*command, app.remaining(true)) << "\n";
        else
            err << where << ": " << e.what() << "\n";
        err << "Run '" << where << " --help' for usage.\n";
        return 2;
    }
    if (!execute)
        return 0;
    // The user's own parts (~/.local/share/ComposeLab/catalog), then --catalog's.
    for (const std::string &problem :
         catalog::Catalog::addUserFolder(catalog::Catalog::userFolder()))
        err << "composelab: skipped a user part file: " << problem << "\n";
    if (!catalogDir.empty()) {
        if (!std::filesystem::is_directory(catalogDir)) {
            err << "composelab: --catalog: " << catalogDir << " is not a folder\n";
            return 2;
        }
        const std::vector<std::string> problems = catalog::Catalog::addUserFolder(catalogDir);
        for (const std::string &problem : problems)
            err << "composelab: --catalog: " << problem << "\n";
        if (!problems.empty())
            return 1;
    }
    // The user's own part prices, then --part-prices'.
    const std::string userPrices = perf::userPartPricesPath();
    std::error_code noFile; // a home this user may not read holds no prices for it
    for (const std::string &file : {userPrices, partPricesFile}) {
        if (file.empty() || (file == userPrices && !std::filesystem::exists(file, noFile)))
            continue;
        try {
            perf::setPartPrices(perf::readPartPrices(readTextFile(file), file));
        } catch (const std::exception &e) {
            err << "composelab: "
                << (file == userPrices ? "skipped the user's part prices: " : "--part-prices: ")
                << e.what() << "\n";
            if (file != userPrices)
                return 1;
        }
    }
    if (analyzeCmd->parsed())
        return analyzeCommand(analyze, out, err);
    if (benchCmd->parsed())
        return benchCommand(bench, out, err);
    if (predictCmd->parsed())
        return predictCommand(predict, out, err);
    if (calibrateCmd->parsed()) {
        calibrate.crossValidate = !noCv;
        return calibrateCommand(calibrate, out, err);
    }
    if (validateCmd->parsed())
        return validateCommand(validate, out, err);
    if (app.get_subcommand("topo")->parsed())
        return topoCommand(topo, out, err);
    if (app.get_subcommand("schedule")->parsed())
        return scheduleCommand(scheduleOptions, out, err);
    if (app.get_subcommand("plans")->parsed())
        return plansCommand(plansOptions, out, err);
    if (app.get_subcommand("trace")->parsed())
        return traceCommand(traceOptions, out, err);
    if (app.get_subcommand("import")->parsed())
        return importCommand(importOptions, out, err);
    if (app.get_subcommand("chart")->parsed())
        return chartCommand(chartOptions, out, err);
    if (app.get_subcommand("render")->parsed())
        return renderCommand(renderOptions, out, err);
    if (app.get_subcommand("upgrade")->parsed())
        return upgradeCommand(upgradeOptions, out, err);
    if (app.get_subcommand("runs")->parsed())
        return runsCommand(runsOptions, out, err);
    if (app.get_subcommand("machine")->parsed())
        return machineCommand(machineOptions, out, err);
    if (app.get_subcommand("example")->parsed())
        return exampleCommand(exampleOptions, out, err);
    if (app.get_subcommand("study")->parsed())
        return studyCommand(studyOptions, out, err);
    if (app.get_subcommand("merge")->parsed())
        return mergeCommand(mergeOptions, out, err);
    return 2;
}

} // namespace

int run(int argc, const char *const *argv, std::ostream &out, std::ostream &err)
{
    EscapingStream escapedOut(out);
    EscapingStream escapedErr(err);
    escapedErr.tie(&escapedOut); // as std::cerr is tied to std::cout: output stays in order
    return parseAndRun(argc, argv, escapedOut, escapedErr, true);
}

int parseOnly(int argc, const char *const *argv, std::ostream &out, std::ostream &err)
{
    return parseAndRun(argc, argv, out, err, false);
}

} // namespace clab::cli
