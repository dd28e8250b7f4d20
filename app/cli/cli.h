#pragma once

#include <iosfwd>

namespace clab::cli {

// True when the arguments name a subcommand (or ask for help or the version): the program then
// runs headless and never touches a display.
bool isCliInvocation(int argc, const char *const *argv);

// Runs a subcommand. Exit status: 0 done, 1 bad input (message on `err` naming the file, the
// place and what was expected), 2 wrong usage.
int run(int argc, const char *const *argv, std::ostream &out, std::ostream &err);

// Parses as run() does (help, version and usage errors alike) but runs no subcommand: 0 when the
// arguments are valid. For tests/fuzz/fuzz_cli.cpp.
int parseOnly(int argc, const char *const *argv, std::ostream &out, std::ostream &err);

} // namespace clab::cli
