#pragma once

#include "cluster/placement.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clab::cluster {

// One placement experiment on a HammingMesh board grid, as `composelab topo hammingmesh --place`
// runs it: a job queue (given, trace-like or the paper's), each policy without faults and again
// at each fault level, over one or more seeds.

// 128×128 boards: 65,536 accelerators on 2×2 boards, four times the paper's largest size.
// Contiguous placement rescans the grid after each job, O(jobs × boards): about a second here.
inline constexpr long long kMaxPlacementGridBoards = 16'384;
inline constexpr long long kMaxQueueFactor = 16; // a queue asks for at most 16 grids of boards
inline constexpr int kMaxPlacementSeeds = 1000;

enum class JobQueue {
    Trace, // traceJobSizes: powers of two up to maxJob, as many boards as jobBoards
    Paper  // paperJobSizes: the HammingMesh paper's queue, every healthy board requested
};

struct PlacementStudyParams
{
    int x = 16, y = 16;                  // grid of boards
    std::vector<int> jobs;               // sizes in boards; empty: drawn as `queue` says
    JobQueue queue = JobQueue::Trace;    // when jobs is empty
    long long jobBoards = 0;             // trace: boards the queue asks for; 0: x·y
    int maxJob = 0;                      // trace: largest job in boards; 0: a quarter of the grid
    double faultyFraction = 0;           // a fault level: each board faulty with this probability
    std::vector<long long> faultyCounts; // more fault levels: exactly this many faulty boards
    std::uint64_t seed = 1;              // of the queue and (derived) of the faults
    int seeds = 1;                       // seed, seed+1, ...: each run is the median over them
    std::vector<PlacementPolicy> policies = {PlacementPolicy::Sorted, PlacementPolicy::Greedy};
};

struct PlacementRun
{
    PlacementPolicy policy = PlacementPolicy::Sorted;
    bool withFaults = false;
    long long faultyBoards = 0;
    std::vector<int> jobs;            // the queue of the first seed (the paper's depends on faults)
    PlacementResult result;           // of the first seed
    std::vector<double> utilisations; // one per seed, in seed order
    double medianUtilisation() const; // over the seeds
};

struct PlacementStudy
{
    int x = 0, y = 0;
    std::vector<int> jobs;            // the fault-free queue of the first seed
    long long requestedBoards = 0;    // by that queue
    bool traceQueue = false;          // jobs drawn (else given)
    JobQueue queue = JobQueue::Trace; // how, when drawn
    int maxJob = 0;                   // the trace's largest size
    int seeds = 1;
    long long faultyBoards = 0;       // of the first fault level, first seed
    std::vector<std::uint8_t> faults; // its x·y flags, row-major; empty without faults
    std::vector<PlacementRun> runs;   // policies in the order asked, each at every fault level
};

// Checks every parameter (InputError: file "hammingmesh", place the CLI option: "grid", "jobs",
// "jobs-boards", "max-job", "faulty", "faulty-boards", "seeds") and runs the placements.
PlacementStudy studyPlacement(const PlacementStudyParams &params);

// Faulty-board counts for a chart of utilisation against faults (the study adds the fault-free
// run): four equal steps of 1/40 of the grid, at least 1 and at most 25 boards (25, ..., 100 on
// the paper's 64×64 and 32×32 grids).
std::vector<long long> placementFaultLevels(long long boards);

const char *policyName(PlacementPolicy policy); // "sorted", "greedy", "submesh"

} // namespace clab::cluster
