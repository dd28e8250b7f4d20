// Inputs that the fuzz targets of tests/fuzz found to break a reader. Each is kept in the fuzz
// corpus as found-* (so that CI replays it under ASan+UBSan too) and read here through the
// program's own entry point: it must be refused with an InputError that names the file and the
// place, and leave the experiment store as it was.
#include "store/import.h"
#include "store/store.h"
#include "util/inputerror.h"

#include <QtTest>

using namespace clab;
using namespace clab::store;

class TestFuzzFound : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void importRefusesIt_data()
    {
        QTest::addColumn<QString>("input");    // tests/fuzz/corpus/<target>/found-*
        QTest::addColumn<QString>("fileName"); // the name it is imported under (picks the reader)
        QTest::addColumn<QString>("place");
        QTest::addColumn<QString>("message");
        // An MLPerf results table whose row ends in NUL and a lone 0xE3: the CSV importer put the
        // row into JSON details, and the JSON writer threw nlohmann's type_error 316, which no
        // caller expects. The byte is at offset 60; line 2 starts at 46, so column 15.
        QTest::newRow("csv: byte 0xE3 in an MLPerf row")
            << QStringLiteral("import_csv/found-mlperf-row-latin1") << QStringLiteral("results.csv")
            << QStringLiteral("line 2, column 15") << QStringLiteral("not UTF-8 text (byte 0xE3)");
        // nccl-tests output where "nGpus " ends a device line (line 6): reading the number after
        // it threw std::out_of_range. Now that line is chatter, and the first bad thing is the
        // count of line 12, "\x01\0\0\0".
        QTest::newRow("nccl: nGpus at the end of a line")
            << QStringLiteral("nccl/found-ngpus-ends-a-line") << QStringLiteral("all_reduce.txt")
            << QStringLiteral("line 12") << QStringLiteral("column \"count\":");
    }
    void importRefusesIt()
    {
        QFETCH(QString, input);
        QFETCH(QString, fileName);
        QFETCH(QString, place);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file = dir.filePath(fileName);
        QVERIFY(QFile::copy(QStringLiteral(CLAB_TEST_DATA "/../fuzz/corpus/") + input, file));
        Store store(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        try {
            importPaths(store, {file.toStdString()});
            QFAIL("the input was imported");
        } catch (const InputError &e) {
            QCOMPARE(QString::fromStdString(e.file()), file);
            QCOMPARE(QString::fromStdString(e.place()), place);
            QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
        }
        QCOMPARE(store.count(Table::Sources), 0);
        QCOMPARE(store.count(Table::Runs), 0);
    }
};

QTEST_APPLESS_MAIN(TestFuzzFound)
#include "tst_fuzzfound.moc"
