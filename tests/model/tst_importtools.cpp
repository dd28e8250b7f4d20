#include "store/import.h"
#include "store/store.h"
#include "util/inputerror.h"

#include <QtTest>

using namespace clab;
using namespace clab::store;

namespace {

std::string fixture(const QString &name)
{
    return std::string(CLAB_TEST_DATA) + "/import/" + name.toStdString();
}

const BandwidthRecord *find(const std::vector<BandwidthRecord> &all, const std::string &test,
                            const std::string &from, const std::string &to, std::int64_t bytes = -1)
{
    for (const auto &b : all) {
        if (b.test == test && b.from == from && b.to == to
            && (bytes < 0 || b.messageBytes.value_or(-1) == bytes))
            return &b;
    }
    return nullptr;
}

} // namespace

class TestImportTools : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Golden rows: a file, how many measurements it holds, one cell and its value.
    void golden_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("test");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<double>("gbps");
        QTest::addColumn<double>("latencyUs");
        QTest::addColumn<QString>("link");
        // 13 sizes × out-of-place and in-place; busbw is the stored GB/s, time the latency. The
        // test is named from the file when the output does not say (older nccl-tests).
        QTest::newRow("nccl all_reduce")
            << QStringLiteral("nccl_all_reduce.txt") << QStringLiteral("nccl-tests") << 26
            << QStringLiteral("all_reduce_perf in-place") << QString() << QString()
            << qint64(134217728) << 205.71 << 1141.8 << QStringLiteral("collective");
        QTest::newRow("nccl old format")
            << QStringLiteral("nccl_all_gather_old.txt") << QStringLiteral("nccl-tests") << 14
            << QStringLiteral("all_gather_perf out-of-place") << QString() << QString()
            << qint64(4194304) << 20.90 << 150.5 << QStringLiteral("collective");
        // 4 bandwidth matrices of 3×3 and 2 latency matrices with GPU and CPU blocks.
        QTest::newRow("p2p bandwidth")
            << QStringLiteral("p2p_bandwidth_latency.txt")
            << QStringLiteral("p2pBandwidthLatencyTest") << 72
            << QStringLiteral("Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)")
            << QStringLiteral("GPU1") << QStringLiteral("GPU0") << qint64(-1) << 51.77 << -1.0
            << QStringLiteral("p2p");
        QTest::newRow("p2p cpu latency")
            << QStringLiteral("p2p_bandwidth_latency.txt")
            << QStringLiteral("p2pBandwidthLatencyTest") << 72
            << QStringLiteral("P2P=Enabled Latency (P2P Writes) Matrix (us) CPU")
            << QStringLiteral("GPU2") << QStringLiteral("GPU0") << qint64(-1) << -1.0 << 2.26
            << QStringLiteral("p2p");
        QTest::newRow("bandwidthTest")
            << QStringLiteral("bandwidth_test.txt") << QStringLiteral("bandwidthTest") << 3
            << QStringLiteral("Device to Host PINNED") << QStringLiteral("GPU0")
            << QStringLiteral("host") << qint64(32000000) << 26.4 << -1.0 << QStringLiteral("d2h");
        QTest::newRow("bandwidthTest MB/s")
            << QStringLiteral("bandwidth_test_mbs.txt") << QStringLiteral("bandwidthTest") << 6
            << QStringLiteral("Host to Device PAGEABLE") << QStringLiteral("host")
            << QStringLiteral("GPU0") << qint64(21000000) << 10.2157 << -1.0
            << QStringLiteral("h2d");
        // N/A cells are not measurements: 2 + 2 + 2 + 2.
        QTest::newRow("nvbandwidth read")
            << QStringLiteral("nvbandwidth.txt") << QStringLiteral("nvbandwidth") << 8
            << QStringLiteral("device_to_device_memcpy_read_ce") << QStringLiteral("GPU1")
            << QStringLiteral("GPU0") << qint64(-1) << 389.14 << -1.0 << QStringLiteral("p2p");
        QTest::newRow("nvbandwidth d2h")
            << QStringLiteral("nvbandwidth.txt") << QStringLiteral("nvbandwidth") << 8
            << QStringLiteral("device_to_host_memcpy_ce") << QStringLiteral("GPU1")
            << QStringLiteral("CPU0") << qint64(-1) << 55.69 << -1.0 << QStringLiteral("d2h");
    }
    void golden()
    {
        QFETCH(QString, file);
        QFETCH(QString, tool);
        QFETCH(int, count);
        QFETCH(QString, test);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(qint64, bytes);
        QFETCH(double, gbps);
        QFETCH(double, latencyUs);
        QFETCH(QString, link);
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport report = importPaths(s, {fixture(file)});
        QCOMPARE(report.imported.size(), std::size_t(1));
        const auto all = s.bandwidth(tool.toStdString());
        QCOMPARE(int(all.size()), count);
        const BandwidthRecord *b
            = find(all, test.toStdString(), from.toStdString(), to.toStdString(), bytes);
        QVERIFY2(b, qPrintable(test));
        QCOMPARE(QString::fromStdString(b->link), link);
        if (gbps >= 0)
            QCOMPARE(b->gbps.value_or(-1), gbps);
        if (latencyUs >= 0)
            QCOMPARE(b->latencyUs.value_or(-1), latencyUs);
        QVERIFY(!b->place.empty());
    }

    void badFilesNameTheLine_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("place");
        QTest::newRow("nccl garbled row")
            << QStringLiteral("nccl_garbled.txt") << QStringLiteral(":line 24:");
        QTest::newRow("nccl cut mid-row")
            << QStringLiteral("nccl_truncated.txt") << QStringLiteral(":line 30:");
        QTest::newRow("p2p cut short")
            << QStringLiteral("p2p_truncated.txt") << QStringLiteral(":line 37:");
        QTest::newRow("bandwidthTest garbled")
            << QStringLiteral("bandwidth_test_garbled.txt") << QStringLiteral(":line 15:");
        QTest::newRow("nvbandwidth garbled")
            << QStringLiteral("nvbandwidth_garbled.txt") << QStringLiteral(":line 30:");
    }
    void badFilesNameTheLine()
    {
        QFETCH(QString, file);
        QFETCH(QString, place);
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        importPaths(s, {fixture(QStringLiteral("bandwidth_test.txt"))});
        const auto before = s.count(Table::Bandwidth);
        try {
            importPaths(s, {fixture(QStringLiteral("nccl_all_reduce.txt")), fixture(file)});
            QFAIL("a bad file was accepted");
        } catch (const InputError &e) {
            const QString what = QString::fromStdString(e.what()).remove(QLatin1Char(' '));
            QVERIFY2(what.contains(file) && what.contains(QString(place).remove(QLatin1Char(' '))),
                     e.what());
        }
        // The good file before it in the same import is rolled back too.
        QCOMPARE(s.count(Table::Bandwidth), before);
        QCOMPARE(s.count(Table::Sources), 1);
    }

    void folderSkipsBadFilesAlone()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport report = importPaths(s, {std::string(CLAB_TEST_DATA) + "/import"});
        QString skipped;
        for (const auto &k : report.skipped)
            skipped += QString::fromStdString(k.path + ": " + k.reason) + QLatin1Char('\n');
        for (const char *bad : {"nccl_garbled.txt", "nccl_truncated.txt", "p2p_truncated.txt",
                                "bandwidth_test_garbled.txt", "nvbandwidth_garbled.txt",
                                "generic_bad_last_row.csv", "unknown_table.csv", "notes.txt"})
            QVERIFY2(skipped.contains(QLatin1String(bad)), qPrintable(skipped));
        // Good files: 26 + 14 + 72 + 3 + 6 + 8 measurements.
        QCOMPARE(s.count(Table::Bandwidth), 129);
        const auto again = importPaths(s, {std::string(CLAB_TEST_DATA) + "/import"});
        QCOMPARE(again.imported.size(), std::size_t(0));
        QCOMPARE(s.count(Table::Bandwidth), 129);
    }
};

QTEST_APPLESS_MAIN(TestImportTools)
#include "tst_importtools.moc"
