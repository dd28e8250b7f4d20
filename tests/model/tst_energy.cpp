// Energy and cost of a predicted run (model/perf/ENERGY.md), by hand-worked examples, and the
// Pareto chart that draws them.
#include "catalog/catalog.h"
#include "charts/builders.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "perf/energy.h"
#include "perf/model.h"
#include "perf/platform.h"
#include "util/inputerror.h"
#include "workload/workload.h"

#include <QtTest>

using namespace clab;

namespace {

const char *kPrices = "{\"formatVersion\": 1, \"currency\": \"USD\","
                      " \"electricity\": {\"perKwh\": 0.1, \"source\": \"test\"},"
                      " \"pue\": {\"value\": 1.5, \"source\": \"test\"},"
                      " \"life\": {\"years\": 5, \"source\": \"test\"},"
                      " \"parts\": {\"G\": {\"price\": 10000, \"source\": \"test\"},"
                      "            \"H\": {\"price\": 10000, \"source\": \"test\"},"
                      "            \"C\": {\"price\": 20000, \"source\": \"test\"}}}";

charts::RunPoint run(const char *system, const char *benchmark, double minutes, double usd)
{
    charts::RunPoint r;
    r.system = system;
    r.benchmark = benchmark;
    r.metric = "time_to_train";
    r.unit = "min";
    r.value = minutes;
    r.measured = false;
    r.costUsd = usd;
    r.energyKwh = usd * 10;
    return r;
}

} // namespace

class TestEnergy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handWorkedRun()
    {
        // Four 400 W GPUs busy 3/4 of the step, a 500 W host, a quarter of a 300 W chassis
        // and a NIC nobody gave a power figure or a price.
        catalog::Gpu gpu;
        gpu.id = "G";
        gpu.tdpW = 400;
        catalog::Host host;
        host.id = "H";
        host.powerW = 500;
        catalog::Chassis chassis;
        chassis.id = "C";
        chassis.powerW = 300;
        catalog::Nic nic;
        nic.id = "N";
        perf::Platform platform;
        platform.bill = {{"gpu", "G", &gpu, 4},
                         {"host", "H", &host, 1},
                         {"chassis", "C", &chassis, 0.25},
                         {"nic", "N", &nic, 1}};
        perf::Prediction p;
        p.computeS = 0.075;
        p.stepS = 0.1;
        p.timeToTrainMin = 60;
        workload::Workload w;
        const perf::PartPrices prices = perf::readPartPrices(kPrices, "test.json");
        const perf::EnergyCost e = perf::energyCostOf(platform, p, w, prices);
        QCOMPARE(e.basis, std::string("time_to_train"));
        QCOMPARE(e.runS, 3600.0);
        // A GPU: 400 W x (0.13 idle + (0.87 - 0.13) x 0.75 busy) = 274 W; four of them.
        QVERIFY(qAbs(e.gpuW - 4 * 274.0) < 1e-9);
        // 500 W + 300 W / 4 = 575 W; with PUE 1.5: (1096 + 575) x 1.5 = 2506.5 W for an hour.
        QVERIFY(qAbs(e.otherW - 575.0) < 1e-9);
        QVERIFY(qAbs(e.facilityW - 2506.5) < 1e-9);
        QVERIFY(qAbs(e.kwh - 2.5065) < 1e-9);
        QVERIFY(qAbs(e.energyUsd - 0.25065) < 1e-9);
        // Parts 4 x 10,000 + 10,000 + 20,000 / 4 = 55,000 USD over 5 years; an hour of them.
        QVERIFY(qAbs(e.hardwareUsd - 55000.0 / (5 * 365.25 * 24)) < 1e-9);
        QCOMPARE(e.unknown, (std::vector<std::string>{"power of nic N", "price of nic N"}));
    }

    void withoutConvergenceTableOneEpoch()
    {
        catalog::Gpu gpu;
        gpu.tdpW = 300;
        perf::Platform platform;
        platform.nodes = 2; // every part twice
        platform.bill = {{"gpu", "G", &gpu, 1}};
        perf::Prediction p;
        p.computeS = p.stepS = 1; // always busy: 0.87 x 300 W
        p.throughput = 1000;
        workload::Workload w;
        w.datasetSamples = 60000;
        const perf::EnergyCost e
            = perf::energyCostOf(platform, p, w, perf::readPartPrices(kPrices, "t.json"));
        QCOMPARE(e.basis, std::string("epoch"));
        QCOMPARE(e.runS, 60.0);
        QVERIFY(qAbs(e.gpuW - 2 * 0.87 * 300) < 1e-9);
        QVERIFY(qAbs(e.kwh - 2 * 0.87 * 300 * 1.5 * 60 / 3.6e6) < 1e-12);
    }

    void pooledSystemPaysItsShareOfTheChassis()
    {
        const auto &cat = catalog::Catalog::builtin();
        perf::SystemSpec spec;
        spec.gpu = "A100-PCIe-40GB";
        spec.gpusPerNode = 4;
        spec.composable = true;
        const perf::Platform p = perf::platformOf(spec, cat);
        std::map<std::string, double> count;
        for (const perf::BillItem &b : p.bill) {
            count[b.kind] += b.count;
            if (b.kind != "gpu")
                QVERIFY2(b.part && b.part->powerW, b.id.c_str()); // the catalog has them all
        }
        QCOMPARE(count["gpu"], 4.0);
        QCOMPARE(count["host"], 1.0);
        const catalog::Chassis *chassis = nullptr;
        for (const perf::BillItem &b : p.bill) {
            if (b.kind == "chassis")
                chassis = cat.chassis(b.id);
        }
        QVERIFY(chassis);
        QCOMPARE(count["chassis"], 4.0 / chassis->slots);
        // Every part of the shipped catalog that a node can hold has a price.
        for (const perf::BillItem &b : p.bill)
            QVERIFY2(perf::defaultPartPrices().usd.count(b.id), b.id.c_str());
    }

    void systemsShareTheSwitchTheyReach()
    {
        // Two hosts reach one PCIe switch, each with a GPU behind it; a second switch hangs off
        // the first and carries nothing. Each system pays half of both; a third system that
        // reaches no switch pays none.
        design::Design d;
        d.hosts = {{"h1", "epyc-7742-2s", "h1"},
                   {"h2", "epyc-7742-2s", "h2"},
                   {"h3", "epyc-7742-2s", "h3"}};
        d.switches = {{"sw", "pex88096", "sw"}, {"sw2", "pex88096", "sw2"}};
        d.devices = {{"g1", "A100-PCIe-40GB", "g1", "", -1},
                     {"g2", "A100-PCIe-40GB", "g2", "", -1},
                     {"g3", "A100-PCIe-40GB", "g3", "", -1}};
        d.links = {{"h1/cpu0", "sw", "pcie4x16", 1}, {"h2/cpu0", "sw", "pcie4x16", 1},
                   {"sw", "g1", "pcie4x16", 1},      {"sw", "g2", "pcie4x16", 1},
                   {"sw", "sw2", "pcie4x16", 1},     {"h3/cpu0", "g3", "pcie4x16", 1}};
        d.systems = {{"A", "h1", {"g1"}}, {"B", "h2", {"g2"}}, {"C", "h3", {"g3"}}};
        const auto &cat = catalog::Catalog::builtin();
        const fabric::Analysis analysis = fabric::analyze(d, cat);
        auto switches = [&](std::size_t system) {
            double n = 0;
            for (const perf::BillItem &b : perf::platformOf(d, analysis, system, cat).bill)
                n += b.kind == "switch" ? b.count : 0;
            return n;
        };
        QCOMPARE(switches(0), 1.0); // half of sw and half of sw2
        QCOMPARE(switches(1), 1.0);
        QCOMPARE(switches(2), 0.0);
    }

    void badPriceFilesAreNamed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        const QString base = QString::fromLatin1(kPrices);
        QTest::newRow("negative price") << QString(base).replace(QLatin1String("\"price\": 10000"),
                                                                 QLatin1String("\"price\": -1"))
                                        << QStringLiteral("/parts/G/price");
        QTest::newRow("no source")
            << QString(base).replace(QLatin1String("{\"price\": 20000, \"source\": \"test\"}"),
                                     QLatin1String("{\"price\": 20000, \"source\": \"\"}"))
            << QStringLiteral("/parts/C/source");
        QTest::newRow("pue below 1") << QString(base).replace(QLatin1String("\"value\": 1.5"),
                                                              QLatin1String("\"value\": 0.9"))
                                     << QStringLiteral("/pue");
        QTest::newRow("unknown key")
            << QString(base).replace(QLatin1String("\"currency\""), QLatin1String("\"curency\""))
            << QStringLiteral("curency");
    }

    void badPriceFilesAreNamed()
    {
        QFETCH(QString, text);
        QFETCH(QString, where);
        try {
            perf::readPartPrices(text.toStdString(), "mine.json");
            QFAIL("accepted");
        } catch (const InputError &e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(QLatin1String("mine.json")), e.what());
            QVERIFY2(message.contains(where), e.what());
        }
    }

    void paretoFrontKeepsWhatNothingBeats()
    {
        // B is faster and cheaper than C; A is the cheapest, D the fastest.
        std::vector<charts::RunPoint> runs
            = {run("A", "x", 10, 1), run("C", "x", 6, 3), run("B", "x", 5, 2), run("D", "x", 2, 4),
               run("E", "y", 1, 1)};
        charts::RunPoint measured = run("M", "x", 1, 0.5);
        measured.measured = true; // measured runs carry no cost
        runs.push_back(measured);
        charts::RunPoint noCost = run("N", "x", 1, 0.5);
        noCost.costUsd.reset();
        noCost.energyKwh.reset();
        runs.push_back(noCost);
        const charts::ChartData c = charts::paretoChart(runs, charts::ParetoAgainst::Cost);
        QCOMPARE(c.kind, charts::ChartKind::Pareto);
        QCOMPARE(c.x.label, std::string("cost (USD)"));
        QCOMPARE(c.series.size(), std::size_t(5)); // A, C, B, D and the front
        const charts::Series &front = c.series.back();
        QCOMPARE(front.x, (std::vector<double>{1, 2, 4}));
        QCOMPARE(front.values, (std::vector<double>{10, 5, 2}));
        QCOMPARE(c.notes.size(), std::size_t(2)); // two runs without, benchmark y not drawn
        QVERIFY(c.notes[1].find("y: 1 points") == 0);

        const charts::ChartData e = charts::paretoChart(runs, charts::ParetoAgainst::Energy);
        QCOMPARE(e.series.back().x, (std::vector<double>{10, 20, 40}));
    }
};

QTEST_APPLESS_MAIN(TestEnergy)
#include "tst_energy.moc"
