#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace clab::store {

// Anything wrong with the database itself (not an SQLite file, truncated, newer schema, disk
// full). what() names the database file; the CLI prints it and exits with status 1.
class StoreError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// How long a connection waits for another one's write to finish before it gives up as busy.
inline constexpr int kBusyTimeoutMs = 5000;

// The last failure on `db` in words a user can act on, naming the database: busy (and who holds
// the lock), read-only, disk full, an I/O error with the system's reason; `doing` says what was
// tried ("cannot prepare ..."), used for any other failure.
std::string failureMessage(sqlite3 *db, const std::string &dbPath, const std::string &doing = {});

// One prepared statement, reused: reset() clears it for the next row. Values are only ever bound,
// never pasted into SQL text.
class Statement
{
public:
    Statement(sqlite3 *db, const char *sql, const std::string &dbPath);
    ~Statement();
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    Statement &bind(int index, const std::string &value);
    Statement &bind(int index, double value);
    Statement &bind(int index, std::int64_t value);
    Statement &bind(int index, int value) { return bind(index, std::int64_t(value)); }
    Statement &bindNull(int index);
    Statement &bindText(int index, const std::string &value); // empty string becomes NULL
    Statement &bind(int index, const std::optional<double> &value);
    Statement &bind(int index, const std::optional<std::int64_t> &value);
    Statement &bind(int index, const std::optional<std::string> &value);
    Statement &bindId(int index, std::int64_t id); // a row id; 0 or less (none) becomes NULL

    bool step(); // true while a row is available
    void run();  // steps once and resets: for INSERT, UPDATE, DELETE
    void reset();

    std::int64_t integer(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    bool isNull(int column) const;

private:
    sqlite3 *m_db;
    sqlite3_stmt *m_stmt = nullptr;
    std::string m_dbPath;
};

// One connection to an SQLite file, closed with it: the one way the store is opened. Every
// connection waits kBusyTimeoutMs for another one's write. Throws StoreError naming the file.
class Connection
{
public:
    enum class Open {
        ReadOnly,    // an existing experiment store of a schema this build reads
        ReadWrite,   // the same, to write in (foreign keys enforced)
        Create,      // created when missing; the caller migrates its schema
        AnyReadOnly, // an existing SQLite file; its schema is the caller's to check
    };
    Connection(const std::string &path, Open how);
    ~Connection();
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    sqlite3 *get() const { return m_db; }
    const std::string &path() const { return m_path; }
    int schemaVersion() const; // PRAGMA user_version

private:
    std::string m_path;
    sqlite3 *m_db = nullptr;
};

// Runs SQL without parameters (schema, pragmas, BEGIN/COMMIT); throws StoreError on failure.
void execute(sqlite3 *db, const char *sql, const std::string &dbPath);

} // namespace clab::store
