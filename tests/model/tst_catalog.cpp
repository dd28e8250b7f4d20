#include "catalog/catalog.h"
#include "util/inputerror.h"

#include <QtTest>

using namespace clab;

class TestCatalog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtinLoads();
    void figures_data();
    void figures();
    void everyEntryHasSource();
    void badFile_data();
    void badFile();
    void suggestions();
};

void TestCatalog::builtinLoads()
{
    const catalog::Catalog &c = catalog::Catalog::builtin();
    // The issue's list of GPUs, hosts and link kinds must all be present.
    for (const char *id : {"V100-SXM2-32GB", "V100-PCIe-16GB", "A100-SXM4-40GB", "A100-SXM4-80GB",
                           "A100-PCIe-40GB", "A100-PCIe-80GB", "A30", "L40", "L40S",
                           "H100-SXM5-80GB", "H100-PCIe-80GB", "H100-NVL-94GB", "H200-SXM5-141GB",
                           "H200-NVL-141GB", "B200-SXM-180GB", "GB200-186GB", "T4"})
        QVERIFY2(c.gpu(id), id);
    for (const char *id :
         {"xeon-gold-6248-2s", "xeon-gold-6330-2s", "xeon-gold-6430-2s",
          "xeon-platinum-8480plus-2s", "epyc-7742-2s", "epyc-9654-2s", "power9-ac922"})
        QVERIFY2(c.host(id), id);
    for (int gen : {3, 4, 5})
        for (int lanes : {4, 8, 16})
            QVERIFY(c.pcieLink(gen, lanes));
    for (const char *id : {"nvlink2", "nvlink3", "nvlink4", "nvlink5", "ib-edr", "ib-hdr", "ib-ndr",
                           "eth-100g", "eth-200g", "eth-400g"})
        QVERIFY2(c.link(id), id);
    QVERIFY(c.chassis("h3-falcon-4016"));
    QCOMPARE(c.chassis("h3-falcon-4016")->slots, 16);
    QCOMPARE(c.chassis("h3-falcon-4016")->hostPorts, 4);
}

void TestCatalog::figures_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("fp16");
    QTest::addColumn<double>("memBw");
    QTest::addColumn<double>("memGB");
    // Vendor datasheet figures (dense tensor TFLOPS), as in shared/reference/gpu_specs.csv.
    QTest::newRow("V100 SXM2") << "V100-SXM2-32GB" << 125.0 << 900.0 << 32.0;
    QTest::newRow("A100 SXM4 40") << "A100-SXM4-40GB" << 312.0 << 1555.0 << 40.0;
    QTest::newRow("A100 SXM4 80") << "A100-SXM4-80GB" << 312.0 << 2039.0 << 80.0;
    QTest::newRow("H100 SXM5") << "H100-SXM5-80GB" << 989.0 << 3350.0 << 80.0;
    // NVIDIA's HGX B200 and GB200 NVL72 tables print FP16 with sparsity: 4.5 and 5 PFLOPS.
    QTest::newRow("B200") << "B200-SXM-180GB" << 2250.0 << 7700.0 << 180.0;
    QTest::newRow("GB200") << "GB200-186GB" << 2500.0 << 8000.0 << 186.0;
    QTest::newRow("H200 NVL") << "H200-NVL-141GB" << 835.5 << 4800.0 << 141.0;
}

void TestCatalog::figures()
{
    QFETCH(QString, id);
    QFETCH(double, fp16);
    QFETCH(double, memBw);
    QFETCH(double, memGB);
    const catalog::Gpu *g = catalog::Catalog::builtin().gpu(id.toStdString());
    QVERIFY(g);
    QVERIFY(g->tflops.fp16);
    QCOMPARE(qRound(*g->tflops.fp16), qRound(fp16));
    QCOMPARE(qRound(g->memBwGBps), qRound(memBw));
    QCOMPARE(g->memGB, memGB);
}

void TestCatalog::everyEntryHasSource()
{
    const catalog::Catalog &c = catalog::Catalog::builtin();
    for (auto kind : {catalog::Kind::Gpu, catalog::Kind::Host, catalog::Kind::Nvme,
                      catalog::Kind::Nic, catalog::Kind::PcieSwitch, catalog::Kind::Chassis,
                      catalog::Kind::NetworkSwitch, catalog::Kind::NvSwitch, catalog::Kind::Link}) {
        const auto entries = c.entries(kind);
        QVERIFY2(!entries.empty(), catalog::kindName(kind));
        for (const catalog::Entry *e : entries)
            QVERIFY2(e->source.size() > 10, e->id.c_str());
    }
}

void TestCatalog::badFile_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("syntax") << R"({"gpus": [})"
                            << "line 1";
    QTest::newRow("unknown section") << R"({"gpu": []})"
                                     << "unknown catalog section";
    QTest::newRow("missing source")
        << R"({"links": [{"id": "x", "name": "x", "family": "pcie", "rawGBps": 1, "achievedFraction": 0.5, "latencyUs": 0}]})"
        << "missing required key \"source\"";
    QTest::newRow("typo key")
        << R"({"links": [{"id": "x", "name": "x", "source": "s", "family": "pcie", "rawGBps": 1, "achievedFraction": 0.5, "latencyUs": 0, "latencyUS": 0}]})"
        << "/links/0/latencyUS";
    QTest::newRow("fraction over one")
        << R"({"links": [{"id": "x", "name": "x", "source": "s", "family": "pcie", "rawGBps": 1, "achievedFraction": 1.5, "latencyUs": 0}]})"
        << "at most 1";
    QTest::newRow("negative rate")
        << R"({"links": [{"id": "x", "name": "x", "source": "s", "family": "pcie", "rawGBps": -3, "achievedFraction": 0.5, "latencyUs": 0}]})"
        << "/links/0/rawGBps";
    QTest::newRow("kernel time not positive")
        << R"({"gpus": [{"id": "g", "name": "g", "source": "s", "arch": "Hopper", "formFactor": "SXM", "tflops": {"fp16": 100}, "memGB": 80, "memBwGBps": 3000, "pcie": {"gen": 5, "lanes": 16}, "tdpW": 700, "achieved": {"gemmTflops": {"fp16": 80}, "gemmFixedUs": 0, "source": "s"}}]})"
        << "/gpus/0/achieved/gemmFixedUs";
    QTest::newRow("both-ways share over one")
        << R"({"routing": [{"id": "default", "name": "r", "source": "s", "p2pViaRootComplex": 0.8, "stagedViaHost": 0.7, "stagedBothWays": 1.4, "rootComplexLatencyUs": 0, "stagedLatencyUs": 0, "dmaSetupLatencyUs": 0}]})"
        << "/routing/0/stagedBothWays";
}

void TestCatalog::badFile()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    catalog::Catalog c;
    try {
        c.addFile(text.toStdString(), "test.json");
        QFAIL("no error");
    } catch (const InputError &e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.startsWith(QLatin1String("test.json")), qPrintable(what));
        QVERIFY2(what.contains(expected), qPrintable(what));
    }
}

void TestCatalog::suggestions()
{
    const auto s = catalog::Catalog::builtin().suggest("A100-SXM4-80G", {catalog::Kind::Gpu});
    QVERIFY(!s.empty());
    QCOMPARE(QString::fromStdString(s.front()), QStringLiteral("A100-SXM4-80GB"));
    QCOMPARE(catalog::editDistance("kitten", "sitting"), std::size_t(3));
}

QTEST_APPLESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
