#include "cli/importcommand.h"

#include "cli/userstore.h"

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
            if (e.contains("implausible"))
                out << ", " << e["implausible"].get<long long>() << " flagged implausible";
            if (e.contains("warning"))
                out << " (" << e["warning"].get<std::string>() << ')';
            out << '\n';
        }
        if (e.contains("notes") && e["notes"].is_array()) {
            for (const auto &note : e["notes"])
                out << std::string(19, ' ') << "note: " << note.get<std::string>() << '\n';
        }
    }
    if (!report.skipped.empty()) {
        out << "Skipped:\n";
        for (const auto &s : report.skipped)
            out << "  " << s.path << ": " << s.reason << '\n';
    }
}

// Bad files go to err, each with its place, and a last line says what landed all the same.
void printFailed(const store::ImportReport &report, const std::string &db, bool json,
                 std::ostream &err)
{
    if (!json) {
        err << "Failed (not imported):\n";
        for (const auto &f : report.failed)
            err << "  " << f.path << ": " << f.reason << '\n';
    }
    const std::size_t n = report.failed.size();
    err << n << (n == 1 ? " file" : " files") << " failed and " << (n == 1 ? "was" : "were")
        << " not imported";
    if (report.imported.empty())
        err << "; nothing else was new either.\n";
    else
        err << "; the other " << report.imported.size()
            << (report.imported.size() == 1 ? " item was" : " items were") << " imported into "
            << db << ".\n";
}

} // namespace

int importCommand(const ImportOptions &options, std::ostream &out, std::ostream &err)
{
    if (options.paths.empty()) {
        err << "import: give at least one file or folder\n";
        return 2;
    }
    std::string db = options.db;
    try {
        db = storeFor(options.db, err);
        if (options.db.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(std::filesystem::path(db).parent_path(), ec);
        }
        store::Store store(db);
        store::ImportControl control;
        control.onBadFile
            = options.allOrNothing ? store::OnBadFile::RollBackAll : store::OnBadFile::ReportEach;
        control.system = options.system;
        const store::ImportReport report = store::importPaths(store, options.paths, control);
        if (options.json)
            out << report.toJson().dump(2) << '\n';
        else
            printTable(report, db, out);
        if (report.failed.empty())
            return 0;
        printFailed(report, db, options.json, err);
        return 1;
    } catch (const InputError &e) {
        // Only with --all-or-nothing: one bad file and the transaction is rolled back.
        err << e.what() << "\nNothing was imported (--all-or-nothing).\n";
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
    cmd->add_flag("--all-or-nothing", options.allOrNothing,
                  "Import nothing when any file is bad (by default each bad file is left out and "
                  "listed, and the others are imported)");
    cmd->add_option("--system", options.system,
                    "The machine the tool outputs were taken on: their measurements are stored as "
                    "its, and a design system of that name shows them beside the model");
}

} // namespace clab::cli
