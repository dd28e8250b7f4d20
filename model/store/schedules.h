#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct sqlite3;

namespace clab::store {

class Store;

// One way (static servers or composable pool) of one `composelab schedule --db` run: the trace it
// ran (a source, by SHA-256), the design and options, and what came out.
struct ScheduleRecord
{
    std::string design; // the design's name
    std::string designFile;
    std::string way;    // "static" or "pool"
    std::string policy; // "fifo" or "backfill"
    double recomposeS = 0;
    bool stretch = true;
    std::string benchmark; // for jobs naming none; empty: they ran as recorded
    std::int64_t jobs = 0;
    std::int64_t gpus = 0;
    double utilisation = 0;
    double meanWaitS = 0;
    double p95WaitS = 0;
    double meanJctS = 0;
    std::int64_t neverFit = 0;
    double fragmentation = 0;
    std::int64_t recompositions = 0;
    double meanStretch = 1;
    std::string details; // JSON object text (the run's --json), or empty
    // Read back:
    std::string tracePath;
    std::string traceSha256;
    std::string ranAt;
};

// Adds the record under `sourceId` (the trace), stamped with the time now (UTC).
void addSchedule(Store &store, std::int64_t sourceId, const ScheduleRecord &record);
// All of them, oldest first.
std::vector<ScheduleRecord> schedules(Store &store);
// For mergeStores: copies the schedules of `in` under the output source `sourceOf` maps theirs to
// (0: none, skipped), leaving out rows the output has already (same trace, design file, way,
// options and time). Returns how many it copied.
std::int64_t copySchedules(sqlite3 *in, const std::string &inPath, Store &out,
                           const std::function<std::int64_t(std::int64_t)> &sourceOf);

} // namespace clab::store
