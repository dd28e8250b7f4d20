#include "cluster/placement.h"

#include "cluster/paperqueue.h"
#include "cluster/splitmix.h"
#include "cluster/submesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

namespace clab::cluster {

namespace {

// Boards taken (faulty or allocated) as a summed-area table, so that a block is free when its
// sum is 0: O(1) a test, O(x·y) to rebuild after a placement.
struct Occupancy
{
    int x, y;
    std::vector<std::uint8_t> taken;
    std::vector<int> sum; // (x+1)·(y+1)

    void rebuild()
    {
        sum.assign(std::size_t((x + 1) * (y + 1)), 0);
        for (int r = 0; r < x; ++r) {
            for (int c = 0; c < y; ++c)
                sum[std::size_t((r + 1) * (y + 1) + c + 1)]
                    = taken[std::size_t(r * y + c)] + sum[std::size_t(r * (y + 1) + c + 1)]
                      + sum[std::size_t((r + 1) * (y + 1) + c)] - sum[std::size_t(r * (y + 1) + c)];
        }
    }
    bool isFree(int r, int c, int h, int w) const
    {
        auto at = [&](int i, int j) { return sum[std::size_t(i * (y + 1) + j)]; };
        return at(r + h, c + w) - at(r, c + w) - at(r + h, c) + at(r, c) == 0;
    }
    void take(int r, int c, int h, int w)
    {
        for (int i = r; i < r + h; ++i) {
            for (int j = c; j < c + w; ++j)
                taken[std::size_t(i * y + j)] = 1;
        }
        rebuild();
    }
};

void record(PlacementResult &res, Block block, int boards)
{
    ++res.placedJobs;
    res.requestedBoards += boards;
    res.allocatedBoards += 1LL * block.rows * block.cols;
    res.blocks.push_back(std::move(block));
}

bool placeOne(Occupancy &occ, int job, int boards, PlacementResult &res)
{
    for (const auto &[h, w] : blockShapes(boards, occ.x, occ.y)) {
        for (int r = 0; r + h <= occ.x; ++r) {
            for (int c = 0; c + w <= occ.y; ++c) {
                if (occ.isFree(r, c, h, w)) {
                    occ.take(r, c, h, w);
                    record(res, {job, r, c, h, w, {}, {}}, boards);
                    return true;
                }
            }
        }
    }
    return false;
}

bool placeSubmesh(FreeBoards &grid, int job, int boards, int x, int y, PlacementResult &res)
{
    std::vector<int> rows, cols;
    for (const auto &[h, w] : submeshShapes(boards, x, y)) {
        if (grid.find(h, w, rows, cols)) {
            grid.take(rows, cols);
            record(res, {job, rows.front(), cols.front(), h, w, rows, cols}, boards);
            return true;
        }
    }
    return false;
}

} // namespace

std::vector<std::pair<int, int>> submeshShapes(int boards, int x, int y)
{
    std::vector<std::tuple<double, int, int>> exact; // -(short/long), h, w
    for (int h = 1; h <= std::min(x, boards); ++h) {
        if (boards % h != 0 || boards / h > y)
            continue;
        const int w = boards / h;
        exact.emplace_back(-double(std::min(h, w)) / std::max(h, w), h, w);
    }
    std::stable_sort(exact.begin(), exact.end());
    std::vector<std::pair<int, int>> shapes;
    const int squarestShort = squarestFactors(boards).first;
    for (const auto &[ratio, h, w] : exact) {
        if (-ratio >= 1.0 / 8 || std::min(h, w) == squarestShort)
            shapes.emplace_back(h, w);
    }
    for (const auto &s : blockShapes(boards, x, y)) {
        if (s.first * s.second != boards)
            shapes.push_back(s);
    }
    return shapes;
}

std::vector<std::pair<int, int>> blockShapes(int boards, int x, int y)
{
    std::vector<std::tuple<bool, int, int, int, int>> keyed; // long?, area, |h-w|, h, w
    for (int h = 1; h <= x; ++h) {
        for (int w = 1; w <= y; ++w) {
            const int area = h * w;
            if (area < boards || area - boards >= std::min(h, w))
                continue;
            keyed.emplace_back(std::max(h, w) > 2 * std::min(h, w), area, std::abs(h - w), h, w);
        }
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::pair<int, int>> shapes;
    for (const auto &k : keyed)
        shapes.emplace_back(std::get<3>(k), std::get<4>(k));
    return shapes;
}

PlacementResult placeJobs(int x, int y, const std::vector<int> &jobBoards, PlacementPolicy policy,
                          const std::vector<std::uint8_t> &faulty)
{
    const std::vector<std::uint8_t> taken
        = faulty.empty() ? std::vector<std::uint8_t>(std::size_t(x * y), 0) : faulty;
    PlacementResult res;
    res.healthyBoards = std::count(taken.begin(), taken.end(), std::uint8_t(0));
    std::vector<int> order(jobBoards.size());
    std::iota(order.begin(), order.end(), 0);
    if (policy != PlacementPolicy::Greedy) {
        std::stable_sort(order.begin(), order.end(), [&](int l, int r) {
            return jobBoards[std::size_t(l)] > jobBoards[std::size_t(r)];
        });
    }
    if (policy == PlacementPolicy::Submesh) {
        // Boards only ever get taken, so a size that found no sub-mesh is not searched again.
        FreeBoards grid(x, y, taken);
        std::vector<int> failed; // sizes, falling as the queue does
        for (int job : order) {
            const int boards = jobBoards[std::size_t(job)];
            if (boards > grid.freeCount() || (!failed.empty() && failed.back() == boards))
                continue;
            if (!placeSubmesh(grid, job, boards, x, y, res))
                failed.push_back(boards);
        }
        return res;
    }
    Occupancy occ{x, y, taken, {}};
    occ.rebuild();
    // Boards only ever get taken, so once a size fails every later job at least as large fails
    // too: sorted skips them without searching (a long queue would otherwise scan the grid for
    // each of them).
    int failedSize = std::numeric_limits<int>::max();
    for (int job : order) {
        const int boards = jobBoards[std::size_t(job)];
        if (boards >= failedSize)
            continue;
        if (placeOne(occ, job, boards, res))
            continue;
        if (policy == PlacementPolicy::Greedy)
            break;
        failedSize = boards;
    }
    return res;
}

std::vector<int> traceJobSizes(long long totalBoards, int maxBoards, std::uint64_t seed)
{
    std::vector<double> weight;
    for (int k = 0; (1LL << k) <= maxBoards; ++k)
        weight.push_back(std::pow(2.0, -k / 2.0));
    const double all = std::accumulate(weight.begin(), weight.end(), 0.0);
    SplitMix rng{seed};
    std::vector<int> jobs;
    long long sum = 0;
    while (sum < totalBoards) {
        double u = rng.uniform() * all;
        std::size_t k = 0;
        while (k + 1 < weight.size() && u >= weight[k])
            u -= weight[k++];
        int size = 1 << k;
        if (size >= 4 && rng.uniform() < 0.25)
            size = size / 4 * 3;
        jobs.push_back(size);
        sum += size;
    }
    return jobs;
}

std::vector<std::uint8_t> randomFaults(int x, int y, double fraction, std::uint64_t seed)
{
    SplitMix rng{seed};
    std::vector<std::uint8_t> f(std::size_t(x * y));
    for (auto &b : f)
        b = rng.uniform() < fraction ? 1 : 0;
    return f;
}

} // namespace clab::cluster
