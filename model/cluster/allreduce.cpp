#include "cluster/allreduce.h"

#include <algorithm>
#include <cmath>

namespace clab::cluster {

double alphaSeconds(int hops)
{
    return (20 + 40.0 * hops + 20) * 1e-9;
}

double torusAllreduceSeconds(double bytes, int k, double linkBytesPerS)
{
    return 4.0 * (k - 1) * alphaSeconds(1) + (double(k - 1) / k) * bytes / linkBytesPerS;
}

double twoRingsAllreduceSeconds(double bytes, long long n, double linkBytesPerS)
{
    return 2.0 * double(n - 1) * alphaSeconds(1)
           + (double(n - 1) / double(n)) * (bytes / 2) / linkBytesPerS;
}

namespace {

// One ring per plane over all N accelerators, each carrying S/planes: reduce-scatter then
// all-gather, 2(N−1) steps of S/N. `hops` is the longest hop between ring neighbours.
double ringSeconds(double bytes, long long n, double injectionBytesPerS, int hops)
{
    if (n < 2)
        return 0;
    return 2.0 * double(n - 1) * alphaSeconds(hops)
           + 2.0 * double(n - 1) / double(n) * bytes / injectionBytesPerS;
}

double hierarchicalSeconds(const Topology &t, double bytes)
{
    const double inj = t.injectionGBps() * 1e9;
    const long long n = t.accelerators;
    const long long d = std::min<long long>(t.leafDown, n);
    const long long leaves = (n + d - 1) / d;
    // Reduce-scatter and all-gather among the leaf's d accelerators (acc → leaf → acc: 2 links).
    double T = d > 1 ? 2.0 * double(d - 1) * alphaSeconds(2)
                           + 2.0 * double(d - 1) / double(d) * bytes / inj
                     : 0;
    if (leaves > 1) {
        // d rings of 1/d shards across the leaves; they share the leaf's u up-links per plane.
        const double perAcc = std::min(inj, inj * t.leafUp / double(d));
        T += 2.0 * double(leaves - 1) * alphaSeconds(2 * t.levels)
             + 2.0 * double(leaves - 1) / double(leaves) * (bytes / double(d)) / perAcc;
    }
    return T;
}

} // namespace

AllreducePoint allreduce(const Topology &t, double bytes)
{
    const double B = t.linkGBps * 1e9;
    const long long n = t.accelerators;
    AllreducePoint best{bytes, 0, 0, ""};
    auto consider = [&](double seconds, const char *name) {
        if (best.algorithm.empty() || seconds < best.seconds) {
            best.seconds = seconds;
            best.algorithm = name;
        }
    };
    switch (t.family) {
    case Family::Torus:
        if (t.dims.size() == 2 && t.dims[0] == t.dims[1])
            consider(torusAllreduceSeconds(bytes, t.dims[0], B), "torus");
        consider(twoRingsAllreduceSeconds(bytes, n, B), "two rings");
        break;
    case Family::HammingMesh:
        consider(twoRingsAllreduceSeconds(bytes, n, B), "two rings");
        break;
    case Family::FatTree:
        consider(hierarchicalSeconds(t, bytes), "hierarchical");
        break;
    case Family::RailFatTree:
        consider(ringSeconds(bytes, n, t.injectionGBps() * 1e9, 4), "ring");
        break;
    case Family::Dragonfly:
        consider(ringSeconds(bytes, n, t.injectionGBps() * 1e9, 5), "ring");
        break;
    case Family::HyperX:
        consider(ringSeconds(bytes, n, t.injectionGBps() * 1e9, 3), "ring");
        break;
    }
    best.GBps = best.seconds > 0 ? bytes / best.seconds / 1e9 : 0;
    return best;
}

std::vector<AllreducePoint> allreduceSweep(const Topology &t, const std::vector<double> &sizes)
{
    std::vector<AllreducePoint> out;
    for (double s : sizes)
        out.push_back(allreduce(t, s));
    return out;
}

std::vector<double> defaultMessageSizes()
{
    std::vector<double> sizes;
    for (int e = 10; e <= 30; e += 4)
        sizes.push_back(std::ldexp(1.0, e));
    return sizes;
}

} // namespace clab::cluster
