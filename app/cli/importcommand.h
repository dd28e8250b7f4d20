#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clab::cli {

struct ImportOptions
{
    std::vector<std::string> paths;
    std::string db; // empty: store::defaultStorePath()
    bool json = false;
    // Any bad file rolls back the whole import (one transaction), instead of only itself.
    bool allOrNothing = false;
    // The machine the tool outputs were taken on (ImportControl::system).
    std::string system;
};

// Imports recorded results into the experiment store. Each file is imported on its own: the good
// ones land even when others are bad. 0: done (skipped files are listed), 1: a file failed (each
// is listed on err with its place; with allOrNothing nothing was imported) or the database did,
// 2: usage.
int importCommand(const ImportOptions &options, std::ostream &out, std::ostream &err);

// Adds `import [--db DB] [--json] [--all-or-nothing] [--system NAME] PATH...`; the caller runs
// importCommand when it was chosen.
void addImportSubcommand(CLI::App &app, ImportOptions &options);

} // namespace clab::cli
