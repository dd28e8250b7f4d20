#pragma once

#include "charts/chartdata.h"
#include "perf/model.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Turn rows (from the store or from the performance model) into ChartData. Pure functions.
namespace clab::charts {

// One run as the charts need it.
struct RunPoint
{
    std::string system;
    std::string benchmark;
    std::string metric; // time_to_train, score, throughput
    double value = 0;
    std::string unit;
    bool measured = true;
    std::optional<int> gpus; // from the run's details or the system description
    std::optional<int> globalBatch;
    std::string round;     // MLPerf round, when the run has one
    std::string precision; // as recorded ("AMP", "fp16", ...)
    // A predicted run may carry its breakdown (details compute_min, communication_min, input_min,
    // evaluation_min, as a generic CSV's extra columns): compute, communication, input, evaluation.
    std::optional<std::array<double, 4>> breakdownMin;
    bool breakdownOfEpoch = false; // breakdownMin is of one epoch (no convergence table)
    std::string study;             // the study a predicted point belongs to (details "study")
    // Energy and cost of a predicted run (details energy_kwh, cost_usd; perf/energy.h).
    std::optional<double> energyKwh;
    std::optional<double> costUsd;
};

struct BandwidthPoint
{
    std::string system;
    std::string tool;
    std::string test;
    std::string link; // h2d, d2h, p2p, local, collective, ...
    std::string from;
    std::string to;
    std::optional<std::int64_t> messageBytes;
    double gbps = 0;
};

// Time to train per system x benchmark: measured and predicted bars side by side, each pair
// labelled with the prediction's error. A pair's value is the mean of its MLPerf scores when it
// has any (the score is what MLPerf reports), else the mean of its time_to_train runs.
ChartData tttChart(const std::vector<RunPoint> &runs);

// Time to train (or throughput when there are no time-to-train runs) against the GPU count:
// measured points, the predicted curve and the ideal line through the smallest measured point
// (linear speed-up: t0 * n0 / n, or x0 * n / n0 for throughput). Runs without a GPU count are
// left out (said in notes).
ChartData scalingChart(const std::vector<RunPoint> &runs, bool logAxes = true);

// Peak bandwidth per link (host-to-device, device-to-host, peer-to-peer pairs): the largest
// measured GB/s over message sizes, beside what the fabric model says (`modelled`, may be empty).
ChartData bandwidthChart(const std::vector<BandwidthPoint> &measured,
                         const std::vector<BandwidthPoint> &modelled = {});

// The peer-to-peer matrix of one test (`test` empty: the first p2p bandwidth test in the rows).
ChartData heatmapChart(const std::vector<BandwidthPoint> &rows, const std::string &test = {});

// nccl-tests bus bandwidth against message size (log x), one series per test.
ChartData collectiveChart(const std::vector<BandwidthPoint> &rows);

// Where the time to train goes, one stacked bar per labelled prediction.
struct LabelledPrediction
{
    std::string label;
    perf::Prediction prediction;
};
ChartData breakdownChart(const std::vector<LabelledPrediction> &predictions);
// The same from predicted runs of a store that carry their breakdown ("system / benchmark").
ChartData breakdownChart(const std::vector<RunPoint> &runs);

// Predicted against measured, log-log: one point per prediction that has its measurement (same
// system, benchmark, round, global batch and precision), one series per benchmark with
// its median error, and the y = x, ±10 % and ±25 % lines. The newest prediction of a run counts
// (`runs` in stored order). Time to train when any pair has it, else throughput.
ChartData parityChart(const std::vector<RunPoint> &runs);

// The same pairs as parityChart, as the distribution of the signed error per benchmark:
// (predicted - measured) / measured in percent, a box per benchmark (P10, quartiles, median, P90,
// the points beyond). Positive means predicted slower for time to train, faster for throughput.
ChartData errorChart(const std::vector<RunPoint> &runs);

// Stacked bars of labelled breakdowns (compute, exposed communication, input stall, evaluation),
// each with its total as an annotation.
ChartData breakdownBars(const std::vector<std::pair<std::string, std::array<double, 4>>> &bars);

// The variants of a study side by side, each bar split into its breakdown: grouped by benchmark,
// the study's order within a group. A benchmark without a convergence table shows one epoch. The
// newest study of the runs is shown; when the bars would pass kMaxCategories, whole benchmarks
// are left out (said in notes).
ChartData compareChart(const std::vector<RunPoint> &runs);

// Time to train (or, without a convergence table, one epoch) against the run's cost or energy:
// a point per predicted run that carries them, one colour and shape per system, and the Pareto
// front (no other run is both faster and cheaper) drawn through the points on it. One benchmark:
// the one with the most points, the others named in notes.
enum class ParetoAgainst { Cost, Energy };
ChartData paretoChart(const std::vector<RunPoint> &runs, ParetoAgainst against);

} // namespace clab::charts
