#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab example NAME [--out FILE]`: writes a bundled example design (seed-testbed, ...)
// or a synthetic pool of N devices (`pool:1000`, for trying large designs) to start from.
struct ExampleOptions
{
    std::string name;
    std::string out; // empty: standard output
};

// 0 done, 1 unknown name or unwritable file (message on err).
int exampleCommand(const ExampleOptions &options, std::ostream &out, std::ostream &err);
void addExampleSubcommand(CLI::App &app, ExampleOptions &options);

} // namespace clab::cli
