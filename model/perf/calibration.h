#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clab::perf {

// What the physics of a benchmark cannot know, fitted once across every GPU it ran on. None of
// these belongs to a GPU, a system or a submitter (see model/perf/MODEL.md).
struct BenchParams
{
    // Share of the GPU's measured large-GEMM rate the benchmark's matrix math reaches (layer
    // shapes, small batches, kernels that are not GEMMs). At most 1.
    double gemmEfficiency = 0.5;
    // Multiplies the benchmark's estimated memory-bound bytes per sample (workload
    // memoryBytesPerSample): fusion and caching that an estimate cannot count.
    double memoryScale = 1;
    // Fixed time per forward/backward pass: kernel launches, framework and host work.
    double overheadMs = 1;
    // Fixed time per evaluation: the pass's set-up, gathering and scoring the result.
    double evalOverheadS = 1;
    int rows = 0; // calibration rows behind these (0: not recorded)
};

// A prediction's uncertainty: quantiles of log(predicted / measured) on rows held out of the
// fit, so that [predicted · exp(-p90), predicted · exp(-p10)] covers 80 % of outcomes.
struct Interval
{
    double p10 = 0;
    double p90 = 0;
    int rows = 0;
};

// The fitted factors of the performance model. Written by `composelab calibrate` with the data it
// came from; the shipped one is datasets/calibration.json.
struct Calibration
{
    std::map<std::string, BenchParams, std::less<>> bench; // workload id -> parameters
    // Share of one micro-batch's backward pass that gradient traffic can hide behind.
    double overlap = 0.7;
    // How much the host's share of a step (the per-pass overhead, all k passes of a node varying
    // together) varies from node to node, in units of it. A step's collectives wait for the
    // slowest of N nodes: hostJitter · overhead · sqrt(2 ln N), the large-N form of the expected
    // maximum of N normal delays (it overstates the maximum on a few nodes; see MODEL.md).
    double hostJitter = 0;
    // Software stacks ("mlperf-4.1", "ngc-dle", ...): a factor on compute time, shrunk towards 1
    // (all stacks), and for a benchmark on a stack, shrunk towards the stack's factor.
    std::map<std::string, double, std::less<>> software;
    std::map<std::string, double, std::less<>> benchSoftware; // "resnet50/mlperf-4.1"
    std::string defaultSoftware; // what predictions use when none is named
    // Held-out error quantiles: "resnet50/Ampere", "resnet50", "Ampere" and "" (all rows) from
    // the 5-fold cross-validation by system; "arch-out" from fits without the GPU's whole
    // architecture, for GPUs of an architecture the fit has not seen.
    std::map<std::string, Interval, std::less<>> intervals;
    // Architectures with at least 8 rows in the fit. Absent in a file written before the list
    // existed: every architecture then counts as seen, as that file's fit did not say.
    std::optional<std::set<std::string, std::less<>>> architectures;
    std::vector<std::string> inputs; // files (and their hashes) it was fitted on
    int rows = 0;
    std::string fittedAt; // ISO date
    std::string report;   // the validation summary `calibrate` printed, for people

    static const Calibration &builtin();
    static Calibration fromJson(std::string_view text, const std::string &fileName);
    std::string toJson() const;

    // The benchmark's parameters, or nullptr when it has no calibration rows.
    const BenchParams *params(std::string_view bench) const;
    // For a benchmark without rows: the median of each parameter over the calibrated ones.
    BenchParams typical() const;
    // The software factor of a benchmark on a stack. A stack the calibration lacks takes the
    // average of the nearest calibrated MLPerf rounds before and after it (software years), and
    // `note` says so; an unknown stack that is not an MLPerf round gives 1.
    double softwareFactor(std::string_view bench, std::string_view stack,
                          std::string *note = nullptr) const;
    bool knowsSoftware(std::string_view stack) const;
    // Whether the fit saw enough rows of this GPU architecture to have learnt it.
    bool sawArchitecture(std::string_view arch) const
    {
        return !architectures || architectures->count(arch);
    }
    // How far an uncalibrated stack that is not an MLPerf round may sit from the factor 1 that
    // stands in for it: P10 and P90 of the calibrated framework stacks' factors on this benchmark
    // (of their stack factors alone when fewer than 3 have one), as {lo, hi}; {1, 1} when none.
    std::pair<double, double> frameworkSpread(std::string_view bench) const;
    // The interval of a benchmark on an architecture: its own cell when it has enough rows,
    // else the benchmark's, the architecture's, then all rows.
    Interval interval(std::string_view bench, std::string_view arch) const;
};

// "4.1" -> "mlperf-4.1"; "dle" -> "ngc-dle"; other names unchanged.
std::string softwareKey(std::string_view roundOrStack);

} // namespace clab::perf
