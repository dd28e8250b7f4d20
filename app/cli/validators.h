#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace clab::cli {

// Usage checks whose message names what the option accepts ("expected a whole number from 1 to
// 2048, found 0"), instead of CLI11's raw range of doubles. CLI11 prefixes the option's name.
CLI::Validator wholeNumber(long long minimum, long long maximum);

} // namespace clab::cli
