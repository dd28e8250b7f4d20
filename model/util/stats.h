#pragma once

// Small statistics the charts, the link fit and the GPU rates share.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace clab {

// The middle value (the mean of the middle two for an even count); 0 for none.
inline double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The q-quantile of sorted values, interpolating linearly between order statistics (type 7, as
// R and NumPy by default); `sorted` must not be empty.
inline double quantileOfSorted(const std::vector<double> &sorted, double q)
{
    const double pos = q * double(sorted.size() - 1);
    const auto lo = std::size_t(pos);
    const std::size_t hi = std::min(sorted.size() - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

// A running mean; NaN before the first value.
struct Mean
{
    double sum = 0;
    int n = 0;
    void add(double v) { sum += v, ++n; }
    double value() const { return n ? sum / n : std::numeric_limits<double>::quiet_NaN(); }
};

} // namespace clab
