#include "store/sqlite.h"

#include <sqlite3.h>

namespace clab::store {

namespace {

[[noreturn]] void fail(sqlite3 *db, const std::string &dbPath, const std::string &what)
{
    throw StoreError(dbPath + ": " + what + ": " + sqlite3_errmsg(db));
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
    const std::string message = sqlite3_errmsg(m_db);
    sqlite3_reset(m_stmt);
    throw StoreError(m_dbPath + ": " + message);
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
    char *error = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : sqlite3_errmsg(db);
        sqlite3_free(error);
        throw StoreError(dbPath + ": " + message);
    }
}

} // namespace clab::store
