#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab upgrade FILE [--out OUT]`: reads a design (upgrading an older formatVersion step by
// step) and writes it in the current format, canonically and atomically: over FILE itself, or to
// OUT. A kill at any moment leaves the target's old or new content, never a mix.
struct UpgradeOptions
{
    std::string file;
    std::string out; // empty: FILE itself
};

// 0 done, 1 bad design file or unwritable target (message on err; the target is untouched).
int upgradeCommand(const UpgradeOptions &options, std::ostream &out, std::ostream &err);
void addUpgradeSubcommand(CLI::App &app, UpgradeOptions &options);

} // namespace clab::cli
