#pragma once

// Runs `composelab ARGS...` in-process for the CLI tests and keeps what it printed.

#include "cli/cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace clab::test {

struct Outcome
{
    int status;
    std::string out;
    std::string err;
};

inline Outcome run(const std::vector<std::string> &args)
{
    std::vector<const char *> argv = {"composelab"};
    for (const auto &a : args)
        argv.push_back(a.c_str());
    std::ostringstream out;
    std::ostringstream err;
    const int status = cli::run(int(argv.size()), argv.data(), out, err);
    return {status, out.str(), err.str()};
}

// A bundled example design, by file name, in the source tree.
inline std::string examplePath(const std::string &name)
{
    return std::string(CLAB_TEST_DATA) + "/../../resources/examples/" + name;
}

} // namespace clab::test
