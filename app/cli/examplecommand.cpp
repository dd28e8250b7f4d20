#include "cli/examplecommand.h"

#include "design/design.h"
#include "design/examples.h"
#include "perf/study.h"
#include "util/fileio.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <ostream>

namespace clab::cli {

namespace {

// The largest synthetic pool: ten times the size the GUI is measured with.
constexpr int kMaxPoolDevices = 10'000;

} // namespace

void addExampleSubcommand(CLI::App &app, ExampleOptions &options)
{
    CLI::App *cmd = app.add_subcommand(
        "example", "Write a bundled example design, a synthetic pool (pool:N devices), or the seed "
                   "study (seed-study)");
    cmd->add_option("name", options.name,
                    "seed-testbed, dgx-a100-nvswitch, ... (see --help), pool:N or seed-study")
        ->required();
    cmd->add_option("--out,-o", options.out, "Design file to write (default: standard output)");
}

int exampleCommand(const ExampleOptions &options, std::ostream &out, std::ostream &err)
{
    std::string text;
    const std::string name = options.name;
    if (name == "seed-study") {
        if (options.out.empty()) {
            out << perf::seedStudyText();
            return 0;
        }
        try {
            writeFileAtomically(options.out, std::string(perf::seedStudyText()));
        } catch (const std::exception &e) {
            err << "composelab example: " << e.what() << "\n";
            return 1;
        }
        return 0;
    }
    if (name.rfind("pool:", 0) == 0) {
        int devices = 0;
        const char *first = name.data() + 5, *last = name.data() + name.size();
        const auto [end, ec] = std::from_chars(first, last, devices);
        if (ec != std::errc() || end != last || devices < 1 || devices > kMaxPoolDevices) {
            err << "composelab example: " << name << ": expected pool:N with N from 1 to "
                << kMaxPoolDevices << "\n";
            return 1;
        }
        text = design::writeDesign(design::generatePool(devices));
    } else {
        std::string known;
        for (const design::Example &e : design::bundledExamples()) {
            const std::string stem = e.fileName.substr(0, e.fileName.rfind('.'));
            if (name == stem || name == e.fileName)
                text = std::string(e.text);
            known += (known.empty() ? "" : ", ") + stem;
        }
        if (text.empty()) {
            err << "composelab example: no example '" << name << "'; there are " << known
                << ", pool:N and seed-study\n";
            return 1;
        }
    }
    if (options.out.empty()) {
        out << text;
        return 0;
    }
    try {
        design::saveDesign(design::readDesign(text, name), options.out);
    } catch (const std::exception &e) {
        err << "composelab example: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

} // namespace clab::cli
