#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace clab::catalog {
struct Gpu;
}

namespace clab::perf {

// The key of a GPU's form-factor factor: "Ampere SXM4", "Hopper PCIe".
std::string gpuKey(const catalog::Gpu &gpu);

// The fitted efficiency factors of the performance model. Each belongs to a benchmark, a GPU
// architecture, an intra-node link kind or a software year (MLPerf round) — never to a system or
// a submitter. Written by `composelab calibrate` with the data it came from; the shipped one is
// datasets/calibration.json.
struct Calibration
{
    std::map<std::string, double, std::less<>> benchEfficiency; // workload id -> fraction of peak
    std::map<std::string, double, std::less<>> benchOverheadMs; // workload id -> fixed ms per step
    std::map<std::string, double, std::less<>> archFactor;      // "Ampere" -> multiplies efficiency
    std::map<std::string, double, std::less<>>
        benchArchFactor; // "bert_large/Hopper" -> multiplies efficiency
    std::map<std::string, double, std::less<>> gpuFactor; // "Ampere PCIe" -> clocks, power limit
    std::map<std::string, double, std::less<>>
        benchRoundFactor; // "bert_large/3.0" -> that benchmark's software that year
    std::map<std::string, double, std::less<>> roundFactor; // "4.0", "dle" -> multiplies efficiency
    std::map<std::string, double, std::less<>>
        linkFactor;       // "nvswitch" -> multiplies ring bandwidth
    double overlap = 0.7; // share of the backward pass that gradient traffic can hide behind
    std::vector<std::string> inputs; // files (and their hashes) it was fitted on
    int rows = 0;                    // rows used
    std::string fittedAt;            // ISO date

    static const Calibration &builtin();
    static Calibration fromJson(std::string_view text, const std::string &fileName);
    std::string toJson() const;

    // Lookups with the fallbacks the model uses: 1 for an unknown architecture or link; for an
    // unknown round the newest round at or before it, else 1.
    double efficiency(std::string_view bench) const;
    double overheadS(std::string_view bench) const;
    double arch(std::string_view a) const;
    double benchArch(std::string_view bench, std::string_view arch) const;
    double gpu(const catalog::Gpu &gpu) const;
    double benchRound(std::string_view bench, std::string_view round) const;
    double round(std::string_view r) const;
    double link(std::string_view l) const;
};

} // namespace clab::perf
