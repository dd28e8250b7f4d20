#include "util/limits.h"

#include "util/inputerror.h"

#include <cmath>
#include <cstdio>

namespace clab::limits {

namespace {

// Fifteen significant digits: device numbers, byte counts and batch sizes print whole, and
// 1e+300 stays short.
std::string shortNumber(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.15g", v);
    return buffer;
}

} // namespace

std::string rangeProblem(double value, const Range &range)
{
    const bool below = range.lowOpen ? !(value > range.low) : !(value >= range.low);
    if (std::isfinite(value) && !below && value <= range.high)
        return {};
    std::string expected = std::string("expected ") + range.what;
    if (range.lowOpen)
        expected += " above " + shortNumber(range.low) + " and up to " + shortNumber(range.high);
    else
        expected += " from " + shortNumber(range.low) + " to " + shortNumber(range.high);
    return expected + ", found " + shortNumber(value);
}

std::string wholeRangeProblem(double value, const Range &range)
{
    std::string problem = rangeProblem(value, range);
    if (problem.empty() && value != std::floor(value))
        problem = std::string("expected ") + range.what + " as a whole number, found "
                  + shortNumber(value);
    return problem;
}

double requireInRange(double value, const Range &range, const std::string &file,
                      const std::string &place, const std::string &label)
{
    const std::string problem = rangeProblem(value, range);
    if (!problem.empty())
        throw InputError(file, place, label.empty() ? problem : label + ": " + problem);
    return value;
}

double requireWholeInRange(double value, const Range &range, const std::string &file,
                           const std::string &place, const std::string &label)
{
    const std::string problem = wholeRangeProblem(value, range);
    if (!problem.empty())
        throw InputError(file, place, label.empty() ? problem : label + ": " + problem);
    return value;
}

std::string byteSize(std::uint64_t bytes)
{
    const double mb = double(bytes) / double(1 << 20);
    char buffer[32];
    if (bytes < (1u << 20))
        std::snprintf(buffer, sizeof buffer, "%llu bytes", static_cast<unsigned long long>(bytes));
    else if (mb >= 1024)
        std::snprintf(buffer, sizeof buffer, "%.1f GB", mb / 1024);
    else if (mb >= 10 || mb == std::floor(mb))
        std::snprintf(buffer, sizeof buffer, "%.0f MB", mb);
    else
        std::snprintf(buffer, sizeof buffer, "%.1f MB", mb);
    return buffer;
}

} // namespace clab::limits
