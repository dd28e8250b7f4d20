#include "cli/upgradecommand.h"

#include "design/design.h"
#include "util/inputerror.h"

#include <CLI/CLI.hpp>

#include <ostream>
#include <stdexcept>

namespace clab::cli {

int upgradeCommand(const UpgradeOptions &options, std::ostream &out, std::ostream &err)
{
    const std::string target = options.out.empty() ? options.file : options.out;
    try {
        const design::Design design = design::loadDesign(options.file);
        design::saveDesign(design, target);
    } catch (const InputError &e) {
        err << "composelab upgrade: " << e.what() << "\n";
        return 1;
    } catch (const std::exception &e) {
        err << "composelab upgrade: " << e.what() << "\n" << target << " is unchanged.\n";
        return 1;
    }
    out << "Wrote " << target << " (format version " << design::kFormatVersion << ")\n";
    return 0;
}

void addUpgradeSubcommand(CLI::App &app, UpgradeOptions &options)
{
    CLI::App *cmd = app.add_subcommand(
        "upgrade", "Rewrite a design file in the current format version, canonically (fixed key "
                   "order, so diffs stay small) and atomically (a crash leaves the old file)");
    cmd->add_option("file", options.file, "Design file (.clab)")->required();
    cmd->add_option("--out", options.out, "Write here instead of over FILE");
}

} // namespace clab::cli
