// The experiment store under stress, in one process: a database another connection is writing
// (WAL and rollback-journal mode), and a disk that fills up in the middle of an import (a file-size
// limit, RLIMIT_FSIZE, makes the writes fail as a full disk does). Each gives a message naming the
// database, changes nothing that was committed, and leaves an intact database that works after.
// tests/app/tst_storestress.cpp does the same across processes.
#include "store/import.h"
#include "store/sqlite.h"
#include "store/store.h"

#include <sqlite3.h>

#include <QtTest>

#include <csignal>
#include <fstream>

#include <sys/resource.h>

using namespace clab;
using namespace clab::store;

namespace {

std::string fixture(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name;
}

// A second, raw connection: what another program (the sqlite3 shell, a second ComposeLab) does.
class RawConnection
{
public:
    explicit RawConnection(const std::string &path)
    {
        sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE, nullptr);
    }
    ~RawConnection() { sqlite3_close(m_db); }
    RawConnection(const RawConnection &) = delete;
    RawConnection &operator=(const RawConnection &) = delete;

    int exec(const char *sql) { return sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr); }
    std::string text(const char *sql)
    {
        sqlite3_stmt *stmt = nullptr;
        std::string out;
        if (sqlite3_prepare_v2(m_db, sql, -1, &stmt, nullptr) == SQLITE_OK
            && sqlite3_step(stmt) == SQLITE_ROW)
            out = reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0));
        sqlite3_finalize(stmt);
        return out;
    }

private:
    sqlite3 *m_db = nullptr;
};

// A generic CSV of `rows` runs: about 60 bytes a row.
std::string bigCsv(const QTemporaryDir &dir, int rows)
{
    const std::string path = dir.filePath(QStringLiteral("big.csv")).toStdString();
    std::ofstream out(path);
    out << "system,benchmark,metric,value,unit,notes\n";
    for (int i = 0; i < rows; ++i)
        out << "rack " << (i % 7) << ",resnet,time_to_train," << (10 + i % 50) << ",min,row number "
            << i << " of the stress table\n";
    return path;
}

} // namespace

class TestStoreStress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void busyWhileAnotherConnectionWrites()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        {
            Store s(db);
            importPaths(s, {fixture("generic_runs.csv")});
        }
        RawConnection other(db);
        QCOMPARE(other.exec("BEGIN EXCLUSIVE"), SQLITE_OK);
        Store s(db); // reading works beside a writer in WAL mode
        QCOMPARE(s.count(Table::Runs), 3);
        try {
            importPaths(s, {fixture("nccl_all_reduce.txt")});
            QFAIL("imported while another connection held the write lock");
        } catch (const StoreError &e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QString::fromStdString(db)
                         + QStringLiteral(": the database is busy: another connection is writing "
                                          "to it (another connection of this program); gave up "
                                          "after 5 s. Nothing was changed; try again when it has "
                                          "finished."));
        }
        QCOMPARE(s.count(Table::Runs), 3);
        QCOMPARE(s.count(Table::Bandwidth), 0);
        QCOMPARE(other.exec("ROLLBACK"), SQLITE_OK);
        // Once the other writer is done, the same store imports.
        importPaths(s, {fixture("nccl_all_reduce.txt")});
        QCOMPARE(s.count(Table::Bandwidth), 26);
    }

    void busyInRollbackJournalMode()
    {
        // A store that another tool switched back to a rollback journal: there a writer's
        // exclusive lock keeps readers out too, so even opening waits, and used to report "not a
        // usable SQLite database (database is locked)".
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        {
            Store s(db);
            importPaths(s, {fixture("generic_runs.csv")});
        }
        RawConnection other(db);
        QCOMPARE(other.text("PRAGMA journal_mode=DELETE"), std::string("delete"));
        QCOMPARE(other.exec("BEGIN EXCLUSIVE"), SQLITE_OK);
        QCOMPARE(other.exec("DELETE FROM runs"), SQLITE_OK); // the exclusive lock is taken now
        try {
            Store s(db);
            QFAIL("opened while another connection held an exclusive lock");
        } catch (const StoreError &e) {
            QVERIFY2(QString::fromStdString(e.what()).startsWith(
                         QString::fromStdString(db)
                         + QStringLiteral(": the database is busy: another connection "
                                          "is writing to it")),
                     e.what());
        }
        QCOMPARE(other.exec("ROLLBACK"), SQLITE_OK);
        Store s(db);
        QCOMPARE(s.count(Table::Runs), 3);
    }

    void fullDiskRollsTheImportBack()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        const std::string csv = bigCsv(dir, 20000); // about 1.2 MB of rows
        {
            Store s(db);
            importPaths(s, {fixture("generic_runs.csv")});
        }
        // No file of this process may grow past 256 KB from here: the log of the import (-wal)
        // soon hits it, and write() fails with EFBIG as it fails with ENOSPC on a full disk.
        // SIGXFSZ would kill the process instead, so it is ignored meanwhile.
        rlimit saved = {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = saved;
        small.rlim_cur = 256 * 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        QString message;
        {
            Store s(db);
            try {
                importPaths(s, {csv});
            } catch (const StoreError &e) {
                message = QString::fromStdString(e.what());
            }
        }
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY2(message.startsWith(QString::fromStdString(db) + QStringLiteral(": cannot write"))
                     && message.contains(QStringLiteral("File too large"))
                     && message.endsWith(QStringLiteral("Nothing of this change was kept.")),
                 qPrintable(message));
        // The runs of before, nothing of the failed import, an intact file, a store that works.
        Store s(db);
        QCOMPARE(s.count(Table::Runs), 3);
        QCOMPARE(s.count(Table::Sources), 1);
        QCOMPARE(RawConnection(db).text("PRAGMA integrity_check"), std::string("ok"));
        importPaths(s, {csv});
        QCOMPARE(s.count(Table::Runs), 20003);
    }
};

QTEST_APPLESS_MAIN(TestStoreStress)
#include "tst_storestress.moc"
