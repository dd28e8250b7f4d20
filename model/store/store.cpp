#include "store/store.h"

#include "store/storeschema.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <ctime>

namespace clab::store {

namespace {

std::string nowUtc()
{
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

} // namespace

Store::Store(std::string path)
    : m_path(std::move(path))
    , m_connection(m_path, Connection::Open::Create)
    , m_db(m_connection.get())
{
    migrate(m_db, m_path);
    // Only now that the file is known to be ours: WAL with synchronous=NORMAL makes an import
    // one fsync at commit instead of one per page, and stays crash-safe (SQLite docs, "wal").
    execute(m_db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON",
            m_path);
}

Store::~Store()
{
    m_findSource.reset();
    m_addSource.reset();
    m_findSystem.reset();
    m_addSystem.reset();
    m_addRun.reset();
    m_addBandwidth.reset();
}

int Store::schemaVersion() const
{
    return m_connection.schemaVersion();
}

void Store::begin()
{
    execute(m_db, "BEGIN IMMEDIATE", m_path);
}

void Store::commit()
{
    execute(m_db, "COMMIT", m_path);
}

void Store::rollback()
{
    if (!sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Store::savepoint()
{
    execute(m_db, "SAVEPOINT file_import", m_path);
}

void Store::releaseSavepoint()
{
    execute(m_db, "RELEASE file_import", m_path);
}

void Store::rollbackToSavepoint()
{
    execute(m_db, "ROLLBACK TO file_import; RELEASE file_import", m_path);
}

Statement &Store::cached(std::unique_ptr<Statement> &slot, const char *sql)
{
    if (!slot)
        slot = std::make_unique<Statement>(m_db, sql, m_path);
    return *slot;
}

std::optional<std::int64_t> Store::findSource(const std::string &sha256)
{
    Statement &s = cached(m_findSource, "SELECT id FROM sources WHERE sha256 = ?1");
    s.bind(1, sha256);
    std::optional<std::int64_t> id;
    if (s.step())
        id = s.integer(0);
    s.reset();
    return id;
}

std::int64_t Store::addSource(const Source &source)
{
    cached(m_addSource,
           "INSERT INTO sources(path, sha256, kind, imported_at) VALUES(?1, ?2, ?3, ?4)")
        .bind(1, source.path)
        .bind(2, source.sha256)
        .bind(3, source.kind)
        .bind(4, nowUtc())
        .run();
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t Store::addSystem(const SystemRecord &system, std::int64_t sourceId)
{
    Statement &find = cached(m_findSystem, "SELECT id FROM systems WHERE name = ?1 AND "
                                           "submitter = ?2 AND description = ?3");
    find.bind(1, system.name).bind(2, system.submitter).bind(3, system.description);
    if (find.step()) {
        const std::int64_t id = find.integer(0);
        find.reset();
        return id;
    }
    find.reset();
    Statement &add
        = cached(m_addSystem, "INSERT INTO systems(name, submitter, description, design, "
                              "source_id) VALUES(?1, ?2, ?3, ?4, ?5)");
    add.bind(1, system.name).bind(2, system.submitter).bind(3, system.description);
    add.bindText(4, system.design).bindId(5, sourceId);
    add.run();
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t Store::addRun(const RunRecord &r, std::int64_t sourceId)
{
    Statement &s = cached(
        m_addRun, "INSERT INTO runs(system_id, benchmark, metric, value, unit, "
                  "global_batch_size, precision, framework, round, date, measured, tags, "
                  "details, source_id, place) "
                  "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    s.bindId(1, r.systemId)
        .bind(2, r.benchmark)
        .bind(3, r.metric)
        .bind(4, r.value)
        .bind(5, r.unit)
        .bind(6, r.globalBatch);
    s.bindText(7, r.precision).bindText(8, r.framework).bindText(9, r.round).bindText(10, r.date);
    s.bind(11, r.measured ? 1 : 0).bindText(12, r.tags).bindText(13, r.details);
    s.bind(14, sourceId).bindText(15, r.place);
    s.run();
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t Store::addBandwidth(const BandwidthRecord &b, std::int64_t sourceId)
{
    Statement &s = cached(
        m_addBandwidth, "INSERT INTO bandwidth(system_id, tool, test, link, from_endpoint, "
                        "to_endpoint, message_bytes, gbps, latency_us, details, source_id, place) "
                        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    s.bindId(1, b.systemId)
        .bind(2, b.tool)
        .bind(3, b.test)
        .bind(4, b.link)
        .bindText(5, b.from)
        .bindText(6, b.to);
    s.bind(7, b.messageBytes).bind(8, b.gbps).bind(9, b.latencyUs).bindText(10, b.details);
    s.bind(11, sourceId).bindText(12, b.place);
    s.run();
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t Store::count(Table table)
{
    // Table names cannot be bound; they come from this fixed list, never from input.
    const char *sql = table == Table::Sources   ? "SELECT count(*) FROM sources"
                      : table == Table::Systems ? "SELECT count(*) FROM systems"
                      : table == Table::Runs    ? "SELECT count(*) FROM runs"
                                                : "SELECT count(*) FROM bandwidth";
    Statement s(m_db, sql, m_path);
    return s.step() ? s.integer(0) : 0;
}

std::vector<StoredRun> Store::runs(const std::string &benchmark)
{
    RunFilter filter;
    filter.benchmark = benchmark;
    return selectRuns(m_db, m_path, filter);
}

std::vector<std::string> Store::systemNames()
{
    Statement s(m_db, "SELECT name FROM systems ORDER BY id", m_path);
    std::vector<std::string> out;
    while (s.step())
        out.push_back(s.text(0));
    return out;
}

std::vector<BandwidthRecord> selectBandwidth(sqlite3 *db, const std::string &path,
                                             const BandwidthFilter &filter)
{
    // instr() instead of LIKE: a system name may hold % or _, which LIKE would read as wildcards.
    Statement s(db,
                "SELECT coalesce(b.system_id, 0), b.tool, coalesce(b.test, ''), b.link, "
                "coalesce(b.from_endpoint, ''), coalesce(b.to_endpoint, ''), b.message_bytes, "
                "b.gbps, b.latency_us, coalesce(b.details, ''), coalesce(b.place, ''), "
                "coalesce(y.name, ''), b.source_id "
                "FROM bandwidth b LEFT JOIN systems y ON y.id = b.system_id "
                "WHERE (?1 = '' OR b.tool = ?1) "
                "AND (?2 = '' OR instr(lower(coalesce(y.name, '')), lower(?2)) > 0) "
                "AND (?3 = 0 OR b.system_id IS NOT NULL) AND (?4 = 0 OR b.gbps IS NOT NULL) "
                "ORDER BY b.id",
                path);
    s.bind(1, filter.tool).bind(2, filter.system);
    s.bind(3, filter.ofSystemsOnly ? 1 : 0).bind(4, filter.withGbps ? 1 : 0);
    std::vector<BandwidthRecord> out;
    while (s.step()) {
        BandwidthRecord b;
        b.systemId = s.integer(0);
        b.tool = s.text(1);
        b.test = s.text(2);
        b.link = s.text(3);
        b.from = s.text(4);
        b.to = s.text(5);
        if (!s.isNull(6))
            b.messageBytes = s.integer(6);
        if (!s.isNull(7))
            b.gbps = s.real(7);
        if (!s.isNull(8))
            b.latencyUs = s.real(8);
        b.details = s.text(9);
        b.place = s.text(10);
        b.system = s.text(11);
        b.sourceId = s.integer(12);
        out.push_back(std::move(b));
    }
    return out;
}

std::vector<BandwidthRecord> Store::bandwidth(const std::string &tool)
{
    BandwidthFilter filter;
    filter.tool = tool;
    return selectBandwidth(m_db, m_path, filter);
}

std::vector<BandwidthRecord> Store::bandwidthOfSystems()
{
    BandwidthFilter filter;
    filter.ofSystemsOnly = true;
    return selectBandwidth(m_db, m_path, filter);
}

Transaction::Transaction(Store &store)
    : m_store(store)
{
    m_store.begin();
}

Transaction::~Transaction()
{
    if (m_open)
        m_store.rollback();
}

void Transaction::commit()
{
    m_store.commit();
    m_open = false;
}

std::string defaultStorePath()
{
    const char *xdg = std::getenv("XDG_DATA_HOME");
    std::string base;
    if (xdg && *xdg) {
        base = xdg;
    } else {
        const char *home = std::getenv("HOME");
        base = std::string(home ? home : ".") + "/.local/share";
    }
    return base + "/ComposeLab/experiments.sqlite";
}

} // namespace clab::store
