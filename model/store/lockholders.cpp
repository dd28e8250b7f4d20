#include "store/lockholders.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace clab::store {

namespace {

std::string commandName(long pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

} // namespace

std::string lockHolders(const std::string &dbPath)
{
    // SQLite takes POSIX (fcntl) locks: on the database file in rollback-journal mode, on the -shm
    // file in WAL mode. /proc/locks lists them as "1: POSIX ADVISORY WRITE <pid> <maj:min:inode>
    // <start> <end>"; lines with "->" are processes waiting for a lock, not holding it.
    std::set<unsigned long long> inodes;
    for (const char *suffix : {"", "-shm", "-wal", "-journal"}) {
        struct stat st = {};
        if (::stat((dbPath + suffix).c_str(), &st) == 0)
            inodes.insert(static_cast<unsigned long long>(st.st_ino));
    }
    std::ifstream locks("/proc/locks");
    std::set<long> pids;
    bool self = false;
    std::string line;
    while (std::getline(locks, line)) {
        std::istringstream in(line);
        std::vector<std::string> fields;
        for (std::string f; in >> f;)
            fields.push_back(f);
        if (fields.size() < 6 || fields[1] == "->" || fields[1] != "POSIX" || fields[3] != "WRITE")
            continue;
        const std::string &file = fields[5];
        const auto colon = file.rfind(':');
        if (colon == std::string::npos)
            continue;
        const unsigned long long inode = std::strtoull(file.c_str() + colon + 1, nullptr, 10);
        const long pid = std::strtol(fields[4].c_str(), nullptr, 10);
        if (!inodes.count(inode) || pid <= 0)
            continue;
        if (pid == long(::getpid()))
            self = true;
        else
            pids.insert(pid);
    }
    std::string out;
    for (long pid : pids) {
        const std::string name = commandName(pid);
        out += (out.empty() ? "" : ", ") + ("process " + std::to_string(pid))
               + (name.empty() ? "" : " (" + name + ")");
    }
    if (out.empty() && self)
        out = "another connection of this program";
    return out;
}

} // namespace clab::store
