#pragma once

#include "store/import.h"
#include "store/store.h"
#include "util/utf8.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace clab::store {

// What the importers share while one importPaths() runs.
class ImportSession
{
public:
    ImportSession(Store &store, const ImportControl &control, ImportReport &report)
        : m_store(store)
        , m_control(control)
        , m_report(report)
    {
    }

    Store &store() { return m_store; }
    ImportReport &report() { return m_report; }

    // Between rows: throws ImportCancelled when asked to stop, reports progress.
    void row(std::size_t done, std::size_t total, const std::string &file);
    // A new source, or nullopt (and a "skipped: already imported" entry) when its hash is known.
    std::optional<std::int64_t> newSource(const std::string &path, const std::string &sha256,
                                          const std::string &kind);
    // Systems seen in this import, so that a table of 100,000 rows does not look each one up.
    std::int64_t system(const SystemRecord &system, std::int64_t sourceId);
    // A tool output's measurement, stored as the --system's when the import names one.
    void measurement(BandwidthRecord b, std::int64_t sourceId);
    void skip(const std::string &path, const std::string &reason)
    {
        m_report.skipped.push_back({validUtf8(path), validUtf8(reason)});
    }
    void fail(const std::string &path, const std::string &reason)
    {
        m_report.failed.push_back({validUtf8(path), validUtf8(reason)});
    }
    OnBadFile onBadFile() const { return m_control.onBadFile; }
    // After a file is rolled back to its savepoint: the systems it added are gone with it, so the
    // cache must not hand out their ids (Store::addSystem finds the others again).
    void forgetSystems() { m_systems.clear(); }

private:
    Store &m_store;
    const ImportControl &m_control;
    ImportReport &m_report;
    std::map<std::string, std::int64_t> m_systems;
};

} // namespace clab::store
