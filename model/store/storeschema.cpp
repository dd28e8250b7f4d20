#include "store/storeschema.h"

#include "store/sqlite.h"

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <fstream>

namespace clab::store {

const std::vector<Migration> &migrations()
{
    // Never edit a step once released: add a new one. Every number in runs and bandwidth points at
    // its source (file path, SHA-256 of its bytes, import time) and the place in it.
    static const std::vector<Migration> steps = {
        {1, R"sql(
CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    imported_at TEXT NOT NULL
);
CREATE TABLE systems (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    submitter TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL,
    design TEXT,
    source_id INTEGER REFERENCES sources(id),
    UNIQUE (name, submitter, description)
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    system_id INTEGER REFERENCES systems(id),
    benchmark TEXT NOT NULL,
    metric TEXT NOT NULL,
    value REAL NOT NULL,
    unit TEXT NOT NULL,
    global_batch_size INTEGER,
    precision TEXT,
    framework TEXT,
    round TEXT,
    date TEXT,
    measured INTEGER NOT NULL DEFAULT 1,
    tags TEXT,
    details TEXT,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    place TEXT
);
CREATE INDEX runs_benchmark ON runs(benchmark, metric);
CREATE INDEX runs_system ON runs(system_id);
CREATE TABLE bandwidth (
    id INTEGER PRIMARY KEY,
    system_id INTEGER REFERENCES systems(id),
    tool TEXT NOT NULL,
    test TEXT NOT NULL,
    link TEXT NOT NULL,
    from_endpoint TEXT,
    to_endpoint TEXT,
    message_bytes INTEGER,
    gbps REAL,
    latency_us REAL,
    details TEXT,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    place TEXT
);
CREATE INDEX bandwidth_tool ON bandwidth(tool, link);
)sql"},
        // Studies (composelab study): which study, which shard of it, and its text, beside the
        // source its predicted runs belong to, so that merging shards can check they agree.
        {2, R"sql(
CREATE TABLE studies (
    source_id INTEGER PRIMARY KEY REFERENCES sources(id),
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    shard INTEGER NOT NULL,
    shards INTEGER NOT NULL,
    points INTEGER NOT NULL,
    text TEXT NOT NULL
);
)sql"},
        // Scheduling runs (composelab schedule --db): one row per way, under the trace's source.
        {3, R"sql(
CREATE TABLE schedules (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    design TEXT NOT NULL,
    design_file TEXT NOT NULL,
    way TEXT NOT NULL,
    policy TEXT NOT NULL,
    recompose_s REAL NOT NULL,
    stretch INTEGER NOT NULL,
    benchmark TEXT NOT NULL,
    jobs INTEGER NOT NULL,
    gpus INTEGER NOT NULL,
    utilisation REAL NOT NULL,
    mean_wait_s REAL NOT NULL,
    p95_wait_s REAL NOT NULL,
    mean_jct_s REAL NOT NULL,
    never_fit INTEGER NOT NULL,
    fragmentation REAL NOT NULL,
    recompositions INTEGER NOT NULL,
    mean_stretch REAL NOT NULL,
    details TEXT,
    ran_at TEXT NOT NULL
);
)sql"},
    };
    return steps;
}

int currentSchemaVersion()
{
    return migrations().back().to;
}

namespace {

std::uint32_t bigEndian(const unsigned char *p, int bytes)
{
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | p[i];
    return v;
}

} // namespace

void checkDatabaseFile(const std::string &path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec))
        return;
    if (fs::is_directory(path, ec))
        throw StoreError(path + ": is a directory, not an experiment database");
    const auto size = fs::file_size(path, ec);
    if (ec)
        throw StoreError(path + ": cannot read: " + ec.message());
    if (size == 0)
        return;
    unsigned char header[100] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char *>(header), sizeof header);
    const auto got = std::size_t(in.gcount());
    static const char magic[] = "SQLite format 3"; // followed by a NUL: 16 bytes
    const std::size_t compare = std::min<std::size_t>(got, 16);
    for (std::size_t i = 0; i < compare; ++i) {
        if (header[i] != static_cast<unsigned char>(magic[i]))
            throw StoreError(path
                             + ": not an SQLite database (the file does not start with "
                               "\"SQLite format 3\"); left untouched");
    }
    if (got < 100)
        throw StoreError(path + ": truncated SQLite database (" + std::to_string(size)
                         + " bytes, shorter than its 100-byte header); left untouched");
    std::uint64_t pageSize = bigEndian(header + 16, 2);
    if (pageSize == 1)
        pageSize = 65536;
    // The page count at offset 28 is valid when the change counter (24) equals offset 92.
    const std::uint64_t pages = bigEndian(header + 28, 4);
    // In WAL mode the newest pages may still sit in the "-wal" file beside the database (another
    // connection is open, or it closed without a checkpoint): then the main file is legitimately
    // shorter than the header says, and SQLite itself replays the log.
    const bool walPending = fs::exists(path + "-wal", ec) && fs::file_size(path + "-wal", ec) > 0;
    const bool pagesValid = !walPending && bigEndian(header + 24, 4) == bigEndian(header + 92, 4);
    if (pageSize < 512 || size % pageSize != 0 || (pagesValid && pages * pageSize > size))
        throw StoreError(path + ": truncated SQLite database (" + std::to_string(size)
                         + " bytes; its header promises "
                         + std::to_string(pagesValid ? pages * pageSize : pageSize)
                         + "); left untouched");
}

void migrate(sqlite3 *db, const std::string &path)
{
    sqlite3_stmt *stmt = nullptr;
    int version = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr) != SQLITE_OK
        || sqlite3_step(stmt) != SQLITE_ROW) {
        // Only a damaged file is "not usable"; a busy, read-only or unreachable one says so.
        const int code = sqlite3_errcode(db);
        const std::string message = code == SQLITE_NOTADB || code == SQLITE_CORRUPT
                                        ? path + ": not a usable SQLite database ("
                                              + sqlite3_errmsg(db) + "); left untouched"
                                        : failureMessage(db, path);
        sqlite3_finalize(stmt);
        throw StoreError(message);
    }
    version = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    const int current = currentSchemaVersion();
    if (version > current)
        throw StoreError(path + ": written by a newer ComposeLab (store schema "
                         + std::to_string(version) + ", this program knows up to "
                         + std::to_string(current) + "); left untouched");
    for (const Migration &m : migrations()) {
        if (m.to <= version)
            continue;
        execute(db, "BEGIN IMMEDIATE", path);
        try {
            execute(db, m.sql, path);
            // PRAGMA takes no bound parameters; the version is our own integer, not user input.
            execute(db, ("PRAGMA user_version = " + std::to_string(m.to)).c_str(), path);
            execute(db, "COMMIT", path);
        } catch (...) {
            sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    }
}

} // namespace clab::store
