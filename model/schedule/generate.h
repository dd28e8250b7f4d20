#pragma once

#include "schedule/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clab::schedule {

// A synthetic job trace drawn from the published job-size and duration distributions of the
// Helios GPU clusters (Hu et al., SC21; datasets/helios_jobs.json, with its sources): sizes and
// durations drawn independently from one cluster's (or all four pooled) distributions, sizes
// above `maxGpus` drawn again; arrivals a Poisson process whose rate offers `load` of
// `totalGpus` (offered GPU-seconds per second over GPUs, from the drawn jobs themselves), with
// `diurnal` the rate following Helios Venus' mean submissions per hour of day from a random
// time of day (the load holds over whole days). With
// `benchmarks`, each job names one of them, drawn uniformly.
struct TraceSpec
{
    std::string cluster = "helios"; // helios (pooled), venus, earth, saturn, uranus
    int jobs = 1000;
    int totalGpus = 0; // the design's
    int maxGpus = 0;   // largest job; 0: totalGpus
    double load = 0.8;
    bool diurnal = false;
    std::uint64_t seed = 1;
    std::vector<std::string> benchmarks;
};

// Throws std::invalid_argument for an unknown cluster, no GPUs, or a load or job count out of
// range (the message names the field).
std::vector<Job> generateTrace(const TraceSpec &spec);
// The clusters generateTrace knows.
std::vector<std::string> traceClusters();
// As readTrace reads it: submit_s,gpus,duration_s[,benchmark].
std::string traceCsv(const std::vector<Job> &jobs);

} // namespace clab::schedule
