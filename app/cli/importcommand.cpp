#include "cli/importcommand.h"

#include "store/import.h"
#include "store/store.h"
#include "util/inputerror.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iomanip>
#include <ostream>

namespace clab::cli {

namespace {

void printTable(const store::ImportReport &report, const std::string &db, std::ostream &out)
{
    out << "Imported into " << db << ":\n";
    if (report.imported.empty())
        out << "  nothing new\n";
    for (const auto &e : report.imported) {
        const std::string kind = e.value("kind", "");
        out << "  " << std::left << std::setw(16) << kind << ' ';
        if (kind == "mlperf") {
            out << e.value("round", "") << ' ' << e.value("submitter", "") << ' '
                << e.value("system", "") << ' ' << e.value("benchmark", "") << ": ";
            if (e["score_minutes"].is_number())
                out << std::fixed << std::setprecision(3) << e["score_minutes"].get<double>()
                    << " min";
            else
                out << "no score";
            out << " (" << e.value("converged", 0) << " of " << e.value("runs", 0)
                << " runs converged)\n";
        } else {
            out << e.value("path", "");
            if (e.contains("rows"))
                out << ": " << e["rows"].get<long long>() << " rows";
            if (e.contains("measurements"))
                out << ": " << e["measurements"].get<long long>() << " measurements";
            if (e.contains("warning"))
                out << " (" << e["warning"].get<std::string>() << ')';
            out << '\n';
        }
    }
    if (!report.skipped.empty()) {
        out << "Skipped:\n";
        for (const auto &s : report.skipped)
            out << "  " << s.path << ": " << s.reason << '\n';
    }
}

} // namespace

int importCommand(const ImportOptions &options, std::ostream &out, std::ostream &err)
{
    if (options.paths.empty()) {
        err << "import: give at least one file or folder\n";
        return 2;
    }
    const std::string db = options.db.empty() ? store::defaultStorePath() : options.db;
    try {
        if (options.db.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(std::filesystem::path(db).parent_path(), ec);
        }
        store::Store store(db);
        const store::ImportReport report = store::importPaths(store, options.paths);
        if (options.json)
            out << report.toJson().dump(2) << '\n';
        else
            printTable(report, db, out);
        return 0;
    } catch (const InputError &e) {
        err << e.what() << "\nNothing was imported.\n";
    } catch (const store::StoreError &e) {
        err << e.what() << '\n';
    } catch (const std::exception &e) {
        err << "import: " << e.what() << '\n';
    }
    return 1;
}

void addImportSubcommand(CLI::App &app, ImportOptions &options)
{
    CLI::App *cmd = app.add_subcommand(
        "import", "Import recorded results (MLPerf Training results trees, CSV tables, nccl-tests, "
                  "p2pBandwidthLatencyTest, bandwidthTest and nvbandwidth output) into the "
                  "experiment store");
    cmd->add_option("paths", options.paths, "Files or folders")->required();
    cmd->add_option("--db", options.db,
                    "Store file (default: $XDG_DATA_HOME/ComposeLab/experiments.sqlite)");
    cmd->add_flag("--json", options.json, "Machine-readable output");
}

} // namespace clab::cli
