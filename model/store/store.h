#pragma once

#include "store/runs.h"
#include "store/sqlite.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clab::store {

// Where a number came from: one imported file (or one MLPerf submission folder), identified by the
// SHA-256 of its bytes so that importing it again is recognised.
struct Source
{
    std::string path;
    std::string sha256;
    std::string kind; // mlperf, mlperf_csv, throughput_csv, generic_csv, nccl_tests, ...
};

struct SystemRecord
{
    std::string name;
    std::string submitter;
    std::string description; // JSON text (an MLPerf system JSON, or fields of a CSV row)
    std::string design;      // a ComposeLab design (JSON text) when there is one
};

struct BandwidthRecord
{
    std::int64_t systemId = 0;
    std::string tool; // nccl-tests, p2pBandwidthLatencyTest, bandwidthTest, nvbandwidth
    std::string test; // all_reduce_perf out-of-place, unidirectional P2P enabled, ...
    std::string link; // collective, p2p, h2d, d2h, d2d
    std::string from;
    std::string to;
    std::optional<std::int64_t> messageBytes;
    std::optional<double> gbps;      // GB/s (10^9 bytes/s; nccl busbw, CUDA samples' GB/s)
    std::optional<double> latencyUs; // microseconds
    std::string details;             // JSON object text, or empty
    std::string place;
    std::string system;        // read back: the name of systemId's system ("" without one)
    std::int64_t sourceId = 0; // read back: the source it was imported from
};

// Which bandwidth measurements: every field is optional; all are bound values.
struct BandwidthFilter
{
    std::string tool;           // exact tool name
    std::string system;         // substring of the system name (case-insensitive, ASCII)
    bool ofSystemsOnly = false; // only those stored as some system's
    bool withGbps = false;      // only those that have a GB/s value
};

// The one reader of the bandwidth table, in import order. Throws StoreError naming `path`.
std::vector<BandwidthRecord> selectBandwidth(sqlite3 *db, const std::string &path,
                                             const BandwidthFilter &filter);

enum class Table { Sources, Systems, Runs, Bandwidth };

// The experiment store: one SQLite file. Opening checks the file before anything is written: a file
// that is not SQLite, a truncated one, or one from a newer schema is refused with a StoreError
// naming it and stays byte-identical. Older schemas are upgraded step by step (storeschema.cpp).
class Store
{
public:
    explicit Store(std::string path);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    const std::string &path() const { return m_path; }
    int schemaVersion() const;
    // The open connection, for the few whole-table operations (merge) done in SQL.
    sqlite3 *connection() const { return m_db; }

    void begin();
    void commit();
    void rollback();
    // A savepoint inside the open transaction: one file of a tree that turns out bad is undone
    // alone and reported as skipped.
    void savepoint();
    void releaseSavepoint();
    void rollbackToSavepoint();

    std::optional<std::int64_t> findSource(const std::string &sha256);
    std::int64_t addSource(const Source &source);
    // An identical system (name, submitter, description) is stored once; returns its id.
    std::int64_t addSystem(const SystemRecord &system, std::int64_t sourceId);
    std::int64_t addRun(const RunRecord &run, std::int64_t sourceId);
    std::int64_t addBandwidth(const BandwidthRecord &measurement, std::int64_t sourceId);

    std::int64_t count(Table table);
    std::vector<StoredRun> runs(const std::string &benchmark = {}); // all, in import order
    std::vector<std::string> systemNames();
    std::vector<BandwidthRecord> bandwidth(const std::string &tool = {});
    // Only the measurements stored as some system's (link tables, import --system).
    std::vector<BandwidthRecord> bandwidthOfSystems();

private:
    Statement &cached(std::unique_ptr<Statement> &slot, const char *sql);
    std::string m_path;
    Connection m_connection; // closed after the statements below are finalised
    sqlite3 *m_db = nullptr;
    std::unique_ptr<Statement> m_findSource, m_addSource, m_findSystem, m_addSystem, m_addRun,
        m_addBandwidth;
};

// Commits on commit(); rolls back when left any other way (an exception, a cancel).
class Transaction
{
public:
    explicit Transaction(Store &store);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

private:
    Store &m_store;
    bool m_open = true;
};

// $XDG_DATA_HOME/ComposeLab/experiments.sqlite, else ~/.local/share/ComposeLab/experiments.sqlite.
std::string defaultStorePath();

} // namespace clab::store
