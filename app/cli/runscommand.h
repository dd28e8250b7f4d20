#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab runs [--db DB] [--benchmark B] [--system S] [--measured|--predicted] [--json]`:
// the experiment store's runs, headless.
struct RunsOptions
{
    std::string db;        // empty: the user's store
    std::string benchmark; // exact benchmark name
    std::string system;    // part of the system name
    bool measured = false; // only measured runs
    bool predicted = false;
    bool json = false; // {"total": n, "runs": [{"system", "benchmark", ...}]}
};

// 0 listed (possibly none), 1 the store cannot be read (named, with the reason).
int runsCommand(const RunsOptions &options, std::ostream &out, std::ostream &err);
void addRunsSubcommand(CLI::App &app, RunsOptions &options);

} // namespace clab::cli
