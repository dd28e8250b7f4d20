#pragma once

#include <string>
#include <vector>

struct sqlite3;

namespace clab::store {

// One step of the schema: SQL that takes a database from version `to - 1` to `to`.
struct Migration
{
    int to;
    const char *sql;
};

// The steps in order; the last one's `to` is the schema this build writes.
const std::vector<Migration> &migrations();
int currentSchemaVersion();

// Looks at the file's bytes without opening it through SQLite: refuses (StoreError naming the file)
// one that is not an SQLite database or that is shorter than its header says. A missing or empty
// file is fine (it becomes a new store).
void checkDatabaseFile(const std::string &path);

// Reads PRAGMA user_version, refuses a newer schema, and applies the missing steps, each in its own
// transaction together with the new user_version.
void migrate(sqlite3 *db, const std::string &path);

} // namespace clab::store
