#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// What ComposeLab agrees to read, in one place. Each limit sits far above any real input and low
// enough that a hostile or broken file is refused with a message naming it before it can exhaust
// memory, overflow the stack or keep an analysis busy for hours. Design-file limits are documented
// in model/design/FORMAT.md, the store's in the README's "Limits" section: change them together.
namespace clab::limits {

// Any one file read as text (imports, tables, calibration files). The 712-row MLPerf calibration
// table is 0.4 MB; a parsed table takes several times its size in memory.
inline constexpr std::uint64_t kMaxTextFileBytes = 256ull << 20;
// A design file. The 100,000-device pool of generatePool(), the most devices a design may have,
// is 23 MB as writeDesign() writes it.
inline constexpr std::uint64_t kMaxDesignFileBytes = 64ull << 20;

// JSON nesting. A design is 5 levels deep and an MLPerf system file 3; nlohmann parses without
// recursion, but copying and dump() recurse once per level, so a file of a million '[' would
// overflow the stack long after parsing succeeded.
inline constexpr int kMaxJsonDepth = 64;
// Entries of one JSON array or object in any file ComposeLab reads.
inline constexpr std::size_t kMaxJsonItems = 1'000'000;
// Entries of one array of a design (hosts, chassis, switches, devices, links, systems) or of its
// layout positions: 100 times the 1,000-device pool the analysis is benchmarked on.
inline constexpr std::size_t kMaxDesignItems = 100'000;
// Ordered device pairs of the composed systems, summed: n * (n - 1) for a system listing n devices.
// The analysis computes a route for each, about 1.5 us a pair; 10^6 pairs is 1,000 systems of 32
// devices (the largest composable systems sold put 32 GPUs behind one host: GigaIO SuperNODE).
inline constexpr std::size_t kMaxPeerPairs = 1'000'000;
// NIC-to-NIC routes between networked systems in one analysis: pairs of systems grow with the
// square of their number, and each route searches the whole network (model/fabric/analysis.cpp):
// 2,000 routes through one switch of 25,000 NICs take about 3 s. 45 single-NIC systems, or 128
// systems of 8 NICs each to their next, fit.
inline constexpr std::size_t kMaxNetworkRoutes = 2'000;
// Canvas positions: scene coordinates are turned into ints when drawn.
inline constexpr double kMaxCoordinate = 1e9;

// A closed (or, with lowOpen, left-open) range for a number read from a file, and what it is.
struct Range
{
    double low;
    double high;
    bool lowOpen; // true: low itself is refused (a time or a rate must be above zero)
    const char *what;
};

// Times to train and scores, in minutes: 10^7 minutes is 19 years.
inline constexpr Range kMinutes{0, 1e7, true, "a time in minutes"};
// Training throughput (samples, images or tokens per second); the largest shipped row is 1.65e7.
inline constexpr Range kThroughput{0, 1e12, true, "a throughput"};
// Global batch sizes, in samples or tokens (the largest in the MLPerf calibration table: 737,280).
inline constexpr Range kBatch{1, 1e9, false, "a batch size"};
// GPUs in one measured system.
inline constexpr Range kGpuCount{1, 1e6, false, "a GPU count"};
// Message and transfer sizes in bytes (nccl-tests and bandwidthTest go to a few GB).
inline constexpr Range kBytes{0, 1e15, false, "a size in bytes"};
// Bandwidths in GB/s: an NVLink 5 GPU moves 1,800 GB/s; 10^6 is a thousand times the fastest.
inline constexpr Range kBandwidth{0, 1e6, false, "a bandwidth in GB/s"};
// Latencies and durations in microseconds: 10^12 us is 11.6 days.
inline constexpr Range kMicroseconds{0, 1e12, false, "a time in microseconds"};
// Device numbers in tool output matrices (GPU0 ... GPU4095).
inline constexpr Range kDeviceIndex{0, 4095, false, "a device number"};
// MLPerf's scaling.json factor (reference convergence points; about 1.0 to 1.3 in practice).
inline constexpr Range kScalingFactor{0, 100, true, "a scaling factor"};
// Times and rates in a unit the file chooses (generic tables): above zero.
inline constexpr Range kPositiveValue{0, 1e15, true, "a value"};
// Any other measured value: finite and below 10^15 in magnitude.
inline constexpr Range kAnyValue{-1e15, 1e15, false, "a value"};

// Empty when `value` is finite and inside `range`; otherwise what was expected and found, e.g.
// "expected a batch size from 1 to 1e+09, found -3".
std::string rangeProblem(double value, const Range &range);
// As rangeProblem, and the value must be a whole number.
std::string wholeRangeProblem(double value, const Range &range);
// Throws InputError(file, place, "<label>: <problem>") when the value is out of range.
double requireInRange(double value, const Range &range, const std::string &file,
                      const std::string &place, const std::string &label);
double requireWholeInRange(double value, const Range &range, const std::string &file,
                           const std::string &place, const std::string &label);

// "64 MB", "1.5 GB": sizes in messages about file limits (MB = 2^20 bytes, as the limits are).
std::string byteSize(std::uint64_t bytes);

} // namespace clab::limits
