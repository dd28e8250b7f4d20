// The command line: each line of the input is one argument after "composelab". Parsing (with
// every option's check, help and usage errors) must give status 0 or 2, never a crash, a leak or
// UB; no subcommand runs (clab::cli::parseOnly).
#include "fuzzcommon.h"

#include "cli/cli.h"

#include <algorithm>
#include <sstream>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    std::vector<std::string> args{"composelab"};
    const std::string_view input = fuzz::text(data, size);
    std::size_t pos = 0;
    while (pos <= input.size()) {
        const auto eol = std::min(input.find('\n', pos), input.size());
        args.emplace_back(input.substr(pos, eol - pos));
        pos = eol + 1;
    }
    std::vector<const char *> argv;
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    std::ostringstream out, err;
    (void)cli::isCliInvocation(int(argv.size()), argv.data());
    const int status = cli::parseOnly(int(argv.size()), argv.data(), out, err);
    fuzz::require(status == 0 || status == 2, "parsing gives status 0 or 2");
    return 0;
}
