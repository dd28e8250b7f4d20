#include "catalog/catalog.h"
#include "design/design.h"
#include "design/examples.h"
#include "design/rules.h"

#include <QtTest>

using namespace clab;
using namespace clab::design;

Q_DECLARE_METATYPE(clab::design::Design)

namespace {

const catalog::Catalog &cat()
{
    return catalog::Catalog::builtin();
}

Device local(const std::string &id, const std::string &model)
{
    return Device{id, model, {}, {}, -1};
}

Device pooled(const std::string &id, const std::string &model, int slot)
{
    return Device{id, model, {}, "pool", slot};
}

// One EPYC host cabled to a 16-slot chassis with one A100 in slot 0, composed into system s1.
// It is correct: checkDesign finds nothing.
Design fine()
{
    Design d;
    d.name = "fine";
    d.hosts = {{"h", "epyc-7742-2s", {}}};
    d.chassis = {{"pool", "h3-falcon-4016", {}}};
    d.devices = {pooled("gpu0", "A100-PCIe-40GB", 0)};
    d.links = {{"h/cpu0", "pool/up0", "pcie4x16", 1}};
    d.systems = {{"s1", "h", {"gpu0"}}};
    return d;
}

// Two local GPUs g0 (below cpu0) and g1 (below cpu1) joined by `count` links of `kind`.
// Links 0 and 1 are the PCIe links, link 2 the bridge.
Design gpuPair(const std::string &model, const std::string &kind, int count)
{
    Design d;
    d.hosts = {{"h", "epyc-7742-2s", {}}};
    d.devices = {local("g0", model), local("g1", model)};
    d.links = {{"h/cpu0", "g0", "pcie4x16", 1},
               {"h/cpu1", "g1", "pcie4x16", 1},
               {"g0", "g1", kind, count}};
    d.systems = {{"s1", "h", {"g0", "g1"}}};
    return d;
}

QString describe(const std::vector<Finding> &findings)
{
    QString out;
    for (const Finding &f : findings) {
        out += QStringLiteral("\n  %1: %2 [")
                   .arg(QString::fromUtf8(severityName(f.severity)),
                        QString::fromStdString(f.message));
        for (std::size_t i = 0; i < f.items.size(); ++i)
            out += (i ? QStringLiteral(", ") : QString()) + QString::fromStdString(f.items[i]);
        out += QLatin1Char(']');
    }
    return out.isEmpty() ? QStringLiteral(" (none)") : out;
}

QStringList ids(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *s : list)
        out << QString::fromUtf8(s);
    return out;
}

QStringList toList(const std::vector<std::string> &items)
{
    QStringList out;
    for (const auto &i : items)
        out << QString::fromStdString(i);
    return out;
}

} // namespace

class TestRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void finding_data();
    void finding();
    void fineDesignHasNoFindings();
    void examplesHaveNoErrors_data();
    void examplesHaveNoErrors();
    void generatedPoolHasNoFindings();
    void oddDesignsDoNotThrow();
};

void TestRules::finding_data()
{
    QTest::addColumn<Design>("design");
    QTest::addColumn<QString>("severity");
    QTest::addColumn<QString>("fragment");
    QTest::addColumn<QStringList>("items");
    const QString error = QStringLiteral("error");
    const QString warning = QStringLiteral("warning");
    Design d;

    // --- ids and catalog models
    d = fine();
    d.devices.push_back(pooled("gpu0", "A100-PCIe-40GB", 1));
    QTest::newRow("duplicate id") << d << error
                                  << "id \"gpu0\" is used by 2 items; ids must be unique"
                                  << ids({"gpu0"});
    d = fine();
    d.hosts.push_back({"pool", "epyc-7742-2s", {}});
    QTest::newRow("duplicate id across kinds")
        << d << error << "id \"pool\" is used by 2 items" << ids({"pool"});
    d = fine();
    d.devices[0].model = "A100-PCIE-40G";
    QTest::newRow("unknown model, did you mean")
        << d << error
        << "\"gpu0\": unknown device model \"A100-PCIE-40G\" (did you mean \"A100-PCIe-40GB\""
        << ids({"gpu0"});
    d = fine();
    d.hosts[0].model = "A100-PCIe-40GB";
    QTest::newRow("GPU model on a host")
        << d << error << "\"h\" is a host, but its model \"A100-PCIe-40GB\" is a GPU in the catalog"
        << ids({"h"});
    d = fine();
    d.devices[0].model = "epyc-7742-2s";
    QTest::newRow("host model on a device")
        << d << error << "\"gpu0\" is a device, but its model \"epyc-7742-2s\" is a host"
        << ids({"gpu0"});

    // --- chassis slots
    d = fine();
    d.devices[0].chassis = "pool9";
    QTest::newRow("device in unknown chassis")
        << d << error << "\"gpu0\" sits in chassis \"pool9\", which is not in the design"
        << ids({"gpu0"});
    d = fine();
    d.devices[0].slot = 16;
    QTest::newRow("slot out of range")
        << d << error << "\"gpu0\" is in slot 16 of \"pool\", which has slots 0 to 15"
        << ids({"gpu0", "pool"});
    d = fine();
    d.devices.push_back(pooled("gpu1", "A100-PCIe-40GB", 0));
    d.systems[0].devices.push_back("gpu1");
    QTest::newRow("slot filled twice")
        << d << error << "slot 0 of \"pool\" is filled twice: by \"gpu0\" and \"gpu1\""
        << ids({"gpu0", "gpu1", "pool"});
    d = fine();
    for (int i = 1; i <= 16; ++i)
        d.devices.push_back(pooled("gpu" + std::to_string(i), "A100-PCIe-40GB", i % 16));
    QTest::newRow("more devices than slots")
        << d << error << "\"pool\" holds 17 devices but a H3 Platform Falcon 4016" << ids({"pool"});

    // --- composed systems
    d = fine();
    d.hosts.push_back({"h2", "epyc-7742-2s", {}});
    d.links.push_back({"h2/cpu0", "pool/up1", "pcie4x16", 1});
    d.systems.push_back({"s2", "h2", {"gpu0"}});
    QTest::newRow("composed to two hosts")
        << d << error
        << "\"gpu0\" is composed to two hosts: \"h\" (system \"s1\") and \"h2\" (system \"s2\")"
        << ids({"gpu0", "h", "h2"});
    d = fine();
    d.systems.push_back({"s2", "h", {"gpu0"}});
    QTest::newRow("two systems on one host")
        << d << error << "\"gpu0\" is in two systems on host \"h\": \"s1\" and \"s2\""
        << ids({"gpu0"});
    d = fine();
    d.systems[0].devices.push_back("gpu9");
    QTest::newRow("listed device missing")
        << d << error << "system \"s1\" lists device \"gpu9\", which is not in the design"
        << ids({"h"});
    d = fine();
    d.systems[0].devices.push_back("gpu0");
    QTest::newRow("device listed twice")
        << d << warning << "system \"s1\" lists \"gpu0\" twice" << ids({"gpu0"});
    d = fine();
    d.systems.push_back({"s1", "h", {}});
    QTest::newRow("two systems with one name")
        << d << error << "two composed systems are named \"s1\"" << QStringList{};
    d = fine();
    d.systems[0].host = "h9";
    QTest::newRow("system on unknown host")
        << d << error << "system \"s1\" is composed on host \"h9\", which is not in the design"
        << QStringList{};
    d = fine();
    d.links.clear();
    QTest::newRow("no PCIe path") << d << error
                                  << "\"gpu0\" is composed to \"h\" but has no PCIe path to it"
                                  << ids({"gpu0", "h"});
    // The chassis hangs off h2; a (refused) PCIe link from h to h2 is no path through h2.
    d = fine();
    d.hosts.push_back({"h2", "epyc-7742-2s", {}});
    d.links = {{"h/cpu0", "h2/cpu0", "pcie4x16", 1}, {"h2/cpu1", "pool/up0", "pcie4x16", 1}};
    QTest::newRow("no PCIe path through another host")
        << d << error << "\"gpu0\" is composed to \"h\" but has no PCIe path to it"
        << ids({"gpu0", "h"});
    d = fine();
    d.devices[0].model = "samsung-pm1733-3.84tb";
    QTest::newRow("system without GPU") << d << warning << "system \"s1\" has no GPU" << ids({"h"});
    d = fine();
    d.devices.push_back(local("spare", "A100-PCIe-40GB"));
    QTest::newRow("unattached device")
        << d << warning << "\"spare\" is neither in a chassis nor linked to anything"
        << ids({"spare"});

    // --- what a link may join
    d = fine();
    d.devices.push_back(pooled("gpu1", "A100-PCIe-40GB", 1));
    d.systems[0].devices.push_back("gpu1");
    d.links.push_back({"gpu0", "gpu1", "pcie4x16", 1});
    QTest::newRow("PCIe between two GPUs")
        << d << error << "link 1 (gpu0 to gpu1, pcie4x16): a PCIe link cannot join a GPU and a GPU"
        << ids({"gpu0", "gpu1"});
    QTest::newRow("NVLink on V100 PCIe")
        << gpuPair("V100-PCIe-16GB", "nvlink2", 1) << error
        << "link 2 (g0 to g1, nvlink2): NVLink between GPUs that have none: \"g0\" (NVIDIA Tesla "
           "V100 PCIe 16 GB) has no NVLink"
        << ids({"g0", "g1"});
    QTest::newRow("NVLink generation mismatch")
        << gpuPair("A100-PCIe-40GB", "nvlink2", 12) << error
        << "link 2 (g0 to g1, nvlink2): \"g0\" (NVIDIA A100 PCIe 40 GB) speaks NVLink 3, not "
           "NVLink 2"
        << ids({"g0", "g1"});
    d = gpuPair("A100-PCIe-40GB", "nvlink3", 12);
    d.devices[1].model = "V100-PCIe-16GB";
    QTest::newRow("NVLink to a GPU without it")
        << d << error << "NVLink between GPUs that have none: \"g1\" (NVIDIA Tesla V100 PCIe 16 GB)"
        << ids({"g0", "g1"});
    QTest::newRow("too many NVLink links")
        << gpuPair("A100-PCIe-40GB", "nvlink3", 13) << error
        << "\"g0\" has 13 NVLink links attached, but a NVIDIA A100 PCIe 40 GB has 12"
        << ids({"g0"});
    QTest::newRow("too many xGMI links") // AMD's links by their own name, not NVLink
        << gpuPair("MI300X-OAM-192GB", "xgmi-mi300", 8) << error
        << "\"g0\" has 8 xgmi-mi300 links attached, but a AMD Instinct MI300X OAM 192 GB has 7"
        << ids({"g0"});
    d = gpuPair("A100-PCIe-40GB", "nvlink3", 12);
    d.links.push_back({"h/cpu0", "g1", "nvlink3", 1});
    QTest::newRow("NVLink to a host socket")
        << d << error
        << "link 3 (h/cpu0 to g1, nvlink3): NVLink joins two GPUs or a GPU and an NVSwitch, not "
           "a host socket and a GPU"
        << ids({"h", "g1"});
    d = Design{};
    d.hosts = {{"h", "epyc-7742-2s", {}}};
    d.switches = {{"sw", "pex88096", {}}};
    d.devices = {local("nic0", "cx6-hdr-1p")};
    d.links = {{"h/cpu0", "sw", "pcie4x16", 1},
               {"sw", "nic0", "pcie4x16", 1},
               {"nic0", "sw", "ib-hdr", 1}};
    QTest::newRow("network cable to a PCIe switch")
        << d << error
        << "link 2 (nic0 to sw, ib-hdr): a network cable joins NICs and network switches, not a "
           "NIC and a PCIe switch"
        << ids({"nic0", "sw"});
    d = Design{};
    d.hosts = {{"h", "epyc-7742-2s", {}}};
    d.switches = {{"eth", "sn4700", {}}};
    d.devices = {local("nic0", "cx6-hdr-1p")};
    d.links = {{"h/cpu0", "nic0", "pcie4x16", 1}, {"nic0", "eth", "ib-hdr", 1}};
    QTest::newRow("InfiniBand into an Ethernet switch")
        << d << error
        << "link 1 (nic0 to eth, ib-hdr): \"eth\" is an ethernet switch; it takes no infiniband "
           "cable"
        << ids({"nic0", "eth"});
    d = Design{};
    d.hosts = {{"h", "epyc-7742-2s", {}}};
    d.switches = {{"ib", "qm8700", {}}};
    d.devices = {local("nic0", "cx6dx-100gbe-2p")};
    d.links = {{"h/cpu0", "nic0", "pcie4x16", 1}, {"ib", "nic0", "ib-hdr", 1}};
    QTest::newRow("Ethernet NIC on InfiniBand")
        << d << error << "does not speak infiniband" << ids({"ib", "nic0"});

    // --- ports
    d = fine();
    d.hosts.push_back({"h2", "epyc-7742-2s", {}});
    d.links.push_back({"h2/cpu0", "pool/up0", "pcie4x16", 1});
    QTest::newRow("host port cabled twice")
        << d << error << "host port pool/up0 is cabled twice: to h/cpu0 and to h2/cpu0"
        << ids({"h2", "pool"});
    d = fine();
    d.links[0].from = "h/cpu7";
    QTest::newRow("no socket cpu7")
        << d << error
        << "link 0 (h/cpu7 to pool/up0, pcie4x16): \"h\" has no port \"cpu7\" (its sockets are "
           "cpu0 to cpu1)"
        << ids({"h", "pool"});
    d = fine();
    d.links[0].to = "pool/up9";
    QTest::newRow("no host port up9")
        << d << error
        << "link 0 (h/cpu0 to pool/up9, pcie4x16): a chassis is cabled at a host port up0 to "
           "up3, not \"pool/up9\""
        << ids({"h", "pool"});
    d = fine();
    d.links[0].to = "pool";
    QTest::newRow("chassis without a port")
        << d << error << "a chassis is cabled at a host port up0 to up3, not \"pool\""
        << ids({"h", "pool"});
    d = fine();
    d.devices.push_back(local("nvme0", "samsung-pm1733-3.84tb"));
    d.links.push_back({"h/cpu1", "nvme0/p0", "pcie4x4", 1});
    QTest::newRow("named device port")
        << d << error << "device ports are not named; write \"nvme0\"" << ids({"h", "nvme0"});
    d = fine();
    d.links.push_back({"h/cpu1", "ghost", "pcie4x16", 1});
    QTest::newRow("no such item") << d << error << "no item \"ghost\" in the design"
                                  << ids({"h", "ghost"});
    d = fine();
    d.links[0].kind = "pcie4_x16";
    QTest::newRow("unknown link kind, did you mean")
        << d << error
        << "link 0 (h/cpu0 to pool/up0, pcie4_x16): unknown link kind \"pcie4_x16\" (did you mean "
           "\"pcie4x16\""
        << ids({"h", "pool"});

    // --- lane, port and NVSwitch budgets
    d = Design{};
    d.hosts = {{"x", "xeon-gold-6248-2s", {}}};
    for (int i = 0; i < 5; ++i) {
        const std::string sw = "p" + std::to_string(i);
        d.switches.push_back({sw, "pex88096", {}});
        d.links.push_back({"x/cpu0", sw, "pcie4x16", 1});
    }
    QTest::newRow("socket lanes over budget")
        << d << error
        << "root ports of x/cpu0 carry 80 PCIe lanes, over the 48 lanes a Intel Xeon Gold 6248 "
           "socket has"
        << ids({"x"});
    // A count the reader accepts (any int >= 1) whose lanes do not fit in an int: 2^28 x16.
    d = Design{};
    d.hosts = {{"x", "xeon-gold-6248-2s", {}}};
    d.switches = {{"p0", "pex88096", {}}};
    d.links = {{"x/cpu0", "p0", "pcie4x16", 1 << 28}};
    QTest::newRow("socket lanes over budget, huge count")
        << d << error << "root ports of x/cpu0 carry " << ids({"x"});
    d = Design{};
    d.hosts = {{"h", "epyc-7742-2s", {}}};
    d.switches = {{"sw", "pex88096", {}}};
    d.links = {{"h/cpu0", "sw", "pcie4x16", 1}};
    d.systems = {{"s1", "h", {}}};
    for (int i = 0; i < 7; ++i) {
        const std::string g = "g" + std::to_string(i);
        d.devices.push_back(local(g, "A100-PCIe-40GB"));
        d.links.push_back({"sw", g, "pcie4x16", 1});
        d.systems[0].devices.push_back(g);
    }
    QTest::newRow("PCIe switch lanes over budget")
        << d << error
        << "PCIe switch \"sw\" carries 128 lanes, over the 96 a Broadcom PEX88096 (PCIe Gen4, 96 "
           "lanes) has"
        << ids({"sw"});
    d = Design{};
    d.hosts = {{"h", "epyc-7742-2s", {}}};
    d.switches = {{"sw", "pex88096", {}}};
    d.links = {{"h/cpu0", "sw", "pcie4x4", 1}};
    for (int i = 0; i < 24; ++i) {
        const std::string n = "n" + std::to_string(i);
        d.devices.push_back(local(n, "samsung-pm1733-3.84tb"));
        d.links.push_back({"sw", n, "pcie4x4", 1});
    }
    QTest::newRow("PCIe switch ports over budget")
        << d << error << "PCIe switch \"sw\" has 25 links, over its 24 ports" << ids({"sw"});
    d = Design{};
    d.switches = {{"hgx", "hgx-a100-8gpu", {}}};
    for (int i = 0; i < 9; ++i) {
        const std::string g = "g" + std::to_string(i);
        d.devices.push_back(local(g, "A100-SXM4-40GB"));
        d.links.push_back({g, "hgx", "nvlink3", 12});
    }
    QTest::newRow("NVSwitch over its GPU ports")
        << d << error << "\"hgx\" joins 9 GPUs, but a " << ids({"hgx"});
    // The GPU speaks NVLink 3 like the cable, but the baseboard is an NVLink 2 (V100) one:
    // "NVLink generation mismatch" must hold at an NVSwitch end too.
    d = Design{};
    d.switches = {{"hgx", "hgx2-v100-16gpu", {}}};
    d.devices = {local("g0", "A100-SXM4-40GB")};
    d.links = {{"g0", "hgx", "nvlink3", 6}};
    QTest::newRow("NVLink generation mismatch at an NVSwitch")
        << d << error << "NVLink 2" << ids({"g0", "hgx"});
}

void TestRules::finding()
{
    QFETCH(Design, design);
    QFETCH(QString, severity);
    QFETCH(QString, fragment);
    QFETCH(QStringList, items);
    std::vector<Finding> findings;
    try {
        findings = checkDesign(design, cat());
    } catch (const std::exception &e) {
        QFAIL(qPrintable(QStringLiteral("checkDesign threw: ") + QString::fromUtf8(e.what())));
    }
    bool sameMessage = false;
    for (const Finding &f : findings) {
        if (QString::fromUtf8(severityName(f.severity)) != severity
            || !QString::fromStdString(f.message).contains(fragment))
            continue;
        sameMessage = true;
        if (toList(f.items) == items)
            return;
    }
    QFAIL(qPrintable(
        QStringLiteral("%1 %2 \"%3\" with items [%4]; findings:%5")
            .arg(sameMessage ? QStringLiteral("wrong items for") : QStringLiteral("no"), severity,
                 fragment, items.join(QStringLiteral(", ")), describe(findings))));
}

void TestRules::fineDesignHasNoFindings()
{
    const auto f1 = checkDesign(fine(), cat());
    QVERIFY2(f1.empty(), qPrintable(describe(f1)));
    const auto f2 = checkDesign(gpuPair("A100-PCIe-40GB", "nvlink3", 12), cat());
    QVERIFY2(f2.empty(), qPrintable(describe(f2)));
    const auto f3 = checkDesign(Design{}, cat());
    QVERIFY2(f3.empty(), qPrintable(describe(f3)));
}

void TestRules::examplesHaveNoErrors_data()
{
    QTest::addColumn<Design>("design");
    const auto examples = bundledExamples();
    QVERIFY(!examples.empty());
    for (const Example &e : examples)
        QTest::newRow(e.fileName.c_str()) << readDesign(e.text, e.fileName);
}

void TestRules::examplesHaveNoErrors()
{
    QFETCH(Design, design);
    const auto findings = checkDesign(design, cat());
    for (const Finding &f : findings)
        QVERIFY2(f.severity != Severity::Error, qPrintable(describe(findings)));
}

void TestRules::generatedPoolHasNoFindings()
{
    const auto findings = checkDesign(generatePool(1000), cat());
    QVERIFY2(findings.empty(), qPrintable(describe(findings)));
}

void TestRules::oddDesignsDoNotThrow()
{
    // checkDesign promises never to throw: every problem is a finding.
    std::vector<Design> odd;
    Design d;
    d.hosts = {{"", "", {}}};
    d.devices = {Device{"", "", {}, "", 5}};
    d.links = {{"", "", "", 1}, {"/", "/", "pcie4x16", 1}};
    d.systems = {{"", "", {""}}};
    odd.push_back(d);
    // One id for a host, a switch and a device, linked to itself in every family.
    d = Design{};
    d.hosts = {{"x", "epyc-7742-2s", {}}};
    d.switches = {{"x", "pex88096", {}}, {"x", "hgx-a100-8gpu", {}}};
    d.devices = {local("x", "A100-SXM4-40GB")};
    for (const char *kind : {"pcie4x16", "nvlink3", "ib-hdr", "xgmi2", "nope"})
        d.links.push_back({"x", "x", kind, 1000000});
    d.systems = {{"s", "x", {"x", "x"}}};
    odd.push_back(d);
    // Unknown chassis model with far-off slots, unknown switch models in links.
    d = Design{};
    d.chassis = {{"c", "no-such-chassis", {}}};
    d.switches = {{"sw", "no-such-switch", {}}};
    d.devices = {Device{"g", "A100-PCIe-40GB", {}, "c", 1000}, Device{"g2", "T4", {}, "c", -7}};
    d.links = {{"sw", "c/up0", "pcie4x16", 1}, {"g", "sw", "nvlink3", 1}};
    odd.push_back(d);
    // A real chassis with negative and huge slots.
    d = fine();
    d.devices.push_back(pooled("gpu1", "A100-PCIe-40GB", -1));
    d.devices.push_back(pooled("gpu2", "A100-PCIe-40GB", 1 << 30));
    odd.push_back(d);
    for (std::size_t i = 0; i < odd.size(); ++i) {
        try {
            const auto findings = checkDesign(odd[i], cat());
            QVERIFY2(!findings.empty(), qPrintable(QString::number(i)));
        } catch (const std::exception &e) {
            QFAIL(qPrintable(
                QStringLiteral("design %1 threw: %2").arg(i).arg(QString::fromUtf8(e.what()))));
        }
    }
}

QTEST_APPLESS_MAIN(TestRules)
#include "tst_rules.moc"
