#pragma once

#include "cluster/placement.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clab::cluster {

// One placement experiment on a HammingMesh board grid, as `composelab topo hammingmesh --place`
// runs it: a job queue (given, or trace-like from a seed), each policy without faults and, when
// a fault fraction is given, again with the same queue on a grid with seeded faulty boards.

// 128×128 boards: 65,536 accelerators on 2×2 boards, four times the paper's largest size.
// Placement rescans the grid after each job, O(jobs × boards): about a second at this size.
inline constexpr long long kMaxPlacementGridBoards = 16'384;
inline constexpr long long kMaxQueueFactor = 16; // a queue asks for at most 16 grids of boards

struct PlacementStudyParams
{
    int x = 16, y = 16;        // grid of boards
    std::vector<int> jobs;     // sizes in boards; empty: traceJobSizes
    long long jobBoards = 0;   // trace: boards the queue asks for; 0: x·y
    int maxJob = 0;            // trace: largest job in boards; 0: a quarter of the grid
    double faultyFraction = 0; // each board faulty with this probability; 0: no fault run
    std::uint64_t seed = 1;    // of the queue and (derived) of the faults
    std::vector<PlacementPolicy> policies = {PlacementPolicy::Sorted, PlacementPolicy::Greedy};
};

struct PlacementRun
{
    PlacementPolicy policy = PlacementPolicy::Sorted;
    bool withFaults = false;
    PlacementResult result;
};

struct PlacementStudy
{
    int x = 0, y = 0;
    std::vector<int> jobs;
    long long requestedBoards = 0;    // by the whole queue
    bool traceQueue = false;          // jobs drawn by traceJobSizes (else given)
    int maxJob = 0;                   // the trace's largest size
    long long faultyBoards = 0;       // in the fault runs
    std::vector<std::uint8_t> faults; // x·y flags, row-major; empty without a fault run
    std::vector<PlacementRun> runs;   // policies in the order asked, each without then with faults
};

// Checks every parameter (InputError: file "hammingmesh", place the CLI option: "grid", "jobs",
// "jobs-boards", "max-job", "faulty") and runs the placements.
PlacementStudy studyPlacement(const PlacementStudyParams &params);

const char *policyName(PlacementPolicy policy); // "sorted", "greedy"

} // namespace clab::cluster
