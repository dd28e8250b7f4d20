#pragma once

// What nvbandwidth's text (importnvbandwidth.cpp) and JSON (importnvbandwidthjson.cpp) outputs
// share: the meaning of a matrix, told by its test name and title, and how a cell is stored.
#include <cstdint>
#include <string>

namespace clab::store {

class ImportSession;

namespace toolio {

class FileReport;

// A matrix title such as "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)" or "memory latency
// SM CPU(row) <-> GPU(column) (ns)".
struct NvbandwidthMatrix
{
    std::string test;
    bool reverse = false; // "<-": data flows from the column's device to the row's
    bool latency = false;
    double toUs = 1.0; // (ns) latencies become microseconds
    std::string rowKind = "GPU";
    std::string columnKind = "GPU";
    std::string link;
};

NvbandwidthMatrix nvbandwidthMatrix(const std::string &test, const std::string &title);

// Stores one cell read at `place`; throws InputError for a value that cannot be a measurement.
void addNvbandwidthCell(ImportSession &s, std::int64_t sourceId, FileReport &report,
                        const std::string &path, const NvbandwidthMatrix &m, int row, int column,
                        double v, const std::string &place);

} // namespace toolio
} // namespace clab::store
