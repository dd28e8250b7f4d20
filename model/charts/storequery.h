#pragma once

#include "charts/builders.h"
#include "store/sqlite.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct sqlite3;

namespace clab::charts {

enum class Which { All, Measured, Predicted };

struct Filter
{
    std::string benchmark;            // exact benchmark name; empty: all
    std::string system;               // substring of the system name; empty: all
    Which which = Which::All;         // runs only: measured, predicted or both
    std::vector<std::int64_t> runIds; // runs only: just these (e.g. the browser's selection)
};

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

    // time_to_train, score and throughput runs.
    std::vector<RunPoint> runs(const Filter &filter);
    // Bandwidth rows that have a GB/s value (Filter::which is ignored: all are measured).
    std::vector<BandwidthPoint> bandwidth(const Filter &filter);

private:
    std::string m_path;
    store::Connection m_connection;
    sqlite3 *m_db = nullptr;
};

// The chart of one kind from a store. Breakdown charts need predictions (breakdownChart), not a
// store: asked for one, this returns an empty chart with a note.
ChartData chartFromStore(StoreQuery &store, ChartKind kind, const Filter &filter);

} // namespace clab::charts
