// The calibration file (reading, writing, software and interval fallbacks) and the CSV reader
// the calibration uses.
#include "model/perftest.h"
#include "util/jsonreader.h"

using namespace clab;
using namespace clab::perftest;

class TestCalibrationFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void calibrationRoundTrip();
    void badCalibration_data();
    void badCalibration();
    void softwareFallback();
    void csvQuoting();
    void csvMissingColumns();
    void csvUnterminatedQuote();
};

void TestCalibrationFile::calibrationRoundTrip()
{
    perf::Calibration c;
    c.bench["resnet50"] = {0.41234, 1.5, 3.25, 0.75};
    c.bench["bert_large"] = {0.5, 0.8, 1, 2};
    c.bench["ssd_resnet34"] = {0.45, 1.1, 1.5, 0.25};
    c.overlap = 0.55;
    c.hostJitter = 0.24;
    c.software = {{"mlperf-1.0", 0.8}, {"mlperf-4.0", 1.0}, {"dle-pytorch-21.11", 0.7}};
    c.benchSoftware = {{"bert_large/mlperf-3.0", 1.05}};
    c.defaultSoftware = "mlperf-4.0";
    c.intervals = {{"", {-0.1, 0.2, 100}},
                   {"resnet50/Ampere", {-0.05, 0.08, 40}},
                   {"arch-out", {-0.3, 0.4, 300}}};
    c.architectures = std::set<std::string, std::less<>>{"Ampere", "Hopper"};
    c.inputs = {"a.csv (fnv1a 0123456789abcdef)", "b.csv"};
    c.rows = 42;
    c.fittedAt = "2024-05-06";
    c.report = "Fitted on 42 rows.\n";
    const perf::Calibration back = perf::Calibration::fromJson(c.toJson(), "roundtrip.json");
    QCOMPARE(back.bench.size(), c.bench.size());
    QCOMPARE(back.bench.at("resnet50").gemmEfficiency, 0.41234);
    QCOMPARE(back.bench.at("resnet50").memoryScale, 1.5);
    QCOMPARE(back.bench.at("resnet50").overheadMs, 3.25);
    QCOMPARE(back.bench.at("ssd_resnet34").evalOverheadS, 0.25);
    // ResNet-50's evaluation is measured (workloads.json): no fitted overhead is written for it.
    const clab::Json written = clab::Json::parse(c.toJson());
    QVERIFY(!written["bench"]["resnet50"].contains("evalOverheadS"));
    QVERIFY(written["bench"]["ssd_resnet34"].contains("evalOverheadS"));
    QCOMPARE(back.overlap, c.overlap);
    QCOMPARE(back.hostJitter, c.hostJitter);
    QCOMPARE(back.software, c.software);
    QCOMPARE(back.benchSoftware, c.benchSoftware);
    QCOMPARE(back.defaultSoftware, c.defaultSoftware);
    QCOMPARE(back.intervals.size(), c.intervals.size());
    QCOMPARE(back.intervals.at("resnet50/Ampere").p90, 0.08);
    QCOMPARE(back.intervals.at("").rows, 100);
    QCOMPARE(back.architectures, c.architectures);
    // An empty list (no architecture with enough rows) stays a list, and sees nothing; a file
    // without one sees every architecture.
    c.architectures.emplace();
    const perf::Calibration empty = perf::Calibration::fromJson(c.toJson(), "empty.json");
    QVERIFY(empty.architectures && empty.architectures->empty());
    QVERIFY(!empty.sawArchitecture("Ampere"));
    c.architectures.reset();
    QVERIFY(!clab::Json::parse(c.toJson()).contains("architectures"));
    QVERIFY(perf::Calibration::fromJson(c.toJson(), "old.json").sawArchitecture("Ampere"));
    QCOMPARE(back.inputs, c.inputs);
    QCOMPARE(back.rows, c.rows);
    QCOMPARE(back.fittedAt, c.fittedAt);
    QCOMPARE(back.report, c.report);
    // The shipped one survives the trip too, and says where it came from.
    const perf::Calibration &b = perf::Calibration::builtin();
    QVERIFY(!b.bench.empty());
    QVERIFY(!b.defaultSoftware.empty());
    QVERIFY(!b.intervals.empty());
    QVERIFY(b.intervals.count("arch-out"));
    const perf::Calibration again = perf::Calibration::fromJson(b.toJson(), "builtin.json");
    QCOMPARE(again.software, b.software);
    QCOMPARE(again.bench.size(), b.bench.size());
    // No benchmark of the shipped calibration beats its GPU's measured GEMM rate.
    for (const auto &[id, p] : b.bench)
        QVERIFY2(p.gemmEfficiency <= 1, id.c_str());
}

void TestCalibrationFile::badCalibration_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative factor")
        << QStringLiteral(R"({"bench": {"resnet50": {"gemmEfficiency": -0.5}}})")
        << QStringLiteral("/bench/resnet50/gemmEfficiency") << QStringLiteral("greater than zero");
    QTest::newRow("efficiency above 1")
        << QStringLiteral(R"({"bench": {"resnet50": {"gemmEfficiency": 1.5}}})")
        << QStringLiteral("/bench/resnet50/gemmEfficiency") << QStringLiteral("at most 1");
    QTest::newRow("zero factor") << QStringLiteral(R"({"software": {"mlperf-4.0": 0}})")
                                 << QStringLiteral("/software/mlperf-4.0")
                                 << QStringLiteral("greater than zero");
    QTest::newRow("string factor")
        << QStringLiteral(R"({"software": {"mlperf-4.0": "1.1"}})")
        << QStringLiteral("/software/mlperf-4.0") << QStringLiteral("number");
    QTest::newRow("huge factor") << QStringLiteral(R"({"benchSoftware": {"x/y": 1e307}})")
                                 << QStringLiteral("/benchSoftware/x~1y")
                                 << QStringLiteral("calibration value");
    QTest::newRow("unknown key") << QStringLiteral(R"({"overlap": 0.5, "benchEficiency": {}})")
                                 << QStringLiteral("/benchEficiency") << QString();
    QTest::newRow("unknown parameter")
        << QStringLiteral(R"({"bench": {"resnet50": {"gemEfficiency": 0.5}}})")
        << QStringLiteral("/bench/resnet50/gemEfficiency") << QString();
    QTest::newRow("overlap 2") << QStringLiteral(R"({"overlap": 2})") << QStringLiteral("/overlap")
                               << QStringLiteral("between 0 and 1");
    QTest::newRow("overlap negative")
        << QStringLiteral(R"({"overlap": -0.1})") << QStringLiteral("/overlap")
        << QStringLiteral("between 0 and 1");
    QTest::newRow("host jitter negative")
        << QStringLiteral(R"({"hostJitter": -0.2})") << QStringLiteral("/hostJitter")
        << QStringLiteral("host jitter in per-pass overheads from 0 to 10");
    QTest::newRow("host jitter too large")
        << QStringLiteral(R"({"hostJitter": 11})") << QStringLiteral("/hostJitter")
        << QStringLiteral("found 11");
    QTest::newRow("default software unknown")
        << QStringLiteral(R"({"software": {"a": 1}, "defaultSoftware": "b"})")
        << QStringLiteral("/defaultSoftware") << QStringLiteral("stacks");
    QTest::newRow("interval reversed")
        << QStringLiteral(R"({"intervals": {"": {"p10": 0.3, "p90": 0.1, "rows": 9}}})")
        << QStringLiteral("/intervals//p10") << QStringLiteral("at most p90");
    QTest::newRow("old format") << QStringLiteral(R"({"format": 1})") << QStringLiteral("/format")
                                << QStringLiteral("re-run calibrate");
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

void TestCalibrationFile::softwareFallback()
{
    perf::Calibration c;
    c.software = {{"mlperf-1.0", 0.8}, {"mlperf-3.0", 0.9}, {"mlperf-4.0", 1.1}, {"dle-x", 0.7}};
    c.benchSoftware = {{"bert_large/mlperf-3.0", 1.2}};
    std::string note;
    QCOMPARE(c.softwareFactor("resnet50", "mlperf-3.0", &note), 0.9);
    QVERIFY(note.empty());
    QCOMPARE(c.softwareFactor("bert_large", "mlperf-3.0"), 0.9 * 1.2);
    QCOMPARE(c.softwareFactor("resnet50", "dle-x"), 0.7);
    // A round between two calibrated ones: the geometric mean of its neighbours, said.
    CLAB_NEAR(c.softwareFactor("resnet50", "mlperf-2.0", &note), std::sqrt(0.8 * 0.9));
    QVERIFY(note.find("mlperf-1.0 and mlperf-3.0") != std::string::npos);
    CLAB_NEAR(c.softwareFactor("bert_large", "mlperf-3.1"), std::sqrt(0.9 * 1.2 * 1.1));
    // Beyond the newest: the newest; before the oldest: the oldest.
    QCOMPARE(c.softwareFactor("resnet50", "mlperf-5.0"), 1.1);
    QCOMPARE(c.softwareFactor("resnet50", "mlperf-0.6"), 0.8);
    // An unknown stack that is not a round: no factor, and a note.
    note.clear();
    QCOMPARE(c.softwareFactor("resnet50", "my-stack", &note), 1.0);
    QVERIFY(note.find("my-stack") != std::string::npos);
    QVERIFY(!c.knowsSoftware("my-stack"));
    QVERIFY(c.knowsSoftware("dle-x"));
    // Intervals fall back from the cell to the benchmark, the architecture and all rows.
    c.intervals = {{"", {-0.3, 0.3, 500}},
                   {"resnet50", {-0.2, 0.2, 50}},
                   {"resnet50/Hopper", {-0.1, 0.1, 20}},
                   {"Ampere", {-0.25, 0.15, 100}}};
    QCOMPARE(c.interval("resnet50", "Hopper").p90, 0.1);
    QCOMPARE(c.interval("resnet50", "Volta").p90, 0.2);
    QCOMPARE(c.interval("bert_large", "Ampere").p90, 0.15);
    QCOMPARE(c.interval("bert_large", "Ada").p90, 0.3);
    QCOMPARE(perf::softwareKey("4.1"), std::string("mlperf-4.1"));
    // The median factors stand in for a benchmark without rows.
    c.bench = {{"a", {0.2, 1, 1, 1}}, {"b", {0.4, 2, 3, 1}}, {"c", {0.9, 4, 5, 1}}};
    QCOMPARE(c.typical().gemmEfficiency, 0.4);
    QCOMPARE(c.typical().memoryScale, 2.0);
    QVERIFY(!c.params("d"));
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
