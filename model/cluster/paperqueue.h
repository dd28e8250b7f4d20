#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace clab::cluster {

// The job queue of the HammingMesh paper's allocation study (Hoefler et al., SC22, and its
// reproduction artifact; datasets/hammingmesh_job_sizes.json has the job-size distribution and
// the sources). Sizes in boards are drawn from the Alibaba PAI trace's distribution until every
// healthy board is requested; the last job is cut to what is left. Each job is shaped as the
// squarest factorisation of its size, and a size whose shape is larger than half of the grid in
// either dimension is drawn again.
std::vector<int> paperJobSizes(int x, int y, long long healthyBoards, std::uint64_t seed);

// The factorisation a·b = n with a ≤ b closest to a square (n ≥ 1).
std::pair<int, int> squarestFactors(int n);

// The average utilisation the paper's artifact reports for its sorted policy on this system
// (Hx2Mesh 64×64 and Hx4Mesh 32×32: a×a boards on an x×y grid), as (faulty boards,
// utilisation 0-1) pairs rising by faults; empty for any other system.
std::vector<std::pair<long long, double>> paperUtilisation(int boardA, int boardB, int x, int y);
// "Hx2Mesh 64x64" for those, as the dataset names them.
std::string paperSystemName(int boardA, int boardB, int x, int y);

// Exactly `count` faulty boards at seeded random places (x·y flags, row-major), as the paper
// breaks a given number of boards.
std::vector<std::uint8_t> faultyBoards(int x, int y, long long count, std::uint64_t seed);

} // namespace clab::cluster
