// Workload library's strict reader: a bad workload file names the file, the place and what was
// expected, and adds nothing.
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "workload/workload.h"
#include "model/workloadtest.h"

#include <QtTest>

using namespace clab;
using namespace clab::workload;
using namespace clab::workloadtest;

class TestWorkloadFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badFiles_data();
    void badFiles();
    void badFileAddsNothing();
};

void TestWorkloadFile::badFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("place");
    QTest::addColumn<QString>("message");

    auto row
        = [](const char *name, const std::string &text, const char *place, const char *message) {
              QTest::newRow(name) << QByteArray::fromStdString(text) << QString::fromUtf8(place)
                                  << QString::fromUtf8(message);
          };
    Json w = validWorkload();
    w.erase("parameters");
    row("missing key", fileText(w), "at /workloads/0", "missing required key \"parameters\"");
    w = validWorkload();
    w.erase("evalSamples");
    row("timed evaluation without its size", fileText(w), "at /workloads/0",
        "missing required key \"evalSamples\"");
    w = validWorkload();
    w["evalTimed"] = "no";
    row("evalTimed not a boolean", fileText(w), "at /workloads/0/evalTimed",
        "expected true or false");
    w = validWorkload();
    w["evalTimed"] = false;
    w.erase("evalSamples");
    w.erase("evalFlopsPerSample");
    w["evalStartSamples"] = 1000;
    row("untimed evaluation with a start", fileText(w), "at /workloads/0/evalStartSamples",
        "an untimed evaluation costs nothing");
    w = validWorkload();
    w["fp8MinLocalBatch"] = 8;
    row("FP8 rule without FP8", fileText(w), "at /workloads/0/fp8MinLocalBatch",
        "expected an \"fp8Share\"");
    w = validWorkload();
    w["matrixKernelsPerPass"] = -1;
    row("negative kernel count", fileText(w), "at /workloads/0/matrixKernelsPerPass", "");
    w = validWorkload();
    w["fp8CastBytesPerSample"] = 1e8;
    row("FP8 casts without FP8", fileText(w), "at /workloads/0/fp8CastBytesPerSample",
        "expected an \"fp8Share\"");
    w["fp8Share"] = 0.9;
    w["fp8CastBytesPerSample"] = -1;
    row("negative FP8 casts", fileText(w), "at /workloads/0/fp8CastBytesPerSample",
        "expected a number of zero or more");
    w = validWorkload();
    w["startLoadSeconds"] = -1;
    row("negative load time", fileText(w), "at /workloads/0/startLoadSeconds", "zero or more");
    w = validWorkload();
    w["featureBytesPerSample"] = 1e6;
    row("gathers without a store", fileText(w), "at /workloads/0/featureBytesPerSample",
        "expected a \"featureStoreBytes\"");
    w["featureStoreBytes"] = -1;
    row("negative store", fileText(w), "at /workloads/0/featureStoreBytes", "zero or more");
    w = validWorkload();
    w["fp8Share"] = 0.9;
    w["fp8Architectures"] = Json::array({"Hopper", 4});
    row("FP8 architecture not a string", fileText(w), "at /workloads/0/fp8Architectures/1",
        "expected a string");
    w = validWorkload();
    w["allreduceAfterBackward"] = true;
    w["parameterGatherAfterStep"] = true;
    row("two gradient schemes", fileText(w), "at /workloads/0/parameterGatherAfterStep",
        "at most one of");
    w = validWorkload();
    w["convergenceRounds"] = {"mlperf-4.1", "mlperf-v5.0"};
    row("round spelt as MLPerf's repository", fileText(w), "at /workloads/0/convergenceRounds",
        "item 1 is \"mlperf-v5.0\"");
    w = validWorkload();
    w["convergenceRounds"] = {"mlperf-4.1"};
    w.erase("convergence");
    row("rounds without a table", fileText(w), "at /workloads/0/convergenceRounds",
        "expected a \"convergence\" table");
    w = validWorkload();
    w["evalTimed"] = false;
    row("untimed evaluation with its size", fileText(w), "at /workloads/0/evalSamples",
        "an untimed evaluation costs nothing");
    w = validWorkload();
    w["allreduceAfterBackward"] = true;
    w["gradientBucketBytes"] = 1e8;
    row("buckets with one reduction", fileText(w), "at /workloads/0/gradientBucketBytes",
        "expected no bucket size");
    w = validWorkload();
    w["gradientBucketBytes"] = 0;
    row("empty gradient bucket", fileText(w), "at /workloads/0/gradientBucketBytes",
        "greater than zero");

    w = validWorkload();
    w["frozenBytesPerParam"] = 1.0;
    row("frozen bytes without frozen weights", fileText(w), "at /workloads/0/frozenBytesPerParam",
        "expected \"frozenParameters\"");
    w = validWorkload();
    w["frozenParameters"] = 1e9;
    w["frozenBytesPerParam"] = 4.0;
    row("frozen weights above 16 bits in FP8", fileText(w), "at /workloads/0/frozenBytesPerParam",
        "expected at most 2");
    w = validWorkload();
    w["contextParallelMax"] = 0;
    row("no replica for a sequence", fileText(w), "at /workloads/0/contextParallelMax",
        "at least 1");
    w = validWorkload();
    w["evalRule"] = "gpt3";
    row("unknown evaluation rule", fileText(w), "at /workloads/0/evalRule",
        "\"llama2_70b_lora\" or no rule");

    w = validWorkload();
    w["parameters"] = "lots";
    row("wrong type", fileText(w), "at /workloads/0/parameters", "expected a number");

    w = validWorkload();
    w["convergence"][1]["samples"] = -5;
    row("negative samples", fileText(w), "at /workloads/0/convergence/1/samples",
        "greater than zero");

    w = validWorkload();
    w["evalEverySamples"] = -1;
    row("negative eval interval", fileText(w), "at /workloads/0/evalEverySamples", "zero or more");

    w = validWorkload();
    w["evalCostRatio"] = 1.0;
    w["evalFixedSeconds"] = 0.01;
    row("measured eval cost without its source", fileText(w), "at /workloads/0",
        "missing required key \"evalSource\"");

    w = validWorkload();
    w["evalCostRatio"] = 0;
    w["evalFixedSeconds"] = 0.01;
    w["evalSource"] = "logs";
    row("zero eval cost", fileText(w), "at /workloads/0/evalCostRatio", "greater than zero");

    w = validWorkload();
    w["colour"] = "blue";
    row("unknown key", fileText(w), "at /workloads/0/colour", "unknown key \"colour\"");
    // The hint lists the optional keys too, read or not (frozenParameters is absent here).
    row("unknown key's hint", fileText(w), "at /workloads/0/colour", "frozenParameters");

    w = validWorkload();
    w["convergence"][0]["epochs"] = 3;
    row("unknown key in a point", fileText(w), "at /workloads/0/convergence/0/epochs",
        "unknown key");

    w = validWorkload();
    w["convergence"][2]["globalBatch"] = 150;
    row("unsorted table", fileText(w), "at /workloads/0/convergence/2/globalBatch",
        "increasing order");

    w = validWorkload();
    w["convergence"][0]["globalBatch"] = 12.5;
    row("fractional batch", fileText(w), "at /workloads/0/convergence/0/globalBatch",
        "expected an integer");

    w = validWorkload();
    w["defaultPrecision"] = "int3";
    row("unknown precision", fileText(w), "at /workloads/0/defaultPrecision", "expected fp32");

    w = validWorkload();
    w["aliases"] = Json::array({"ok", 7});
    row("alias not a string", fileText(w), "at /workloads/0/aliases/1", "expected a string");

    row("unknown top-level key",
        Json{{"workloads", Json::array({validWorkload()})}, {"extra", 1}}.dump(), "at /extra",
        "unknown key \"extra\"");

    row("duplicate id", Json{{"workloads", Json::array({validWorkload(), validWorkload()})}}.dump(),
        "at /workloads/1/id", "duplicate workload id");

    row("not JSON", "{\"workloads\": [", "line 1", "not valid JSON");
}

void TestWorkloadFile::badFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, place);
    QFETCH(QString, message);
    Library l;
    try {
        l.addFile(text.toStdString(), "bad.json");
        QFAIL("expected an InputError");
    } catch (const InputError &e) {
        QCOMPARE(QString::fromStdString(e.file()), QStringLiteral("bad.json"));
        QVERIFY2(QString::fromStdString(e.place()).startsWith(place), e.what());
        QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
        QVERIFY(QString::fromUtf8(e.what()).startsWith(QStringLiteral("bad.json: ")));
    }
}

void TestWorkloadFile::badFileAddsNothing()
{
    Library l;
    l.addFile(fileText(validWorkload()), "good.json");
    Json second = validWorkload();
    second["id"] = "second";
    Json broken = validWorkload();
    broken["id"] = "broken";
    broken["parameters"] = 0;
    const std::string text = Json{{"workloads", Json::array({second, broken})}}.dump();
    QVERIFY_THROWS_EXCEPTION(InputError, l.addFile(text, "half.json"));
    QCOMPARE(l.all().size(), std::size_t(1));
    QVERIFY(!l.find("second"));
    // The same id again, from another file, is refused too.
    QVERIFY_THROWS_EXCEPTION(InputError, l.addFile(fileText(validWorkload()), "again.json"));
    QVERIFY(l.find("toy-1")); // alias, any case
}

QTEST_APPLESS_MAIN(TestWorkloadFile)
#include "tst_workloadfile.moc"
