#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clab::schedule {

// One job of a trace: it arrives at `submitS`, asks for `gpus` GPUs and runs `durationS` once
// it has them.
struct Job
{
    double submitS = 0;
    int gpus = 0;
    double durationS = 0;
    std::string benchmark; // optional: what it trains
    std::string user;      // optional
    int line = 0;          // in the trace file, for messages
};

// Reads a trace CSV with the columns submit_s, gpus, duration_s (any order; benchmark and user
// optional, others ignored). Throws InputError naming the file, the line and column and what was
// expected: a time that is negative or not a number, GPUs that are not a whole number from 1 to
// `maxGpus` (the design's), a missing column. Jobs come back sorted by submission time (stable).
std::vector<Job> readTrace(std::string_view text, const std::string &file, int maxGpus);

} // namespace clab::schedule
