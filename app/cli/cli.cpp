#include "cli/cli.h"

#include "cli/commands.h"

#include <CLI/CLI.hpp>

#include <cstring>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace clab::cli {

namespace {

const std::set<std::string> &subcommands()
{
    static const std::set<std::string> names = {"analyze", "bench"};
    return names;
}

} // namespace

bool isCliInvocation(int argc, const char *const *argv)
{
    if (argc < 2)
        return false;
    const std::string first = argv[1];
    return subcommands().count(first) || first == "--help" || first == "-h"
           || first == "--version";
}

int run(int argc, const char *const *argv, std::ostream &out, std::ostream &err)
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

    BenchOptions bench;
    CLI::App *benchCmd = app.add_subcommand("bench", "Run the micro-benchmarks and print medians");
    benchCmd->add_flag("--json", bench.json, "Machine-readable output");
    benchCmd->add_option("--filter", bench.filter, "Only benchmarks whose name contains this");

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
        err << "composelab: " << e.what() << "\n";
        err << "Run 'composelab --help' for usage.\n";
        return 2;
    }
    if (analyzeCmd->parsed())
        return analyzeCommand(analyze, out, err);
    if (benchCmd->parsed())
        return benchCommand(bench, out, err);
    return 2;
}

} // namespace clab::cli
