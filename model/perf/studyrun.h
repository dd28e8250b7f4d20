#pragma once

#include "perf/study.h"

#include <cstdint>
#include <functional>

namespace clab::store {
class Store;
}

namespace clab::perf {

struct StudyRunOptions
{
    Shard shard;
    int jobs = 1; // threads that evaluate points
    // Called now and then from the calling thread with the points done and the shard's total;
    // returning false cancels (nothing is stored).
    std::function<bool(std::uint64_t done, std::uint64_t total)> progress;
    // Called for every point of the shard in order, from the calling thread.
    std::function<void(const StudyResult &)> each;
};

struct StudyRunCounts
{
    std::uint64_t points = 0; // of the shard
    std::uint64_t predicted = 0;
    std::uint64_t dropped = 0;
    std::int64_t stored = 0; // predicted runs added to the store
    bool alreadyStored = false;
    bool cancelled = false;
};

// Evaluates the shard's points on `jobs` threads and, with a store, keeps each predicted point as
// a predicted run (system: its composition; tags: the study and its axis values; details: the
// point as studyResultToJson gives it) in one transaction, with the study recorded beside its
// source. A shard already in the store is evaluated (for `each`) but adds nothing.
StudyRunCounts runStudy(const StudyRunner &runner, store::Store *store,
                        const StudyRunOptions &options);

// The number of points of a shard.
std::uint64_t shardPoints(std::uint64_t points, const Shard &shard);

} // namespace clab::perf
