#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace clab::cli {

struct AnalyzeOptions
{
    std::string file;
    bool json = false;
    std::string db; // the store whose measurements of the same systems are shown; "" for none
};
int analyzeCommand(const AnalyzeOptions &options, std::ostream &out, std::ostream &err);

struct BenchOptions
{
    bool json = false;
    std::string filter; // run only benchmarks whose name contains this
};
int benchCommand(const BenchOptions &options, std::ostream &out, std::ostream &err);

struct PredictOptions
{
    std::string file;
    std::string system; // empty: the first composed system
    std::string benchmark;
    int globalBatch = 0;   // 0: a default from the convergence table
    std::string precision; // empty: the benchmark's default
    int nodes = 1;         // copies of the system joined by its network
    std::string cluster; // the network joining them: "fattree:taper=2", "rail"; empty: the design's
    std::string software; // a calibrated stack ("mlperf-4.1", "ngc-dle"); empty: the default
    std::string loader;   // "dali", "cpu", ...; empty: the benchmark's default
    bool json = false;
    std::string saveDb; // when set: keep the prediction in this experiment store
};
int predictCommand(const PredictOptions &options, std::ostream &out, std::ostream &err);

struct CalibrateOptions
{
    std::vector<std::string> files;
    std::string out;
    bool crossValidate = true;
    // --bandwidth DB: fit the links' achieved fractions from the store's bandwidth measurements
    // instead (files are then not read; --out, when given, gets the fits as JSON).
    std::string bandwidthDb;
    // --llm FILE...: fit the LLM planner's GEMM efficiency to published Megatron-LM runs instead
    // (datasets/llm/*.json; --out gets datasets/llm_calibration.json's content).
    std::vector<std::string> llmFiles;
    bool json = false;
};
int calibrateCommand(const CalibrateOptions &options, std::ostream &out, std::ostream &err);

struct ValidateOptions
{
    std::vector<std::string> files; // MLPerf results or training-throughput tables
    std::string calibration;        // empty: the shipped datasets/calibration.json
    std::string groupOut;           // "architecture", "round" or "system": fit without each group
    bool physicsOnly = false;       // with groupOut: fit one GEMM efficiency per benchmark only
    bool recordedSamples = false;   // rows train the samples their runs recorded
    bool json = false;
    std::string save; // also keep the predictions as predicted runs in this store
};
int validateCommand(const ValidateOptions &options, std::ostream &out, std::ostream &err);

} // namespace clab::cli
