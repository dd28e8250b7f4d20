#pragma once

#include <string>

namespace clab::store {

// Who holds a write lock on an SQLite database or its -wal, -shm or -journal file, read from
// Linux's /proc/locks: "process 4242 (sqlite3)", "another connection of this program", or empty
// when it cannot be told (another system, or a lock that is already gone).
std::string lockHolders(const std::string &dbPath);

} // namespace clab::store
