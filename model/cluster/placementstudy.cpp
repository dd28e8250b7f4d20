#include "cluster/placementstudy.h"

#include "cluster/paperqueue.h"
#include "cluster/topology.h"

#include "util/stats.h"

#include <algorithm>

#include <numeric>

namespace clab::cluster {

namespace {

const std::string kKind = "hammingmesh";

constexpr std::uint64_t kFaultStream = 0x5eedfa017ull;

void check(const PlacementStudyParams &p)
{
    if (p.x <= 0 || p.y <= 0)
        badParameter(kKind, "grid", "expected a grid of x×y boards with x, y ≥ 1");
    const long long boards = 1LL * p.x * p.y;
    if (boards > kMaxPlacementGridBoards)
        badParameter(kKind, "grid",
                     "placement takes grids of at most " + std::to_string(kMaxPlacementGridBoards)
                         + " boards, got " + std::to_string(boards));
    for (std::size_t i = 0; i < p.jobs.size(); ++i) {
        if (p.jobs[i] <= 0 || p.jobs[i] > boards)
            badParameter(kKind, "jobs",
                         "job " + std::to_string(i + 1) + " asks for " + std::to_string(p.jobs[i])
                             + " boards; expected 1 to the grid's " + std::to_string(boards));
    }
    const long long maxQueue = kMaxQueueFactor * boards;
    if (p.jobBoards < 0 || p.jobBoards > maxQueue)
        badParameter(kKind, "jobs-boards",
                     "expected 1 to " + std::to_string(maxQueue) + " boards ("
                         + std::to_string(kMaxQueueFactor) + " times the grid), got "
                         + std::to_string(p.jobBoards));
    if (p.maxJob < 0 || p.maxJob > boards)
        badParameter(kKind, "max-job",
                     "expected 1 to the grid's " + std::to_string(boards) + " boards, got "
                         + std::to_string(p.maxJob));
    if (!(p.faultyFraction >= 0 && p.faultyFraction < 1))
        badParameter(kKind, "faulty",
                     "expected a fraction of faulty boards from 0 to below 1, got "
                         + std::to_string(p.faultyFraction));
    for (long long n : p.faultyCounts) {
        if (n <= 0 || n >= boards)
            badParameter(kKind, "faulty-boards",
                         "expected 1 to " + std::to_string(boards - 1)
                             + " faulty boards (the grid keeps one healthy board), got "
                             + std::to_string(n));
    }
    if (p.jobs.empty() && p.queue == JobQueue::Paper && std::min(p.x, p.y) < 2)
        badParameter(kKind, "grid",
                     "the paper's queue needs a grid of at least 2x2 boards (its job shapes are "
                     "at most half the grid each way)");
    if (p.seeds < 1 || p.seeds > kMaxPlacementSeeds)
        badParameter(kKind, "seeds",
                     "expected 1 to " + std::to_string(kMaxPlacementSeeds) + " seeds, got "
                         + std::to_string(p.seeds));
}

// A fault level: none, each board with a probability, or an exact number of boards.
struct FaultLevel
{
    double fraction = 0;
    long long count = 0;
    bool none() const { return fraction <= 0 && count <= 0; }
    std::vector<std::uint8_t> draw(int x, int y, std::uint64_t seed) const
    {
        if (none())
            return {};
        // Faults draw from a stream of their own: the queue's seed as is would repeat its numbers.
        return count > 0 ? faultyBoards(x, y, count, seed ^ kFaultStream)
                         : randomFaults(x, y, fraction, seed ^ kFaultStream);
    }
};

} // namespace

const char *policyName(PlacementPolicy policy)
{
    switch (policy) {
    case PlacementPolicy::Greedy:
        return "greedy";
    case PlacementPolicy::Sorted:
        return "sorted";
    case PlacementPolicy::Submesh:
        return "submesh";
    }
    return "sorted";
}

std::vector<long long> placementFaultLevels(long long boards)
{
    const long long step = std::clamp(boards / 40, 1LL, 25LL);
    std::vector<long long> levels;
    for (long long k = 1; k <= 4 && k * step < boards; ++k)
        levels.push_back(k * step);
    return levels;
}

double PlacementRun::medianUtilisation() const
{
    if (utilisations.empty())
        return result.utilisation();
    std::vector<double> sorted = utilisations;
    std::sort(sorted.begin(), sorted.end());
    return quantileOfSorted(sorted, 0.5);
}

PlacementStudy studyPlacement(const PlacementStudyParams &p)
{
    check(p);
    PlacementStudy s;
    s.x = p.x;
    s.y = p.y;
    s.seeds = p.seeds;
    const long long boards = 1LL * p.x * p.y;
    s.traceQueue = p.jobs.empty();
    s.queue = p.queue;
    if (s.traceQueue && p.queue == JobQueue::Trace)
        s.maxJob = p.maxJob > 0 ? p.maxJob : int(std::max(1LL, boards / 4));
    auto queueOf = [&](std::uint64_t seed, long long healthy) {
        if (!s.traceQueue)
            return p.jobs;
        if (p.queue == JobQueue::Paper)
            return paperJobSizes(p.x, p.y, healthy, seed);
        return traceJobSizes(p.jobBoards > 0 ? p.jobBoards : boards, s.maxJob, seed);
    };

    std::vector<FaultLevel> levels{{}};
    if (p.faultyFraction > 0)
        levels.push_back({p.faultyFraction, 0});
    for (long long n : p.faultyCounts)
        levels.push_back({0, n});
    // runs[policy][level], filled seed by seed (a queue and its faults are drawn once for all
    // policies).
    std::vector<std::vector<PlacementRun>> runs(p.policies.size());
    for (std::size_t l = 0; l < levels.size(); ++l) {
        for (int k = 0; k < p.seeds; ++k) {
            const std::uint64_t seed = p.seed + std::uint64_t(k);
            const std::vector<std::uint8_t> faults = levels[l].draw(p.x, p.y, seed);
            const long long faulty = std::accumulate(faults.begin(), faults.end(), 0LL);
            const std::vector<int> jobs = queueOf(seed, boards - faulty);
            if (k == 0 && l == 0) {
                s.jobs = jobs;
                s.requestedBoards = std::accumulate(jobs.begin(), jobs.end(), 0LL);
            }
            if (k == 0 && l == 1) {
                s.faults = faults;
                s.faultyBoards = faulty;
            }
            for (std::size_t i = 0; i < p.policies.size(); ++i) {
                if (k == 0)
                    runs[i].push_back({p.policies[i], !levels[l].none(), faulty, jobs, {}, {}});
                PlacementRun &run = runs[i].back();
                const PlacementResult r = placeJobs(p.x, p.y, jobs, p.policies[i], faults);
                run.utilisations.push_back(r.utilisation());
                if (k == 0)
                    run.result = r;
            }
        }
    }
    for (auto &perPolicy : runs) {
        for (auto &run : perPolicy)
            s.runs.push_back(std::move(run));
    }
    return s;
}

} // namespace clab::cluster
