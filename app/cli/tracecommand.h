#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab trace --out FILE (--design DESIGN | --gpus N) [--jobs N] [--cluster NAME]
// [--load L] [--max-gpus N] [--diurnal] [--seed S] [--benchmarks A,B]`: writes a synthetic job
// trace drawn from the Helios clusters' published distributions (model/schedule/generate.h), in
// the CSV that `composelab schedule` reads.
struct TraceOptions
{
    std::string out;
    std::string design;
    int gpus = 0;
    int jobs = 1000;
    std::string cluster = "helios";
    double load = 0.8;
    int maxGpus = 0;
    bool diurnal = false;
    unsigned long long seed = 1;
    std::vector<std::string> benchmarks;
};

// 0 written, 1 bad input (design, benchmark names; message on err), 2 wrong usage.
int traceCommand(const TraceOptions &options, std::ostream &out, std::ostream &err);
void addTraceSubcommand(CLI::App &app, TraceOptions &options);

} // namespace clab::cli
