#pragma once

#include <cstdint>

namespace clab::cluster {

// SplitMix64 (Steele, Lea, Flood 2014): small, fast and identical on every platform, so a seed
// gives the same job queue and the same faults everywhere.
struct SplitMix
{
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
    std::uint64_t below(std::uint64_t n) { return std::uint64_t(uniform() * double(n)); }
};

} // namespace clab::cluster
