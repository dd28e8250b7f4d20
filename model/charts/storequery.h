#pragma once

#include "charts/builders.h"
#include "store/runs.h"
#include "store/sqlite.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct sqlite3;

namespace clab::charts {

// A read-only view of an experiment store for the charts. Opening refuses (store::StoreError) a
// missing file, a file that is not SQLite, and a schema this build does not know; it never
// writes, so charting a store cannot change it.
class StoreQuery
{
public:
    explicit StoreQuery(const std::string &path);
    ~StoreQuery();
    StoreQuery(const StoreQuery &) = delete;
    StoreQuery &operator=(const StoreQuery &) = delete;

    // The time_to_train, score and throughput runs that pass the filter (its metrics are ignored).
    std::vector<RunPoint> runs(const store::RunFilter &filter);
    // Bandwidth rows that have a GB/s value, of the systems the filter names (only its system
    // counts: the rest says which runs).
    std::vector<BandwidthPoint> bandwidth(const store::RunFilter &filter);

private:
    std::string m_path;
    store::Connection m_connection;
    sqlite3 *m_db = nullptr;
};

// The chart of one kind from a store. Breakdown charts need predictions (breakdownChart), not a
// store: asked for one, this returns an empty chart with a note.
ChartData chartFromStore(StoreQuery &store, ChartKind kind, const store::RunFilter &filter);

} // namespace clab::charts
