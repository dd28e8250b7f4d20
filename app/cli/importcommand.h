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
};

// Imports recorded results into the experiment store. 0: done (skipped files are listed), 1: bad
// input or database (message on err naming the file and place), 2: usage.
int importCommand(const ImportOptions &options, std::ostream &out, std::ostream &err);

// Adds `import [--db DB] [--json] PATH...`; the caller runs importCommand when it was chosen.
void addImportSubcommand(CLI::App &app, ImportOptions &options);

} // namespace clab::cli
