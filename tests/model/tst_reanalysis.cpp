// Analysing and predicting again after an edit (fabric::Analyzer, perf::PredictionMemo): what is
// reused must give exactly what a fresh analysis and prediction give, and the reuse must happen.
#include "catalog/catalog.h"
#include "design/design.h"
#include "design/designindex.h"
#include "design/examples.h"
#include "fabric/analyzer.h"
#include "perf/calibration.h"
#include "perf/report.h"
#include "perf/service.h"
#include "workload/workload.h"

#include <QtTest>

#include <functional>

using namespace clab;

namespace {

const catalog::Catalog &cat()
{
    return catalog::Catalog::builtin();
}

// An edit of a design and what the analyzer may reuse after it.
struct Edit
{
    const char *what;
    std::function<void(design::Design &)> apply;
    bool topologyKept; // the fabric is reused
};

std::vector<Edit> edits()
{
    return {
        {"move a device to another system",
         [](design::Design &d) {
             d.systems[1].devices.push_back(d.systems[0].devices.back());
             d.systems[0].devices.pop_back();
         },
         true},
        {"rename a system", [](design::Design &d) { d.systems[0].name += "-renamed"; }, true},
        {"swap two systems", [](design::Design &d) { std::swap(d.systems[0], d.systems[1]); },
         true},
        {"give two systems one name (rejected by the rules, still analysed)",
         [](design::Design &d) { d.systems[1].name = d.systems[0].name; }, true},
        {"remove a system", [](design::Design &d) { d.systems.erase(d.systems.begin()); }, true},
        {"move on the canvas",
         [](design::Design &d) {
             d.layout["moved"] = {1, 2};
         },
         true},
        {"rename parts (display names)",
         [](design::Design &d) {
             d.hosts.front().name = "renamed host";
             d.devices.front().name = "renamed device";
         },
         true},
        {"move a device to another slot",
         [](design::Design &d) {
             for (design::Device &dev : d.devices)
                 if (!dev.chassis.empty()) {
                     dev.slot += 100;
                     break;
                 }
         },
         false},
        {"remove a link", [](design::Design &d) { d.links.pop_back(); }, false},
        {"change a device's model",
         [](design::Design &d) {
             for (design::Device &dev : d.devices)
                 if (dev.model == "A100-PCIe-40GB") {
                     dev.model = "H100-PCIe-80GB";
                     break;
                 }
         },
         false},
        {"add a system",
         [](design::Design &d) {
             d.systems.push_back(d.systems.front());
             d.systems.back().name = "added";
         },
         true},
    };
}

} // namespace

class TestReanalysis : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void analyzerEqualsAnalyze_data();
    void analyzerEqualsAnalyze();
    void memoEqualsPredict();
};

void TestReanalysis::analyzerEqualsAnalyze_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("seed testbed") << QString();
    QTest::newRow("pool of 200") << QStringLiteral("pool");
    for (const design::Example &e : design::bundledExamples())
        QTest::newRow(e.fileName.c_str()) << QString::fromStdString(e.fileName);
}

void TestReanalysis::analyzerEqualsAnalyze()
{
    QFETCH(QString, name);
    design::Design start = design::generatePool(200);
    if (name.isEmpty())
        start = design::seedTestbed();
    for (const design::Example &e : design::bundledExamples())
        if (QString::fromStdString(e.fileName) == name)
            start = design::readDesign(e.text, e.fileName);

    fabric::Analyzer analyzer;
    design::Design d = start;
    QVERIFY(analyzer.analyze(d, cat()) == fabric::analyze(d, cat()));
    QVERIFY(!analyzer.reusedFabric());
    QCOMPARE(analyzer.reusedSystems(), std::size_t(0));
    // Unchanged: everything reused.
    QVERIFY(analyzer.analyze(d, cat()) == fabric::analyze(d, cat()));
    QVERIFY(analyzer.reusedFabric());
    QCOMPARE(analyzer.reusedSystems(), d.systems.size());

    for (const Edit &edit : edits()) {
        if (d.systems.size() < 2)
            break;
        edit.apply(d);
        const fabric::Analysis again = analyzer.analyze(d, cat());
        QVERIFY2(again == fabric::analyze(d, cat()), edit.what);
        QVERIFY2(analyzer.reusedFabric() == edit.topologyKept, edit.what);
        if (!edit.topologyKept)
            QVERIFY2(analyzer.reusedSystems() == 0, edit.what);
        else if (d.systems.size() > 3) // the systems the edit left alone were not analysed again
            QVERIFY2(analyzer.reusedSystems() + 2 >= d.systems.size(), edit.what);
    }
    // A design of other parts entirely.
    const design::Design other = design::generatePool(40);
    QVERIFY(analyzer.analyze(other, cat()) == fabric::analyze(other, cat()));
    QVERIFY(!analyzer.reusedFabric());
}

void TestReanalysis::memoEqualsPredict()
{
    design::Design d = design::generatePool(120);
    const std::vector<const workload::Workload *> workloads
        = {workload::Library::builtin().find("resnet50"),
           workload::Library::builtin().find("bert_large")};
    QVERIFY(workloads[0] && workloads[1]);
    const perf::Calibration &calibration = perf::Calibration::builtin();
    perf::PredictionMemo memo;
    auto check = [&](const char *when) {
        const fabric::Analysis a = fabric::analyze(d, cat());
        const design::DesignIndex index(d);
        for (std::size_t i = 0; i < a.systems.size(); ++i) {
            const auto remembered
                = perf::predictSystem(index, a, i, workloads, {}, calibration, cat(), {}, &memo);
            const auto fresh = perf::predictSystem(index, a, i, workloads, {}, calibration, cat());
            for (std::size_t k = 0; k < workloads.size(); ++k)
                QVERIFY2(perf::predictionToJson(a.systems[i].name, *workloads[k], remembered[k])
                             == perf::predictionToJson(a.systems[i].name, *workloads[k], fresh[k]),
                         when);
        }
    };
    check("first");
    const std::size_t made = memo.size();
    QVERIFY(made > 0);
    // Each system's links carry its host's name, so the memo keeps one per system and workload.
    QCOMPARE(made, d.systems.size() * workloads.size());
    const std::size_t hits = memo.hits();
    check("again");
    QCOMPARE(memo.hits(), hits + made);
    // A composition change: the two systems it touched are predicted anew, and right.
    d.systems[1].devices.push_back(d.systems[0].devices.back());
    d.systems[0].devices.pop_back();
    check("after a move");
    QCOMPARE(memo.size(), made + 2 * workloads.size());
    QVERIFY(memo.size() <= perf::PredictionMemo::kLimit);
}

QTEST_APPLESS_MAIN(TestReanalysis)
#include "tst_reanalysis.moc"
