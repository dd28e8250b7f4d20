// model/llm against Megatron-LM's published runs (datasets/llm/korthikanti2022.json: Korthikanti
// et al. 2022, Tables 3 and 5, iteration times; narayanan2021.json: Narayanan et al. 2021,
// Table 1, TFLOP/s a GPU). Prints each run's error; the issue's target is a mean absolute error of
// at most 5 % and a largest of at most 10 % for each publication. The planner's one GEMM
// efficiency is fitted to these runs (datasets/llm_calibration.json): the test also checks that
// the file is what `composelab calibrate --llm` makes of them today, and what each publication's
// errors are when the efficiency comes from the other one alone.
#include "catalog/catalog.h"
#include "llm/plan.h"
#include "llm/published.h"
#include "util/inputerror.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace clab;
using namespace clab::llm;

namespace {

const std::string kTables = CLAB_TEST_DATA "/../../datasets/llm/";

std::vector<PublishedCheck> checkAll(const std::vector<PublishedRun> &runs, double efficiency)
{
    std::vector<PublishedCheck> checks;
    for (const PublishedRun &r : runs)
        checks.push_back(checkPublished(r, efficiency));
    return checks;
}

void print(const std::vector<PublishedCheck> &checks)
{
    for (const PublishedCheck &c : checks) {
        std::printf("  %8.1f B %-28s %8.2f %s published, %8.2f model (%+5.1f %%)\n",
                    parameters(c.run->shape) / 1e9, describe(c.plan).c_str(), c.run->published,
                    c.run->throughput ? "TFLOP/s a GPU" : "s", c.model, 100 * c.error());
    }
    const ErrorSummary s = summarize(checks);
    std::printf("  mean absolute error %.1f %%, largest %.1f %% over %d (target 5 %% and 10 %%)\n",
                100 * s.mean, 100 * s.worst, s.runs);
}

} // namespace

class TestLlmValidation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void publishedRuns_data();
    void publishedRuns();
    void efficiencyIsTheFit();
    void heldOutPublication_data();
    void heldOutPublication();
    void badTable_data();
    void badTable();
};

void TestLlmValidation::publishedRuns_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<int>("runs");
    QTest::newRow("Korthikanti 2022") << QStringLiteral("korthikanti2022") << 8;
    QTest::newRow("Narayanan 2021") << QStringLiteral("narayanan2021") << 10;
}

void TestLlmValidation::publishedRuns()
{
    QFETCH(QString, table);
    QFETCH(int, runs);
    const std::vector<PublishedRun> published
        = readPublishedRuns(kTables + table.toStdString() + ".json");
    QCOMPARE(int(published.size()), runs);
    const std::vector<PublishedCheck> checks = checkAll(published, -1);
    print(checks);
    for (const PublishedCheck &c : checks) {
        QVERIFY2(c.fits, "a published run does not fit in the model's memory");
        QVERIFY(c.model > 0);
    }
    // No run passes the GEMM ceiling: MFU < HFU < the efficiency's share of the dense peak.
    for (const PublishedCheck &c : checks) {
        const Hardware hw
            = hardwareOf(catalog::Catalog::builtin(), "A100-SXM4-80GB", c.run->gpus, 8, 200);
        const StepTime t = stepTime(c.run->shape, hw, c.plan);
        QVERIFY(t.mfu > 0 && t.mfu <= t.hfu && t.hfu < hw.efficiency * hw.gemmFlops / hw.peakFlops);
    }
    // Recomputing everything is slower than sequence parallelism with selective recomputation
    // (Korthikanti's runs come in such pairs).
    for (std::size_t i = 0; i + 1 < checks.size(); ++i) {
        const PublishedRun &a = *checks[i].run, &b = *checks[i + 1].run;
        if (!a.throughput && a.plan.recompute == Recompute::Selective
            && b.plan.recompute == Recompute::Full)
            QVERIFY(checks[i + 1].model > checks[i].model);
    }
    const ErrorSummary s = summarize(checks);
    QVERIFY2(s.mean <= 0.05 && s.worst <= 0.10, "outside the issue's 5 % / 10 % target");
}

void TestLlmValidation::efficiencyIsTheFit()
{
    // The built-in efficiency is the fit of today's model to today's tables: a change to the
    // planner's terms that is not followed by `composelab calibrate --llm` fails here.
    std::vector<PublishedRun> all = readPublishedRuns(kTables + "korthikanti2022.json");
    const std::vector<PublishedRun> more = readPublishedRuns(kTables + "narayanan2021.json");
    all.insert(all.end(), more.begin(), more.end());
    const double fitted = fitEfficiency(all);
    std::printf("  GEMM efficiency: %.3f built in, %.3f fitted now\n", fittedEfficiency(), fitted);
    QVERIFY(std::abs(fittedEfficiency() - fitted) < 0.0005);
    // A transformer's GEMMs reach less than the GPU's best measured GEMM rate, and more than half.
    QVERIFY(fitted > 0.5 && fitted < 1);
    const Hardware hw = hardwareOf(catalog::Catalog::builtin(), "A100-SXM4-80GB", 8, 8, 200);
    QCOMPARE(hw.efficiency, fittedEfficiency());
}

void TestLlmValidation::heldOutPublication_data()
{
    QTest::addColumn<QString>("heldOut");
    QTest::addColumn<QString>("fittedOn");
    QTest::addColumn<double>("recordedMean");
    QTest::addColumn<double>("recordedWorst");
    // Recorded 2026-12-07 (the publications disagree by 10 % on the same 530B layers): 8.0 / 14.3 %
    // and 7.3 / 10.5 %.
    QTest::newRow("Korthikanti 2022")
        << QStringLiteral("korthikanti2022") << QStringLiteral("narayanan2021") << 0.081 << 0.144;
    QTest::newRow("Narayanan 2021")
        << QStringLiteral("narayanan2021") << QStringLiteral("korthikanti2022") << 0.074 << 0.106;
}

void TestLlmValidation::heldOutPublication()
{
    // Fitted on one publication alone, the other is predicted: what the efficiency carries
    // from one version of Megatron-LM to another. Printed, and no worse than recorded.
    QFETCH(QString, heldOut);
    QFETCH(QString, fittedOn);
    QFETCH(double, recordedMean);
    QFETCH(double, recordedWorst);
    const double efficiency
        = fitEfficiency(readPublishedRuns(kTables + fittedOn.toStdString() + ".json"));
    std::printf("  efficiency %.3f fitted on %s alone:\n", efficiency, qPrintable(fittedOn));
    const std::vector<PublishedRun> runs
        = readPublishedRuns(kTables + heldOut.toStdString() + ".json");
    const std::vector<PublishedCheck> checks = checkAll(runs, efficiency);
    print(checks);
    const ErrorSummary s = summarize(checks);
    QVERIFY2(s.mean <= recordedMean && s.worst <= recordedWorst, "worse than recorded");
}

void TestLlmValidation::badTable_data()
{
    QTest::addColumn<QByteArray>("rows");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no published figure")
        << QByteArray(R"({"preset": "megatron-22b", "gpus": 8, "tensor": 8, "pipeline": 1,
            "interleave": 1, "micro": 4, "globalBatch": 4, "fullRecomputeS": 1.42, "mfu": 0.4,
            "hfu": 0.4})")
        << QStringLiteral("iterationS");
    QTest::newRow("plan breaks a rule")
        << QByteArray(R"({"heads": 24, "hidden": 2304, "layers": 24, "tensor": 3, "pipeline": 1,
            "gpus": 8, "batch": 512, "tflops": 137})")
        << QStringLiteral("the plan breaks a rule");
    QTest::newRow("no plan fits") << QByteArray(
        R"({"heads": 160, "hidden": 25600, "layers": 128, "tensor": 1,
            "pipeline": 1, "gpus": 8, "batch": 8, "tflops": 100})")
                                  << QStringLiteral("no plan of the published sizes fits");
}

void TestLlmValidation::badTable()
{
    // A row the model cannot read or price is bad input naming the file and the row.
    QFETCH(QByteArray, rows);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("broken.json")).toStdString();
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"about": "a", "source": "b", "rows": [)" + rows + "]}");
    f.close();
    try {
        readPublishedRuns(path);
        QFAIL("the row was read");
    } catch (const InputError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find("broken.json") != std::string::npos
                     && what.find("/rows/0") != std::string::npos
                     && what.find(expected.toStdString()) != std::string::npos,
                 e.what());
    }
}

QTEST_APPLESS_MAIN(TestLlmValidation)
#include "tst_llmvalidation.moc"
