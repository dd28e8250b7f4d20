#include "cluster/paperqueue.h"

#include "cluster/splitmix.h"
#include "util/embedded.h"
#include "util/jsonreader.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace clab::cluster {

namespace {

constexpr const char *kFile = "datasets/hammingmesh_job_sizes.json";

struct SizeShare
{
    int boards;
    double cumulativePercent;
};

const std::vector<SizeShare> &jobSizeCdf()
{
    static const std::vector<SizeShare> cdf = [] {
        const Json j = parseJson(embeddedText(kFile), kFile);
        std::vector<SizeShare> out;
        for (const Json &row : j.at("cdf"))
            out.push_back({row.at(0).get<int>(), row.at(1).get<double>()});
        if (out.empty() || !std::is_sorted(out.begin(), out.end(), [](auto &l, auto &r) {
                return l.cumulativePercent < r.cumulativePercent;
            }))
            throw std::logic_error(std::string(kFile) + ": cdf must rise");
        return out;
    }();
    return cdf;
}

int drawSize(SplitMix &rng)
{
    const auto &cdf = jobSizeCdf();
    const double u = rng.uniform() * cdf.back().cumulativePercent;
    const auto it = std::upper_bound(cdf.begin(), cdf.end(), u, [](double v, const SizeShare &s) {
        return v < s.cumulativePercent;
    });
    return it == cdf.end() ? cdf.back().boards : it->boards;
}

} // namespace

std::pair<int, int> squarestFactors(int n)
{
    int a = 1;
    for (int d = 1; 1LL * d * d <= n; ++d) {
        if (n % d == 0)
            a = d;
    }
    return {a, n / a};
}

std::vector<int> paperJobSizes(int x, int y, long long healthyBoards, std::uint64_t seed)
{
    const int halfShort = std::min(x, y) / 2, halfLong = std::max(x, y) / 2;
    SplitMix rng{seed};
    std::vector<int> jobs;
    long long left = healthyBoards;
    // A grid below 2×2 has no shape within half of it; the draw would never end.
    if (halfShort < 1)
        return jobs;
    while (left > 0) {
        const int size = int(std::min<long long>(drawSize(rng), left));
        const auto [a, b] = squarestFactors(size);
        if (a > halfShort || b > halfLong)
            continue;
        jobs.push_back(size);
        left -= size;
    }
    return jobs;
}

std::string paperSystemName(int boardA, int boardB, int x, int y)
{
    if (boardA != boardB)
        return {};
    return "Hx" + std::to_string(boardA) + "Mesh " + std::to_string(x) + "x" + std::to_string(y);
}

std::vector<std::pair<long long, double>> paperUtilisation(int boardA, int boardB, int x, int y)
{
    const Json j = parseJson(embeddedText(kFile), kFile);
    const Json &systems = j.at("paper_utilisation");
    const std::string name = paperSystemName(boardA, boardB, x, y);
    std::vector<std::pair<long long, double>> out;
    if (name.empty() || !systems.contains(name))
        return out;
    for (const auto &[faulty, utilisation] : systems.at(name).items())
        out.emplace_back(std::stoll(faulty), utilisation.get<double>());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::uint8_t> faultyBoards(int x, int y, long long count, std::uint64_t seed)
{
    const std::size_t n = std::size_t(x) * std::size_t(y);
    std::vector<std::uint32_t> at(n);
    std::iota(at.begin(), at.end(), 0u);
    SplitMix rng{seed};
    std::vector<std::uint8_t> faulty(n, 0);
    const std::size_t k = std::size_t(std::clamp<long long>(count, 0, (long long)n));
    for (std::size_t i = 0; i < k; ++i) { // partial Fisher-Yates
        std::swap(at[i], at[i + std::size_t(rng.below(n - i))]);
        faulty[at[i]] = 1;
    }
    return faulty;
}

} // namespace clab::cluster
