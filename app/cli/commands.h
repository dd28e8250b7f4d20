#pragma once

#include <iosfwd>
#include <string>

namespace clab::cli {

struct AnalyzeOptions
{
    std::string file;
    bool json = false;
};
int analyzeCommand(const AnalyzeOptions &options, std::ostream &out, std::ostream &err);

struct BenchOptions
{
    bool json = false;
    std::string filter; // run only benchmarks whose name contains this
};
int benchCommand(const BenchOptions &options, std::ostream &out, std::ostream &err);

} // namespace clab::cli
