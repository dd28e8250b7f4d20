#pragma once

#include <iosfwd>

namespace clab::cli {

// True when the arguments name a subcommand (or ask for help or the version): the program then
// runs headless and never touches a display.
bool isCliInvocation(int argc, const char *const *argv);

// Runs a subcommand. Exit status: 0 done, 1 bad input (message on `err` naming the file, the
// place and what was expected), 2 wrong usage.
int run(int argc, const char *const *argv, std::ostream &out, std::ostream &err);

} // namespace clab::cli
