#include "cli/runscommand.h"

#include "cli/userstore.h"

#include "store/runquery.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/jsonreader.h"
#include "util/utf8.h"

#include <CLI/CLI.hpp>

#include <iomanip>
#include <ostream>
#include <sstream>

namespace clab::cli {

namespace {

std::string number(double v)
{
    std::ostringstream s;
    s << std::setprecision(6) << v;
    return s.str();
}

} // namespace

int runsCommand(const RunsOptions &options, std::ostream &out, std::ostream &err)
{
    std::string db = options.db;
    try {
        db = storeFor(options.db, err);
        store::RunQuery query(db);
        store::RunFilter filter;
        filter.benchmark = options.benchmark;
        filter.system = options.system;
        filter.kind = options.measured    ? store::RunKind::Measured
                      : options.predicted ? store::RunKind::Predicted
                                          : store::RunKind::All;
        const std::vector<store::StoredRun> rows = query.runs(filter);
        if (options.json) {
            OrderedJson runs = OrderedJson::array();
            for (const store::StoredRun &r : rows)
                runs.push_back({{"system", validUtf8(r.system)},
                                {"benchmark", validUtf8(r.row.benchmark)},
                                {"metric", validUtf8(r.row.metric)},
                                {"value", r.row.value},
                                {"unit", validUtf8(r.row.unit)},
                                {"measured", r.row.measured != 0},
                                {"source", validUtf8(r.sourcePath)}});
            out << OrderedJson{{"total", rows.size()}, {"runs", std::move(runs)}}.dump(2) << "\n";
            return 0;
        }
        for (const store::StoredRun &r : rows)
            out << r.system << "\t" << r.row.benchmark << "\t" << r.row.metric << "\t"
                << number(r.row.value) << " " << r.row.unit << "\t"
                << (r.row.measured ? "measured" : "predicted") << "\t" << r.sourcePath << "\n";
        out << rows.size() << " run" << (rows.size() == 1 ? "" : "s") << " in " << db << "\n";
        if (rows.empty() && !options.benchmark.empty()) {
            std::string known;
            for (const std::string &b : query.benchmarks())
                known += (known.empty() ? "" : ", ") + b;
            out << "Benchmarks in the store: " << (known.empty() ? "none" : known) << "\n";
        }
    } catch (const store::StoreError &e) {
        err << "composelab runs: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

void addRunsSubcommand(CLI::App &app, RunsOptions &options)
{
    CLI::App *cmd = app.add_subcommand("runs", "List the experiment store's runs");
    cmd->add_option("--db", options.db, "Experiment store (default: the user's)");
    cmd->add_option("--benchmark", options.benchmark, "Only this benchmark (exact name)");
    cmd->add_option("--system", options.system, "Only systems whose name contains this");
    CLI::Option *measured = cmd->add_flag("--measured", options.measured, "Only measured runs");
    CLI::Option *predicted = cmd->add_flag("--predicted", options.predicted, "Only predicted runs");
    measured->excludes(predicted);
    cmd->add_flag("--json", options.json,
                  "{\"total\": n, \"runs\": [{\"system\", \"benchmark\", \"metric\", \"value\", "
                  "\"unit\", \"measured\", \"source\"}]}");
}

} // namespace clab::cli
