// The calibration file (reading, writing, fallbacks) and the CSV reader the calibration uses.
#include "model/perftest.h"

using namespace clab;
using namespace clab::perftest;

class TestCalibrationFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void calibrationRoundTrip();
    void badCalibration_data();
    void badCalibration();
    void roundFallback();
    void csvQuoting();
    void csvMissingColumns();
    void csvUnterminatedQuote();
};

void TestCalibrationFile::calibrationRoundTrip()
{
    perf::Calibration c;
    c.benchEfficiency = {{"resnet50", 0.41234}, {"bert_large", 0.5}};
    c.benchOverheadMs = {{"resnet50", 3.25}};
    c.archFactor = {{"Ampere", 1.1}, {"Hopper", 0.95}};
    c.benchArchFactor = {{"bert_large/Hopper", 1.2}};
    c.gpuFactor = {{"A100-PCIe-40GB", 0.9}};
    c.benchRoundFactor = {{"bert_large/3.0", 1.05}};
    c.roundFactor = {{"1.0", 0.8}, {"4.0", 1.0}, {"dle", 0.7}};
    c.linkFactor = {{"nvswitch", 1.3}, {"pcie", 0.6}};
    c.overlap = 0.55;
    c.inputs = {"a.csv (fnv1a 0123456789abcdef)", "b.csv"};
    c.rows = 42;
    c.fittedAt = "2024-05-06";
    const perf::Calibration back = perf::Calibration::fromJson(c.toJson(), "roundtrip.json");
    QCOMPARE(back.benchEfficiency, c.benchEfficiency);
    QCOMPARE(back.benchOverheadMs, c.benchOverheadMs);
    QCOMPARE(back.archFactor, c.archFactor);
    QCOMPARE(back.benchArchFactor, c.benchArchFactor);
    QCOMPARE(back.gpuFactor, c.gpuFactor);
    QCOMPARE(back.benchRoundFactor, c.benchRoundFactor);
    QCOMPARE(back.roundFactor, c.roundFactor);
    QCOMPARE(back.linkFactor, c.linkFactor);
    QCOMPARE(back.overlap, c.overlap);
    QCOMPARE(back.inputs, c.inputs);
    QCOMPARE(back.rows, c.rows);
    QCOMPARE(back.fittedAt, c.fittedAt);
    // The shipped one survives the trip too.
    const perf::Calibration &b = perf::Calibration::builtin();
    QVERIFY(!b.benchEfficiency.empty());
    const perf::Calibration again = perf::Calibration::fromJson(b.toJson(), "builtin.json");
    QCOMPARE(again.benchEfficiency, b.benchEfficiency);
    QCOMPARE(again.linkFactor, b.linkFactor);
}

void TestCalibrationFile::badCalibration_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative factor")
        << QStringLiteral(R"({"benchEfficiency": {"resnet50": -0.5}})")
        << QStringLiteral("/benchEfficiency/resnet50") << QStringLiteral("greater than zero");
    QTest::newRow("zero factor") << QStringLiteral(R"({"linkFactor": {"pcie": 0}})")
                                 << QStringLiteral("/linkFactor/pcie")
                                 << QStringLiteral("greater than zero");
    QTest::newRow("string factor")
        << QStringLiteral(R"({"archFactor": {"Ampere": "1.1"}})")
        << QStringLiteral("/archFactor/Ampere") << QStringLiteral("number");
    QTest::newRow("unknown key") << QStringLiteral(R"({"overlap": 0.5, "benchEficiency": {}})")
                                 << QStringLiteral("/benchEficiency") << QString();
    QTest::newRow("overlap 2") << QStringLiteral(R"({"overlap": 2})") << QStringLiteral("/overlap")
                               << QStringLiteral("between 0 and 1");
    QTest::newRow("overlap negative")
        << QStringLiteral(R"({"overlap": -0.1})") << QStringLiteral("/overlap")
        << QStringLiteral("between 0 and 1");
}

void TestCalibrationFile::badCalibration()
{
    QFETCH(QString, json);
    QFETCH(QString, pointer);
    QFETCH(QString, message);
    try {
        perf::Calibration::fromJson(json.toStdString(), "my-calibration.json");
        QFAIL("no InputError");
    } catch (const InputError &e) {
        const std::string what = e.what();
        QCOMPARE(e.file(), std::string("my-calibration.json"));
        QVERIFY2(what.find("my-calibration.json") != std::string::npos, e.what());
        QVERIFY2(what.find(pointer.toStdString()) != std::string::npos, e.what());
        QVERIFY2(what.find(message.toStdString()) != std::string::npos, e.what());
    }
}

void TestCalibrationFile::roundFallback()
{
    perf::Calibration c;
    c.roundFactor = {{"1.0", 0.8}, {"3.0", 0.9}, {"4.0", 1.1}, {"dle", 0.7}};
    c.benchRoundFactor = {{"bert_large/2.0", 1.2}, {"bert_large/3.1", 1.3}};
    QCOMPARE(c.round("3.0"), 0.9);
    QCOMPARE(c.round("4.0"), 1.1);
    QCOMPARE(c.round("3.1"), 0.9);    // unknown: the newest earlier round
    QCOMPARE(c.round("5.0"), 1.1);    // newer than any: the newest
    QCOMPARE(c.round("0.7"), 1.0);    // older than any: 1
    QCOMPARE(c.round(""), 1.1);       // none given: the newest
    QCOMPARE(c.round("dle"), 0.7);    // a named one
    QCOMPARE(c.round("lambda"), 1.0); // unknown non-numeric: 1
    QCOMPARE(c.benchRound("bert_large", "3.1"), 1.3);
    QCOMPARE(c.benchRound("bert_large", "3.0"), 1.2);
    QCOMPARE(c.benchRound("bert_large", "4.1"), 1.3);
    QCOMPARE(c.benchRound("bert_large", "1.0"), 1.0);
    QCOMPARE(c.benchRound("bert_large", "dle"), 1.0);
    QCOMPARE(c.benchRound("resnet50", "3.1"), 1.0); // another benchmark's rounds do not count
    // Other lookups: 1 for unknown keys, 0.4 for an uncalibrated benchmark, 0 ms overhead.
    QCOMPARE(c.arch("Blackwell"), 1.0);
    QCOMPARE(c.link("nvlink9"), 1.0);
    catalog::Gpu unknown;
    unknown.arch = "Blackwell";
    unknown.formFactor = "SXM6";
    QCOMPARE(c.gpu(unknown), 1.0);
    QCOMPARE(c.benchArch("resnet50", "Ampere"), 1.0);
    QCOMPARE(c.efficiency("nobody"), 0.4);
    QCOMPARE(c.overheadS("nobody"), 0.0);
    c.benchOverheadMs["w"] = 2.5;
    QCOMPARE(c.overheadS("w"), 0.0025);

    // The round reaches the prediction: a round factor of 0.5 doubles the math time.
    const catalog::Gpu gpu = testGpu();
    const perf::Platform p = testPlatform(gpu);
    perf::Calibration t = testCalibration();
    t.roundFactor = {{"2.0", 0.5}, {"3.0", 1.0}};
    const perf::Prediction early
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, t, "2.1");
    QCOMPARE(early.efficiency, 0.25);
    CLAB_NEAR(early.computeS, 0.64 + 0.004 + 0.002);
    const perf::Prediction late
        = perf::predict(p, testWorkload(), 64, perf::Precision::Fp16, t, "3.5");
    QCOMPARE(late.efficiency, 0.5);
}

void TestCalibrationFile::csvQuoting()
{
    const std::string text = "name,note,value\r\n"
                             "a,\"x, y\",1\r\n"
                             "b,\"say \"\"hi\"\"\",2\r\n"
                             "c,\"two\nlines\",3\r\n"
                             "d,plain,4";
    const CsvTable t = CsvTable::parse(text, "q.csv");
    QCOMPARE(t.header(), (std::vector<std::string>{"name", "note", "value"}));
    QCOMPARE(t.rowCount(), std::size_t(4));
    QCOMPARE(t.field(0, "note"), std::string("x, y"));
    QCOMPARE(t.field(0, "value"), std::string("1")); // no stray \r
    QCOMPARE(t.field(1, "note"), std::string("say \"hi\""));
    QCOMPARE(t.field(2, "note"), std::string("two\nlines"));
    QCOMPARE(t.field(2, "value"), std::string("3"));
    QCOMPARE(t.field(3, "value"), std::string("4")); // last line without a newline
    // Lines where rows start: the quoted newline moves row d to line 6.
    QCOMPARE(t.lineOf(0), 2);
    QCOMPARE(t.lineOf(1), 3);
    QCOMPARE(t.lineOf(2), 4);
    QCOMPARE(t.lineOf(3), 6);
    QCOMPARE(t.fileName(), std::string("q.csv"));
}

void TestCalibrationFile::csvMissingColumns()
{
    const CsvTable t = CsvTable::parse("a,b,c\n1,2\n4,5,6,7\n\n8,9,10\n", "m.csv");
    QCOMPARE(t.rowCount(), std::size_t(3)); // the blank line is no row
    QCOMPARE(t.field(0, "a"), std::string("1"));
    QCOMPARE(t.field(0, "c"), std::string());    // short row
    QCOMPARE(t.field(1, "c"), std::string("6")); // long row: the extra field is ignored
    QCOMPARE(t.field(0, "nope"), std::string()); // absent column
    QVERIFY(t.hasColumn("b"));
    QVERIFY(!t.hasColumn("nope"));
    QCOMPARE(t.lineOf(2), 5);
}

void TestCalibrationFile::csvUnterminatedQuote()
{
    try {
        CsvTable::parse("a,b\n1,2\n3,\"never closed\n4,5\n", "u.csv");
        QFAIL("no InputError");
    } catch (const InputError &e) {
        QCOMPARE(e.file(), std::string("u.csv"));
        QCOMPARE(e.place(), std::string("line 3"));
        QVERIFY2(std::string(e.what()).find("u.csv: line 3") != std::string::npos, e.what());
    }
    try {
        CsvTable::parse("", "empty.csv");
        QFAIL("no InputError");
    } catch (const InputError &e) {
        QCOMPARE(e.file(), std::string("empty.csv"));
    }
}

QTEST_APPLESS_MAIN(TestCalibrationFile)
#include "tst_calibrationfile.moc"
