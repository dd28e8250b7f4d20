// The experiment store under stress across processes, with the real `composelab import`: another
// process holding the write lock, a read-only database file and a read-only folder (the import
// runs as an unprivileged user, since root ignores permissions), a disk that fills up (a file-size
// limit in the child), and an import SIGKILLed halfway. Each time the committed runs stay, the
// database passes integrity_check, and the message says what happened.
#include "store/import.h"
#include "store/store.h"

#include <sqlite3.h>

#include <QtTest>

#include <QElapsedTimer>
#include <QProcess>
#include <QThread>

#include <csignal>
#include <cstdio>
#include <fstream>

#include <grp.h>
#include <pwd.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace clab;

namespace {

// Helper mode of this program (see main): another process that takes the write lock, deletes
// every run without committing, says "locked" and waits until its stdin closes.
int holdLock(const char *path)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
        return 3;
    if (sqlite3_exec(db, "BEGIN EXCLUSIVE; DELETE FROM runs", nullptr, nullptr, nullptr)
        != SQLITE_OK)
        return 4;
    std::printf("locked\n");
    std::fflush(stdout);
    char c;
    while (std::fread(&c, 1, 1, stdin) == 1) {
    }
    sqlite3_close(db); // without COMMIT: the delete is rolled back
    return 0;
}

std::string fixture(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name;
}

std::string integrity(const std::string &path)
{
    sqlite3 *db = nullptr;
    sqlite3_stmt *stmt = nullptr;
    std::string out = "cannot open";
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK
        && sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nullptr) == SQLITE_OK
        && sqlite3_step(stmt) == SQLITE_ROW)
        out = reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
}

struct Result
{
    int exitCode = -1;
    QString err;
};

Result finish(QProcess &p)
{
    if (!p.waitForFinished(120000))
        return {-1, QStringLiteral("did not finish")};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

void startImport(QProcess &p, const std::string &file, const std::string &db)
{
    p.setProgram(QStringLiteral(CLAB_BINARY));
    p.setArguments({QStringLiteral("import"), QString::fromStdString(file), QStringLiteral("--db"),
                    QString::fromStdString(db)});
    p.start();
}

} // namespace

class TestStoreStressCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string m_bigCsv;

    // A fresh folder (world-writable, so that an unprivileged child may use it) holding a store
    // with the three runs of generic_runs.csv.
    std::string storeWithRuns(const QString &name)
    {
        const QString folder = m_dir.filePath(name);
        QDir().mkpath(folder);
        QFile::setPermissions(folder, QFileDevice::Permissions(0x7777));
        const std::string db = (folder + QStringLiteral("/s.sqlite")).toStdString();
        store::Store s(db);
        store::importPaths(s, {fixture("generic_runs.csv")});
        return db;
    }

    // The runs of before, nothing else, and an intact file.
    void checkUnchanged(const std::string &db)
    {
        QCOMPARE(integrity(db), std::string("ok"));
        store::Store s(db);
        QCOMPARE(s.count(store::Table::Runs), 3);
        QCOMPARE(s.count(store::Table::Sources), 1);
        QCOMPARE(s.count(store::Table::Bandwidth), 0);
    }

    // Runs the import as the unprivileged user "nobody" when this test runs as root.
    Result importAsUser(const std::string &file, const std::string &db)
    {
        QProcess p;
        if (::geteuid() == 0) {
            p.setChildProcessModifier([] {
                ::setgroups(0, nullptr);
                if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                    ::_exit(99);
            });
        }
        startImport(p, file, db);
        return finish(p);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral(CLAB_BINARY)), CLAB_BINARY " is not built");
        QFile::setPermissions(m_dir.path(), QFileDevice::Permissions(0x7755));
        // 400,000 runs, about 27 MB: an import that takes seconds, long enough to be caught.
        m_bigCsv = m_dir.filePath(QStringLiteral("big.csv")).toStdString();
        std::ofstream out(m_bigCsv);
        out << "system,benchmark,metric,value,unit,notes\n";
        for (int i = 0; i < 400000; ++i)
            out << "rack " << (i % 7) << ",resnet,time_to_train," << (10 + i % 50)
                << ",min,row number " << i << " of the stress table\n";
        QVERIFY(out.good());
    }

    void lockedByAnotherProcess()
    {
        const std::string db = storeWithRuns(QStringLiteral("locked"));
        QProcess holder;
        holder.start(QCoreApplication::applicationFilePath(),
                     {QStringLiteral("--hold-lock"), QString::fromStdString(db)});
        QVERIFY(holder.waitForStarted());
        while (!holder.canReadLine())
            QVERIFY2(holder.waitForReadyRead(30000), "the lock holder never took the lock");
        QCOMPARE(holder.readLine(), QByteArray("locked\n"));
        QProcess p;
        startImport(p, fixture("nccl_all_reduce.txt"), db);
        const Result r = finish(p);
        QCOMPARE(r.exitCode, 1);
        // /proc/<pid>/comm keeps the first 15 characters of the program's name.
        const QString holderName
            = QFileInfo(QCoreApplication::applicationFilePath()).fileName().left(15);
        QVERIFY2(r.err.startsWith(QString::fromStdString(db)
                                  + QStringLiteral(": the database is busy: another connection is "
                                                   "writing to it (process %1 (%2)); gave up "
                                                   "after 5 s. Nothing was changed")
                                        .arg(holder.processId())
                                        .arg(holderName)),
                 qPrintable(r.err));
        holder.closeWriteChannel();
        QVERIFY(holder.waitForFinished(30000));
        QCOMPARE(holder.exitCode(), 0);
        checkUnchanged(db);
    }

    void readOnlyFile()
    {
        if (::geteuid() == 0 && !::getpwnam("nobody"))
            QSKIP("running as root without a \"nobody\" user to drop to");
        const std::string db = storeWithRuns(QStringLiteral("readonly-file"));
        QVERIFY(QFile::setPermissions(QString::fromStdString(db), QFileDevice::ReadOwner
                                                                      | QFileDevice::ReadGroup
                                                                      | QFileDevice::ReadOther));
        const Result r = importAsUser(fixture("nccl_all_reduce.txt"), db);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, QString::fromStdString(db)
                            + QStringLiteral(": cannot write: the database is read-only (the file, "
                                             "its folder or the file system does not allow "
                                             "writing). Nothing was changed.\n"));
        QFile::setPermissions(QString::fromStdString(db), QFileDevice::Permissions(0x6644));
        checkUnchanged(db);
    }

    void readOnlyFolder()
    {
        if (::geteuid() == 0 && !::getpwnam("nobody"))
            QSKIP("running as root without a \"nobody\" user to drop to");
        const std::string db = storeWithRuns(QStringLiteral("readonly-folder"));
        const QString folder = QFileInfo(QString::fromStdString(db)).path();
        QFile::setPermissions(QString::fromStdString(db), QFileDevice::Permissions(0x6666));
        QFile::setPermissions(folder, QFileDevice::Permissions(0x5555));
        const Result r = importAsUser(fixture("nccl_all_reduce.txt"), db);
        QFile::setPermissions(folder, QFileDevice::Permissions(0x7755));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, QString::fromStdString(db)
                            + QStringLiteral(": cannot write: its folder is read-only, and SQLite "
                                             "must create %1-wal and -shm beside it. Nothing was "
                                             "changed.\n")
                                  .arg(QString::fromStdString(db)));
        checkUnchanged(db);
    }

    void fullDisk()
    {
        const std::string db = storeWithRuns(QStringLiteral("full"));
        QProcess p;
        // The child may grow no file past 1 MB, as on a nearly full disk; SIGXFSZ is ignored so
        // that write() fails with EFBIG instead of the signal killing the process.
        p.setChildProcessModifier([] {
            std::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit{1 << 20, 1 << 20};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        startImport(p, m_bigCsv, db);
        const Result r = finish(p);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(QString::fromStdString(db)
                                  + QStringLiteral(": cannot write to disk: File too large. "
                                                   "Nothing of this change was kept.")),
                 qPrintable(r.err));
        checkUnchanged(db);
    }

    void importKilledHalfway()
    {
        const std::string db = storeWithRuns(QStringLiteral("killed"));
        const QString wal = QString::fromStdString(db) + QStringLiteral("-wal");
        QProcess p;
        startImport(p, m_bigCsv, db);
        QVERIFY(p.waitForStarted());
        // The import's pages overflow SQLite's 2 MB cache into the -wal file long before it
        // commits: once that holds 4 MB the transaction is under way.
        QElapsedTimer clock;
        clock.start();
        while (p.state() == QProcess::Running && QFileInfo(wal).size() < (4 << 20)
               && clock.elapsed() < 120000)
            QThread::usleep(500);
        QVERIFY2(p.state() == QProcess::Running,
                 "the import ended before it could be killed: make the table larger");
        p.kill();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        checkUnchanged(db);
        // The store works after: the same table imports whole.
        store::Store s(db);
        store::importPaths(s, {m_bigCsv});
        QCOMPARE(s.count(store::Table::Runs), 400003);
    }
};

int main(int argc, char **argv)
{
    if (argc == 3 && std::string(argv[1]) == "--hold-lock")
        return holdLock(argv[2]);
    QCoreApplication app(argc, argv);
    TestStoreStressCli test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_storestress.moc"
