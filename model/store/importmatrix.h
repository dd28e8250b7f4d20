#pragma once

// The device × device matrices of p2pBandwidthLatencyTest and nvbandwidth (importtools.cpp,
// importnvbandwidth.cpp).
#include "util/limits.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::store {

class ImportSession;

namespace toolio {

// A device number of a matrix header or row: a small whole number, or the file is bad.
int deviceIndex(const std::string &path, std::size_t line, const std::string &token);

// Reads a matrix from line `i` on: a header of column device numbers (blank lines before it are
// passed over), then one row per device. `square` matrices (device × device) must be complete;
// others (nvbandwidth's CPU × GPU) end at a blank line. "N/A" cells are passed over; every other
// cell must be a number, inside `range` when one is given (otherwise `cell` checks it), and is
// given to `cell` with its row and column devices and its line index. Returns the index of the
// line after the matrix.
std::size_t
readMatrix(ImportSession &s, const std::string &path, const std::vector<std::string_view> &all,
           std::size_t i, bool square, const limits::Range *range,
           const std::function<void(int row, int column, double v, std::size_t at)> &cell);

} // namespace toolio
} // namespace clab::store
