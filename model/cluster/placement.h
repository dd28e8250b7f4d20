#pragma once

#include <cstdint>
#include <vector>

namespace clab::cluster {

// Job placement on a HammingMesh board grid (HammingMesh, SC22: jobs take whole boards in
// near-square shapes). Greedy and sorted place a job on a contiguous h×w rectangle of healthy,
// free boards; submesh on any h rows and any w columns whose crossings are healthy and free, which
// a Hamming graph allows (the paper's "virtual sub-HxMesh").

struct Block
{
    int job = 0;                              // index into the job list
    int row = 0, col = 0, rows = 0, cols = 0; // first row and column, and the counts
    std::vector<int> rowIds, colIds;          // submesh: the rows and columns (empty otherwise)
};

enum class PlacementPolicy {
    Greedy, // arrival order, first fit, stop at the first job that does not fit (FIFO)
    Sorted, // largest job first, first fit, jobs that do not fit are skipped
    Submesh // largest job first, any rows and columns (cluster/submesh.h), misfits skipped
};

struct PlacementResult
{
    std::vector<Block> blocks;
    int placedJobs = 0;
    long long requestedBoards = 0; // boards the placed jobs asked for
    long long allocatedBoards = 0; // boards of their blocks (≥ requested when rounded up)
    long long healthyBoards = 0;
    double utilisation() const
    {
        return healthyBoards ? double(requestedBoards) / double(healthyBoards) : 0;
    }
};

// Block shapes for a job of `boards` on an x×y grid, best first: aspect ratio at most 2 before
// longer ones, then least area (never a whole spare row or column), then the squarest.
std::vector<std::pair<int, int>> blockShapes(int boards, int x, int y);
// Sub-mesh shapes, best first: the exact factorisations of `boards` that fit, the squarest first
// (each way round) and none longer than 8:1 unless it is the squarest, then blockShapes.
std::vector<std::pair<int, int>> submeshShapes(int boards, int x, int y);

// faulty: x·y flags (row-major), empty for none.
PlacementResult placeJobs(int x, int y, const std::vector<int> &jobBoards, PlacementPolicy policy,
                          const std::vector<std::uint8_t> &faulty = {});

// A seeded, trace-like queue of job sizes in boards, drawn until they ask for `totalBoards`:
// powers of two 1..maxBoards with weight 2^(-k/2) (small jobs dominate, large ones hold most
// boards, the shape of published GPU-cluster traces such as Microsoft's Philly), a quarter of
// them trimmed to 3/4 (3, 6, 12, ... boards). Uses SplitMix64, so the same seed gives the same
// queue on every platform.
std::vector<int> traceJobSizes(long long totalBoards, int maxBoards, std::uint64_t seed);
// Each board faulty with probability `fraction`, seeded likewise.
std::vector<std::uint8_t> randomFaults(int x, int y, double fraction, std::uint64_t seed);

} // namespace clab::cluster
