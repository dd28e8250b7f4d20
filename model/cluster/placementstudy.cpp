#include "cluster/placementstudy.h"

#include "cluster/topology.h"

#include <numeric>

namespace clab::cluster {

namespace {

const std::string kKind = "hammingmesh";

// Faults draw from their own stream: the queue's seed as is would repeat its random numbers.
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
}

} // namespace

const char *policyName(PlacementPolicy policy)
{
    return policy == PlacementPolicy::Sorted ? "sorted" : "greedy";
}

PlacementStudy studyPlacement(const PlacementStudyParams &p)
{
    check(p);
    PlacementStudy s;
    s.x = p.x;
    s.y = p.y;
    const long long boards = 1LL * p.x * p.y;
    s.traceQueue = p.jobs.empty();
    if (s.traceQueue) {
        s.maxJob = p.maxJob > 0 ? p.maxJob : int(std::max(1LL, boards / 4));
        s.jobs = traceJobSizes(p.jobBoards > 0 ? p.jobBoards : boards, s.maxJob, p.seed);
    } else {
        s.jobs = p.jobs;
    }
    s.requestedBoards = std::accumulate(s.jobs.begin(), s.jobs.end(), 0LL);
    if (p.faultyFraction > 0) {
        s.faults = randomFaults(p.x, p.y, p.faultyFraction, p.seed ^ kFaultStream);
        s.faultyBoards = std::accumulate(s.faults.begin(), s.faults.end(), 0LL);
    }
    for (PlacementPolicy policy : p.policies) {
        s.runs.push_back({policy, false, placeJobs(p.x, p.y, s.jobs, policy)});
        if (p.faultyFraction > 0)
            s.runs.push_back({policy, true, placeJobs(p.x, p.y, s.jobs, policy, s.faults)});
    }
    return s;
}

} // namespace clab::cluster
