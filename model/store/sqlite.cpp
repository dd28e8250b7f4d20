#include "store/sqlite.h"

#include "store/lockholders.h"
#include "store/runs.h"
#include "store/storeschema.h"

#include <sqlite3.h>

#include <cstring>
#include <filesystem>

namespace clab::store {

Connection::Connection(const std::string &path, Open how)
    : m_path(path)
{
    std::error_code ec;
    if (how != Open::Create && !std::filesystem::is_regular_file(path, ec))
        throw StoreError(path + ": no such experiment store");
    checkDatabaseFile(path);
    const int flags = how == Open::Create      ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                      : how == Open::ReadWrite ? SQLITE_OPEN_READWRITE
                                               : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
        const std::string message
            = m_db ? failureMessage(m_db, path, "cannot open") : path + ": out of memory";
        sqlite3_close(m_db);
        throw StoreError(message);
    }
    sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
    addRunFunctions(m_db);
    if (how != Open::ReadOnly && how != Open::ReadWrite)
        return;
    try {
        const int version = schemaVersion();
        if (version < 1 || version > currentSchemaVersion())
            throw StoreError(path + ": not an experiment store this build can read (schema version "
                             + std::to_string(version) + ", expected 1 to "
                             + std::to_string(currentSchemaVersion()) + ")");
        if (how == Open::ReadWrite)
            execute(m_db, "PRAGMA foreign_keys=ON", path);
    } catch (...) {
        sqlite3_close(m_db);
        throw;
    }
}

Connection::~Connection()
{
    sqlite3_close(m_db);
}

int Connection::schemaVersion() const
{
    Statement s(m_db, "PRAGMA user_version", m_path);
    return s.step() ? int(s.integer(0)) : 0;
}

std::string failureMessage(sqlite3 *db, const std::string &dbPath, const std::string &doing)
{
    const int code = sqlite3_extended_errcode(db);
    const int system = sqlite3_system_errno(db);
    const std::string reason = system != 0 ? std::strerror(system) : sqlite3_errmsg(db);
    switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED: {
        const std::string holder = lockHolders(dbPath);
        return dbPath + ": the database is busy: another connection is writing to it ("
               + (holder.empty() ? std::string("another program") : holder) + "); gave up after "
               + std::to_string(kBusyTimeoutMs / 1000)
               + " s. Nothing was changed; try again when it has finished.";
    }
    case SQLITE_READONLY:
        // WAL mode needs <db>-shm and -wal beside the database, even to read it.
        if (code == SQLITE_READONLY_DIRECTORY || code == SQLITE_READONLY_CANTINIT)
            return dbPath + ": cannot write: its folder is read-only, and SQLite must create "
                   + dbPath + "-wal and -shm beside it. Nothing was changed.";
        return dbPath
               + ": cannot write: the database is read-only (the file, its folder or the "
                 "file system does not allow writing). Nothing was changed.";
    case SQLITE_CANTOPEN:
        return dbPath + ": cannot open: " + reason + " (SQLite also creates " + dbPath
               + "-wal and -shm beside it, so the folder must be writable).";
    case SQLITE_FULL:
        return dbPath + ": cannot write: the disk is full (" + reason
               + "). Nothing of this change was kept.";
    case SQLITE_IOERR:
        if (code == SQLITE_IOERR_READ || code == SQLITE_IOERR_SHORT_READ)
            return dbPath + ": cannot read from disk: " + reason + ".";
        return dbPath + ": cannot write to disk: " + reason + ". Nothing of this change was kept.";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return dbPath + ": the database file is damaged (" + sqlite3_errmsg(db) + ").";
    default:
        return dbPath + ": " + (doing.empty() ? std::string() : doing + ": ") + sqlite3_errmsg(db);
    }
}

namespace {

[[noreturn]] void fail(sqlite3 *db, const std::string &dbPath, const std::string &what)
{
    throw StoreError(failureMessage(db, dbPath, what));
}

} // namespace

Statement::Statement(sqlite3 *db, const char *sql, const std::string &dbPath)
    : m_db(db)
    , m_dbPath(dbPath)
{
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) != SQLITE_OK)
        fail(db, dbPath, std::string("cannot prepare \"") + sql + "\"");
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement &Statement::bind(int index, const std::string &value)
{
    if (sqlite3_bind_text(m_stmt, index, value.data(), int(value.size()), SQLITE_TRANSIENT)
        != SQLITE_OK)
        fail(m_db, m_dbPath, "cannot bind a parameter");
    return *this;
}

Statement &Statement::bind(int index, double value)
{
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

Statement &Statement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

Statement &Statement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

Statement &Statement::bindText(int index, const std::string &value)
{
    return value.empty() ? bindNull(index) : bind(index, value);
}

Statement &Statement::bind(int index, const std::optional<double> &value)
{
    return value ? bind(index, *value) : bindNull(index);
}

Statement &Statement::bind(int index, const std::optional<std::int64_t> &value)
{
    return value ? bind(index, *value) : bindNull(index);
}

Statement &Statement::bind(int index, const std::optional<std::string> &value)
{
    return value ? bind(index, *value) : bindNull(index);
}

Statement &Statement::bindId(int index, std::int64_t id)
{
    return id > 0 ? bind(index, id) : bindNull(index);
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    const std::string message = failureMessage(m_db, m_dbPath);
    sqlite3_reset(m_stmt);
    throw StoreError(message);
}

void Statement::run()
{
    while (step()) {
    }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::int64_t Statement::integer(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double Statement::real(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

std::string Statement::text(int column) const
{
    const auto *p = sqlite3_column_text(m_stmt, column);
    return p ? std::string(reinterpret_cast<const char *>(p),
                           size_t(sqlite3_column_bytes(m_stmt, column)))
             : std::string();
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

void execute(sqlite3 *db, const char *sql, const std::string &dbPath)
{
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
        throw StoreError(failureMessage(db, dbPath));
}

} // namespace clab::store
