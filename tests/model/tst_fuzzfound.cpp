// Inputs that the fuzz targets of tests/fuzz found to break a reader. Each is kept in the fuzz
// corpus as found-* (so that CI replays it under ASan+UBSan too) and read here through the
// program's own entry point: it must be refused with an InputError that names the file and the
// place, and leave the experiment store as it was.
#include "perf/calibration.h"
#include "store/import.h"
#include "store/store.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <QtTest>

using namespace clab;
using namespace clab::store;

namespace {

QString corpus(const QString &input)
{
    return QStringLiteral(CLAB_TEST_DATA "/../fuzz/corpus/") + input;
}

} // namespace

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
        QVERIFY(QFile::copy(corpus(input), file));
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

    // Calibration files (validate --calibration): the fuzz target also writes a calibration that
    // reads and reads it again. toJson keeps five decimals, so 1e307 (times 1e5, infinite) was
    // written as null and 1e-6 as 0, and neither file could be read back.
    void calibrationRefusesIt_data()
    {
        QTest::addColumn<QString>("input"); // a corpus file, or empty to read `json`
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("place");
        QTest::addColumn<QString>("message");
        // The saved input: a calibration of the first model's format with mutated values, one of
        // them 1e307. The second model's reader refuses its first unknown table.
        QTest::newRow("fuzz input")
            << QStringLiteral("calibration/found-factor-1e307") << QString()
            << QStringLiteral("at /archFactor") << QStringLiteral("unknown key");
        QTest::newRow("1e307") << QString()
                               << QStringLiteral(R"({"software": {"mlperf-4.0": 1e307}})")
                               << QStringLiteral("at /software/mlperf-4.0")
                               << QStringLiteral("found 1e+307");
        QTest::newRow("1e-6") << QString()
                              << QStringLiteral(R"({"bench": {"w": {"overheadMs": 1e-6}}})")
                              << QStringLiteral("at /bench/w/overheadMs")
                              << QStringLiteral("found 1e-06");
    }
    void calibrationRefusesIt()
    {
        QFETCH(QString, input);
        QFETCH(QString, json);
        QFETCH(QString, place);
        QFETCH(QString, message);
        const std::string file = input.isEmpty() ? "c.json" : corpus(input).toStdString();
        const std::string text = input.isEmpty() ? json.toStdString() : readTextFile(file);
        try {
            perf::Calibration::fromJson(text, file);
            QFAIL("the calibration was read");
        } catch (const InputError &e) {
            QCOMPARE(QString::fromStdString(e.place()), place);
            QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestFuzzFound)
#include "tst_fuzzfound.moc"
