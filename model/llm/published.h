#pragma once

#include "llm/plan.h"

#include <string>
#include <vector>

namespace clab::llm {

// The GPU of every published run the planner's efficiency is fitted to.
inline constexpr const char *kPublishedGpu = "A100-SXM4-80GB";

// A run of Megatron-LM with a published iteration time or throughput (datasets/llm/*.json), as
// the model sees it: the planner's validation and the data its one GEMM efficiency is fitted to.
struct PublishedRun
{
    std::string table; // the file's name without ".json", e.g. "korthikanti2022"
    Shape shape;
    long long gpus = 0;
    Plan plan;
    // Narayanan et al. 2021 do not publish the micro-batch or the interleaving: the fastest that
    // fits of micro-batch 1, 2, 4, 8 and 1-8 chunks a stage stands for the authors' tuning.
    bool tuned = false;
    bool throughput = false; // published is TFLOP/s a GPU (else an iteration time, s)
    double published = 0;
};

// Reads a table of published runs: rows with an iteration time (iterationS, and fullRecomputeS
// for the same run with full recomputation: two runs) or with achieved TFLOP/s a GPU (tflops).
// A missing or mistyped field is an InputError naming the file and the field.
std::vector<PublishedRun> readPublishedRuns(const std::string &path);

// The tables of several files, one a publication. A publication is known by its file's name
// (the fit's worst-table objective, the calibration's keys): two files of one name, or one file
// given twice, are an InputError rather than one publication counted as two or merged.
std::vector<std::vector<PublishedRun>> readPublishedTables(const std::vector<std::string> &paths);

struct PublishedCheck
{
    const PublishedRun *run = nullptr;
    Plan plan; // as run (the tuned one for Narayanan's rows)
    double model = 0;
    bool fits = true;
    double error() const { return model / run->published - 1; }
};

// The model's figure for one run on A100-SXM4-80GB nodes of 8 (200 Gb/s a GPU), with the GEMM
// efficiency given (hardwareOf's own when negative).
PublishedCheck checkPublished(const PublishedRun &run, double efficiency = -1);

struct ErrorSummary
{
    double mean = 0;  // mean absolute error
    double worst = 0; // largest absolute error
    int runs = 0;
};
ErrorSummary summarize(const std::vector<PublishedCheck> &checks);

// The one GEMM efficiency (0.5-1, to 0.001) whose worst table has the least mean absolute error.
double fitEfficiency(const std::vector<PublishedRun> &runs);

// The planner's GEMM efficiency: datasets/llm_calibration.json (written by `composelab calibrate
// --llm`), always built in; std::logic_error if the build lacks it.
double fittedEfficiency();

} // namespace clab::llm
