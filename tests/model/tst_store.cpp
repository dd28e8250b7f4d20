#include "store/import.h"
#include "store/sha256.h"
#include "store/store.h"
#include "store/storeschema.h"

#include <QtTest>

#include <sqlite3.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

using namespace clab;
using namespace clab::store;

namespace {

std::string bytesOf(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeBytes(const std::string &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string fixture(const char *name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name;
}

// A database made by plain SQLite, for states our code must refuse.
void rawSql(const std::string &path, const char *sql)
{
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

} // namespace

class TestStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sha256_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("digest");
        // FIPS 180-2 appendix B test vectors, and the two-block padding case.
        QTest::newRow("empty")
            << QByteArray()
            << QByteArray("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc")
            << QByteArray("abc")
            << QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("448 bits")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << QByteArray("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QTest::newRow("million a")
            << QByteArray(1000000, 'a')
            << QByteArray("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }
    void sha256()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, digest);
        QCOMPARE(QByteArray::fromStdString(sha256Hex(input.toStdString())), digest);
    }

    void createsAndReopens()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        {
            Store s(path);
            QCOMPARE(s.schemaVersion(), currentSchemaVersion());
            QCOMPARE(s.count(Table::Runs), 0);
        }
        Store again(path);
        QCOMPARE(again.schemaVersion(), currentSchemaVersion());
    }

    void refusesBadFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("not sqlite")
            << QStringLiteral("text") << QStringLiteral("not an SQLite database");
        QTest::newRow("truncated") << QStringLiteral("truncated") << QStringLiteral("truncated");
        QTest::newRow("short header") << QStringLiteral("header") << QStringLiteral("truncated");
        QTest::newRow("newer schema")
            << QStringLiteral("newer") << QStringLiteral("newer ComposeLab");
    }
    void refusesBadFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("bad.sqlite")).toStdString();
        if (kind == QStringLiteral("text")) {
            writeBytes(path, "round,submitter\n0.6,Google\n");
        } else if (kind == QStringLiteral("newer")) {
            rawSql(path, "CREATE TABLE t(x); PRAGMA user_version = 99;");
        } else {
            {
                Store s(path);
                Transaction t(s);
                const auto source = s.addSource({"x", "hash", "generic_csv"});
                for (int i = 0; i < 2000; ++i)
                    s.addRun({0,
                              "resnet",
                              "time_to_train",
                              double(i),
                              "min",
                              {},
                              {},
                              {},
                              {},
                              {},
                              true,
                              {},
                              std::string(200, 'x'),
                              {}},
                             source);
                t.commit();
            }
            rawSql(path, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;");
            const std::string full = bytesOf(path);
            writeBytes(path, full.substr(
                                 0, kind == QStringLiteral("header") ? 60 : full.size() / 2 + 100));
        }
        const std::string before = bytesOf(path);
        try {
            Store s(path);
            QFAIL("opened a bad database");
        } catch (const StoreError &e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.contains(message), e.what());
            QVERIFY2(what.contains(QString::fromStdString(path)), e.what());
        }
        QCOMPARE(bytesOf(path) == before, true);
        QVERIFY(!QFile::exists(QString::fromStdString(path + "-wal")));
    }

    void boundParametersKeepHostileText()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const std::string hostile = "rack \"A\" o'brien'); DROP TABLE runs; --";
        Transaction t(s);
        const auto source = s.addSource({hostile, "h1", "generic_csv"});
        const auto system = s.addSystem({hostile, "it's", "{\"q\":\"'\"}", {}}, source);
        RunRecord r{system, hostile, "time_to_train", 1.5, "min", 64, {}, {}, {}, {}, true, {},
                    {},     {}};
        s.addRun(r, source);
        t.commit();
        QCOMPARE(s.systemNames(), std::vector<std::string>{hostile});
        const auto runs = s.runs(hostile);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].system, hostile);
        QCOMPARE(runs[0].sourcePath, hostile);
        QCOMPARE(runs[0].run().globalBatch.value_or(0), 64);
    }

    void transactionRollsBack()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        {
            Transaction t(s);
            s.addSource({"a", "h", "generic_csv"});
        }
        QCOMPARE(s.count(Table::Sources), 0);
    }

    void cancelRollsBack()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
        Store s(path);
        std::atomic<bool> cancel{false};
        ImportControl control;
        control.cancel = &cancel;
        std::size_t calls = 0;
        // Cancelled from the progress callback after some rows, as a GUI thread would do.
        control.progress = [&](std::size_t done, std::size_t, const std::string &) {
            ++calls;
            if (done == 20)
                cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(
            ImportCancelled,
            importPaths(s, {fixture("nccl_all_reduce.txt"), fixture("p2p_bandwidth_latency.txt")},
                        control));
        QVERIFY(calls > 0 && cancel);
        QCOMPARE(s.count(Table::Bandwidth), 0);
        QCOMPARE(s.count(Table::Sources), 0);
    }

    void cancelFromAnotherThread()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        std::atomic<bool> cancel{false};
        std::atomic<bool> started{false};
        ImportControl control;
        control.cancel = &cancel;
        control.progress = [&](std::size_t, std::size_t, const std::string &) {
            started = true;
            // Keep the import going until the other thread has asked it to stop.
            while (!cancel.load())
                std::this_thread::yield();
        };
        std::thread stopper([&] {
            while (!started.load())
                std::this_thread::yield();
            cancel = true;
        });
        bool cancelled = false;
        try {
            importPaths(s, {fixture("nccl_all_reduce.txt")}, control);
        } catch (const ImportCancelled &) {
            cancelled = true;
        }
        stopper.join();
        QVERIFY(cancelled);
        QCOMPARE(s.count(Table::Bandwidth), 0);
    }
};

QTEST_APPLESS_MAIN(TestStore)
#include "tst_store.moc"
