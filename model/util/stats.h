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

// A running mean; NaN before the first value.
struct Mean
{
    double sum = 0;
    int n = 0;
    void add(double v) { sum += v, ++n; }
    double value() const { return n ? sum / n : std::numeric_limits<double>::quiet_NaN(); }
};

} // namespace clab
