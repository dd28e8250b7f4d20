#include "store/importmatrix.h"

#include "store/importlines.h"

namespace clab::store::toolio {

int deviceIndex(const std::string &path, std::size_t line, const std::string &token)
{
    const auto v = parseNumber(token);
    const std::string problem = v ? limits::wholeRangeProblem(*v, limits::kDeviceIndex)
                                  : "\"" + token + "\" is not a device number";
    if (!problem.empty())
        bad(path, line, problem);
    return int(*v);
}

std::size_t readMatrix(ImportSession &s, const std::string &path,
                       const std::vector<std::string_view> &all, std::size_t i, bool square,
                       const limits::Range *range,
                       const std::function<void(int, int, double, std::size_t)> &cell)
{
    while (i < all.size() && tokens(all[i]).empty())
        ++i;
    if (i >= all.size())
        bad(path, all.size() - 1, "matrix without a header (output cut short?)");
    const auto header = tokens(all[i]);
    // p2pBandwidthLatencyTest labels the corner ("D\\D", "GPU", "CPU"); nvbandwidth leaves it
    // empty.
    const std::size_t first = !header.empty() && parseNumber(header[0]) ? 0 : 1;
    std::size_t columns = 0;
    for (std::size_t c = first; c < header.size(); ++c)
        columns += parseNumber(header[c]) ? 1 : 0;
    if (columns == 0 || columns + first != header.size())
        bad(path, i,
            "expected a matrix header of device numbers, found \"" + trimmed(all[i]) + "\"");
    std::vector<int> columnDevice;
    for (std::size_t c = first; c < header.size(); ++c)
        columnDevice.push_back(deviceIndex(path, i, header[c]));
    std::size_t r = 0;
    for (;; ++r) {
        const std::size_t at = i + 1 + r;
        if (!square && (at >= all.size() || tokens(all[at]).empty())) {
            if (r == 0)
                bad(path, std::min(at, all.size() - 1), "matrix without rows (output cut short?)");
            break;
        }
        if (square && r == columns)
            break;
        if (at >= all.size())
            bad(path, all.size() - 1,
                "matrix ends after " + std::to_string(r) + " of " + std::to_string(columns)
                    + " rows (output cut short?)");
        s.row(at, all.size(), path);
        const auto t = tokens(all[at]);
        if (t.size() != columns + 1)
            bad(path, at,
                "expected a row of " + std::to_string(columns)
                    + " values after the device number, found \"" + trimmed(all[at]) + "\"");
        for (std::size_t c = 0; c < columns; ++c) {
            if (t[c + 1] == "N/A")
                continue;
            const auto v = parseNumber(t[c + 1]);
            if (!v)
                bad(path, at, "\"" + t[c + 1] + "\" is not a number");
            if (range) {
                if (const std::string problem = limits::rangeProblem(*v, *range); !problem.empty())
                    bad(path, at, problem);
            }
            cell(deviceIndex(path, at, t[0]), columnDevice[c], *v, at);
        }
    }
    return i + 1 + r;
}

} // namespace clab::store::toolio
