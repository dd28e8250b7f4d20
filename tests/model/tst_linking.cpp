#include "catalog/catalog.h"
#include "design/autolayout.h"
#include "design/designindex.h"
#include "design/examples.h"
#include "design/linking.h"

#include <QtTest>

using namespace clab;
using namespace clab::design;

// The cable the canvas proposes when the user drags from one port to another, and the
// automatic layout of new or imported designs.
class TestLinking : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void choosesCable_data();
    void choosesCable();
    void layoutDoesNotOverlap_data();
    void layoutDoesNotOverlap();
    void layoutKeepsExistingPositions();
    void slotGeometry();
};

namespace {

// A Gen3 Xeon host, a Gen4 EPYC host, a Gen4 chassis, A100 PCIe GPUs (NVLink 3), a V100 PCIe
// (no NVLink), an SXM A100 and an HGX A100 NVSwitch board, HDR and 100GbE NICs, an HDR switch.
Design parts()
{
    Design d;
    d.hosts = {{"gen3", "xeon-gold-6248-2s", {}}, {"gen4", "epyc-7742-2s", {}}};
    d.chassis = {{"pool", "h3-falcon-4016", {}}};
    d.switches = {{"ib", "qm8700", {}}, {"nvs", "hgx-a100-8gpu", {}}, {"plx", "pex88096", {}}};
    d.devices
        = {{"a", "A100-PCIe-40GB", {}, {}, -1},    {"b", "A100-PCIe-40GB", {}, {}, -1},
           {"v", "V100-PCIe-16GB", {}, {}, -1},    {"sxm", "A100-SXM4-40GB", {}, {}, -1},
           {"hdr", "cx6-hdr-1p", {}, {}, -1},      {"hdr2", "cx6-hdr-1p", {}, {}, -1},
           {"eth", "cx6dx-100gbe-2p", {}, {}, -1}, {"nvme", "samsung-pm1733-3.84tb", {}, {}, -1}};
    return d;
}

bool overlaps(const Position &a, const Box &ab, const Position &b, const Box &bb)
{
    return a.x < b.x + bb.width && b.x < a.x + ab.width && a.y < b.y + bb.height
           && b.y < a.y + ab.height;
}

} // namespace

void TestLinking::choosesCable_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("kind"); // empty: refused
    QTest::addColumn<int>("count");
    // PCIe runs at the lower generation of the two sides.
    QTest::newRow("gen3 host to gen4 chassis") << "gen3/cpu0"
                                               << "pool/up0"
                                               << "pcie3x16" << 1;
    QTest::newRow("gen4 host to gen4 chassis") << "gen4/cpu1"
                                               << "pool/up2"
                                               << "pcie4x16" << 1;
    QTest::newRow("gen4 host to A100") << "gen4/cpu0"
                                       << "a"
                                       << "pcie4x16" << 1;
    QTest::newRow("gen4 switch to V100 (gen3)") << "plx"
                                                << "v"
                                                << "pcie3x16" << 1;
    QTest::newRow("drive has four lanes") << "gen4/cpu0"
                                          << "nvme"
                                          << "pcie4x4" << 1;
    // NVLink between GPUs of one generation; a board takes its links per GPU (12 on HGX A100).
    QTest::newRow("A100 pair") << "a"
                               << "b"
                               << "nvlink3" << 1;
    QTest::newRow("SXM to NVSwitch") << "sxm"
                                     << "nvs"
                                     << "nvlink3" << 12;
    QTest::newRow("V100 PCIe has no NVLink") << "a"
                                             << "v"
                                             << "" << 0;
    // Networks: same family only.
    QTest::newRow("HDR NIC to HDR switch") << "hdr"
                                           << "ib"
                                           << "ib-hdr" << 1;
    QTest::newRow("HDR NICs back to back") << "hdr"
                                           << "hdr2"
                                           << "ib-hdr" << 1;
    QTest::newRow("Ethernet NIC into IB switch") << "eth"
                                                 << "ib"
                                                 << "" << 0;
    // Nonsense.
    QTest::newRow("device to device by PCIe") << "a"
                                              << "nvme"
                                              << "" << 0;
    QTest::newRow("chassis to chassis port") << "pool/up0"
                                             << "pool/up1"
                                             << "" << 0;
    QTest::newRow("host socket that does not exist") << "gen4/cpu7"
                                                     << "a"
                                                     << "" << 0;
    QTest::newRow("unknown item") << "nothing"
                                  << "a"
                                  << "" << 0;
}

void TestLinking::choosesCable()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, kind);
    QFETCH(int, count);
    const Design d = parts();
    const DesignIndex index(d);
    const LinkChoice c
        = chooseLink(index, catalog::Catalog::builtin(), from.toStdString(), to.toStdString());
    QCOMPARE(QString::fromStdString(c.kind), kind);
    if (kind.isEmpty()) {
        QVERIFY(!c.ok());
        QVERIFY2(!c.error.empty(), "a refusal says why");
    } else {
        QCOMPARE(c.count, count);
        // Symmetric: dragging the other way proposes the same cable.
        const LinkChoice back
            = chooseLink(index, catalog::Catalog::builtin(), to.toStdString(), from.toStdString());
        QCOMPARE(QString::fromStdString(back.kind), kind);
    }
}

void TestLinking::layoutDoesNotOverlap_data()
{
    QTest::addColumn<int>("example"); // index into bundledExamples, or -1 for a 200-device pool
    for (int i = 0; i < int(bundledExamples().size()); ++i)
        QTest::newRow(bundledExamples()[std::size_t(i)].fileName.c_str()) << i;
    QTest::newRow("pool of 200") << -1;
}

void TestLinking::layoutDoesNotOverlap()
{
    QFETCH(int, example);
    const Design d = example < 0 ? generatePool(200)
                                 : readDesign(bundledExamples()[std::size_t(example)].text, "x");
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    const auto layout = autoLayout(d, cat, false);
    int expected = int(d.hosts.size() + d.chassis.size() + d.switches.size());
    for (const Device &dev : d.devices)
        expected += dev.chassis.empty();
    QCOMPARE(int(layout.size()), expected); // every top-level item placed, slotted devices not
    std::vector<std::pair<Position, Box>> boxes;
    for (const auto &[id, p] : layout) {
        QCOMPARE(std::fmod(p.x, kGrid), 0.0); // on the grid
        boxes.push_back({p, boxOf(d, cat, id)});
    }
    for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            QVERIFY(!overlaps(boxes[i].first, boxes[i].second, boxes[j].first, boxes[j].second));
    // Hosts are the top row; what they link to is below them.
    if (!d.hosts.empty() && !d.chassis.empty())
        QVERIFY(layout.at(d.chassis.front().id).y > layout.at(d.hosts.front().id).y);
}

void TestLinking::layoutKeepsExistingPositions()
{
    Design d = seedTestbed();
    d.hosts.push_back({"hostE", "epyc-7742-2s", {}});
    const auto layout = autoLayout(d, catalog::Catalog::builtin(), true);
    QCOMPARE(layout.at("hostA").x, d.layout.at("hostA").x);
    QCOMPARE(layout.at("pool").y, d.layout.at("pool").y);
    // The new host goes below everything that was there.
    double bottom = 0;
    for (const auto &[id, p] : d.layout)
        if (!d.device(id) || d.device(id)->chassis.empty())
            bottom = std::max(bottom, p.y);
    QVERIFY(layout.at("hostE").y > bottom);
}

void TestLinking::slotGeometry()
{
    // 16 slots in two rows of 8: slot 9 is the second of the second row.
    const Position p = slotOffset(9);
    QCOMPARE(p.x, kChassisPadding + (kDeviceBox.width + kChassisPadding));
    QCOMPARE(p.y, kChassisHeader + (kDeviceBox.height + kChassisPadding));
    const Box b = chassisBox(16);
    QCOMPARE(b.width, 2 * kChassisPadding + 8 * kDeviceBox.width + 7 * kChassisPadding);
    QCOMPARE(b.height,
             kChassisHeader + kChassisPadding + 2 * (kDeviceBox.height + kChassisPadding));
    // The last slot lies inside the box.
    const Position last = slotOffset(15);
    QVERIFY(last.x + kDeviceBox.width <= b.width);
    QVERIFY(last.y + kDeviceBox.height <= b.height);
}

QTEST_APPLESS_MAIN(TestLinking)
#include "tst_linking.moc"
