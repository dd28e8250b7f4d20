#include "store/studies.h"

#include "store/schedules.h"
#include "store/storeschema.h"
#include "store/store.h"

#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>

namespace clab::store {

void addStudy(Store &store, std::int64_t sourceId, const StudyShard &s)
{
    Statement add(store.connection(),
                  "INSERT INTO studies(source_id, name, sha256, shard, shards, points, text) "
                  "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                  store.path());
    add.bind(1, sourceId).bind(2, s.name).bind(3, s.sha256).bind(4, s.shard).bind(5, s.shards);
    add.bind(6, s.points).bind(7, s.text).run();
}

namespace {

std::vector<StudyShard> readStudies(sqlite3 *db, const std::string &path)
{
    Statement q(db, "SELECT name, sha256, shard, shards, points, text FROM studies ORDER BY shard",
                path);
    std::vector<StudyShard> out;
    while (q.step())
        out.push_back(
            {q.text(0), q.text(1), int(q.integer(2)), int(q.integer(3)), q.integer(4), q.text(5)});
    return out;
}

int versionOf(sqlite3 *db, const std::string &path)
{
    try {
        Statement s(db, "PRAGMA user_version", path);
        return s.step() ? int(s.integer(0)) : 0;
    } catch (const StoreError &) {
        throw StoreError(path + ": not an experiment store (not a usable SQLite database)");
    }
}

// Copies one input's sources (and their systems, runs, bandwidth, studies and schedules) that
// `out` lacks.
void copyInto(Store &out, sqlite3 *in, const std::string &path, MergeCounts &counts)
{
    std::map<std::int64_t, std::int64_t> sourceIds; // input id -> output id, new sources only
    std::map<std::int64_t, std::int64_t> known;     // input id -> output id, sources it had
    {
        Statement q(in, "SELECT id, path, sha256, kind, imported_at FROM sources ORDER BY id",
                    path);
        Statement add(out.connection(),
                      "INSERT INTO sources(path, sha256, kind, imported_at) VALUES(?1, ?2, ?3, ?4)",
                      out.path());
        while (q.step()) {
            if (const auto had = out.findSource(q.text(2))) {
                known[q.integer(0)] = *had;
                ++counts.skipped;
                continue;
            }
            add.bind(1, q.text(1)).bind(2, q.text(2)).bind(3, q.text(3)).bind(4, q.text(4)).run();
            sourceIds[q.integer(0)] = sqlite3_last_insert_rowid(out.connection());
            ++counts.sources;
        }
    }
    auto mapped = [&](std::int64_t id) {
        const auto it = sourceIds.find(id);
        return it == sourceIds.end() ? std::int64_t(0) : it->second;
    };
    std::map<std::int64_t, std::int64_t> systemIds;
    {
        Statement q(in, "SELECT id, name, submitter, description, design, source_id FROM systems",
                    path);
        while (q.step())
            systemIds[q.integer(0)]
                = out.addSystem({q.text(1), q.text(2), q.text(3), q.text(4)}, mapped(q.integer(5)));
    }
    for (const StoredRun &run : selectRuns(in, path, {})) {
        const std::int64_t source = mapped(run.row.sourceId);
        if (!source)
            continue;
        RunRecord r = run.run();
        r.systemId = run.row.systemId ? systemIds[*run.row.systemId] : 0;
        out.addRun(r, source);
        ++counts.runs;
    }
    for (BandwidthRecord b : selectBandwidth(in, path, {})) {
        const std::int64_t source = mapped(b.sourceId);
        if (!source)
            continue;
        b.systemId = b.systemId ? systemIds[b.systemId] : 0;
        out.addBandwidth(b, source);
        ++counts.bandwidth;
    }
    Statement q(in, "SELECT source_id, name, sha256, shard, shards, points, text FROM studies",
                path);
    while (q.step()) {
        const std::int64_t source = mapped(q.integer(0));
        if (source)
            addStudy(out, source,
                     {q.text(1), q.text(2), int(q.integer(3)), int(q.integer(4)), q.integer(5),
                      q.text(6)});
    }
    // Schedules depend on the design and options as well as the trace: those of a trace the
    // output has already go under its source too (copySchedules skips exact repeats).
    counts.schedules += copySchedules(in, path, out, [&](std::int64_t id) {
        const auto it = known.find(id);
        return it != known.end() ? it->second : mapped(id);
    });
}

} // namespace

std::vector<StudyShard> studies(Store &store)
{
    return readStudies(store.connection(), store.path());
}

MergeCounts mergeStores(const std::string &out, const std::vector<std::string> &inputs)
{
    // Every check first, on read-only connections: a refused merge writes nothing, not even an
    // empty output file.
    const int version = currentSchemaVersion();
    std::set<std::string> studyIds;
    std::string firstStudy; // "name (file)" of the first study seen, for the message
    auto check = [&](const std::string &path, bool isOutput) {
        const Connection db(path, Connection::Open::AnyReadOnly);
        const int v = versionOf(db.get(), path);
        if (v != version && !(isOutput && v == 0))
            throw StoreError(path + ": schema version " + std::to_string(v) + ", but this build "
                             + "merges version " + std::to_string(version)
                             + " stores; open it once with this build (the GUI, or import into it) "
                               "to upgrade it");
        if (v == 0)
            return;
        for (const StudyShard &s : readStudies(db.get(), path)) {
            if (studyIds.insert(s.sha256).second && studyIds.size() > 1)
                throw StoreError(path + ": holds the study \"" + s.name + "\" (sha256 "
                                 + s.sha256.substr(0, 12) + "), but " + firstStudy
                                 + " holds another; stores of different studies are not merged");
            if (firstStudy.empty())
                firstStudy
                    = path + " (study \"" + s.name + "\", sha256 " + s.sha256.substr(0, 12) + ")";
        }
    };
    std::error_code ec;
    const bool outExists
        = std::filesystem::exists(out, ec) && std::filesystem::file_size(out, ec) > 0;
    if (outExists)
        check(out, true);
    for (const std::string &in : inputs) {
        if (std::filesystem::weakly_canonical(in, ec) == std::filesystem::weakly_canonical(out, ec))
            throw StoreError(in + ": is the output of the merge");
        check(in, false);
    }

    Store store(out);
    MergeCounts counts;
    Transaction t(store);
    for (const std::string &in : inputs) {
        const Connection db(in, Connection::Open::AnyReadOnly);
        copyInto(store, db.get(), in, counts);
        ++counts.inputs;
    }
    t.commit();
    return counts;
}

} // namespace clab::store
