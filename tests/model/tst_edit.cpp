#include "design/edit.h"
#include "design/examples.h"

#include <QtTest>

#include <sstream>

using namespace clab::design;

namespace {

// The seed testbed (resources/examples/seed-testbed.clab) has hosts hostA..hostD, the chassis
// "pool" with gpu0..gpu11 in slots 0..11, nvme0/nvme1 in 12/13 and nic0/nic1 in 14/15, one link
// hostX/cpu0 -> pool/upN per host, and four systems:
// A (hostA: gpu0-3, nvme0), B (hostB: gpu4-9), C (hostC: gpu11, nvme1), D (hostD: gpu10, nic0).
const Design &seed()
{
    static const Design d = seedTestbed();
    return d;
}

std::vector<std::string> idsOf(const std::vector<Device> &devices)
{
    std::vector<std::string> ids;
    for (const Device &d : devices)
        ids.push_back(d.id);
    return ids;
}

// The first line where the canonical texts differ, to say why two designs are not equal.
QByteArray firstDifference(const Design &a, const Design &b)
{
    std::istringstream ta(writeDesign(a));
    std::istringstream tb(writeDesign(b));
    std::string la;
    std::string lb;
    for (int line = 1;; ++line) {
        const bool moreA = bool(std::getline(ta, la));
        const bool moreB = bool(std::getline(tb, lb));
        if (!moreA && !moreB)
            break;
        if (la != lb || moreA != moreB)
            return QByteArray::fromStdString("line " + std::to_string(line) + ": " + la + " | "
                                             + lb);
    }
    return "same text, different values";
}

} // namespace

#define COMPARE_DESIGNS(a, b) QVERIFY2((a) == (b), firstDifference((a), (b)).constData())

class TestEdit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void uniqueIdTakesTheFirstFreeNumber_data();
    void uniqueIdTakesTheFirstFreeNumber();
    void uniqueIdIsSharedByAllKinds();
    void uniqueSystemName();
    void copyHostWithLooseDevices();
    void copyChassisBringsItsDevices();
    void copyKeepsLinksAndSystemsWhollyInside();
    void copyIgnoresUnknownIds();
    void pasteRenamesClashes();
    void pasteAvoidsTheFragmentsOwnIds();
    void pasteIntoEmptyDesignKeepsIds();
    void appendAndRemoveAppended();
    void removeChassisAndRestore();
    void removeHostRemovesItsSystem();
    void removeExtraLinks();
    void composeMovesADevice();
    void composeCreatesASystem();
    void composeNothingToDo();
    void groupAndRemoveSystems();
    void renameSystemRefusesClashes();
    void setNameModelPlacement();
};

void TestEdit::uniqueIdTakesTheFirstFreeNumber_data()
{
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("expected");
    // gpu1..gpu11 are taken (gpu0 does not count: numbering starts at 1).
    QTest::newRow("gpu") << "gpu"
                         << "gpu12";
    QTest::newRow("nvme") << "nvme"
                          << "nvme2";
    QTest::newRow("nic") << "nic"
                         << "nic2";
    QTest::newRow("host") << "host"
                          << "host1"; // hostA..hostD do not end in a number
    QTest::newRow("switch") << "switch"
                            << "switch1";
}

void TestEdit::uniqueIdTakesTheFirstFreeNumber()
{
    QFETCH(QString, prefix);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(uniqueId(seed(), prefix.toStdString())), expected);
}

void TestEdit::uniqueIdIsSharedByAllKinds()
{
    Design d;
    d.hosts.push_back({"x1", "h", {}});
    d.chassis.push_back({"x2", "c", {}});
    d.switches.push_back({"x3", "s", {}});
    d.devices.push_back({"x5", "g", {}, {}, -1});
    QCOMPARE(uniqueId(d, "x"), std::string("x4"));
    d.devices.push_back({"x4", "g", {}, {}, -1});
    QCOMPARE(uniqueId(d, "x"), std::string("x6"));
    QVERIFY(hasItem(d, "x3"));
    QVERIFY(!hasItem(d, "x6"));
}

void TestEdit::uniqueSystemName()
{
    Design d = seed();
    QCOMPARE(clab::design::uniqueSystemName(d, "new"), std::string("new"));
    QCOMPARE(clab::design::uniqueSystemName(d, "C: Gen3 host"), std::string("C: Gen3 host (2)"));
    d.systems.push_back({"C: Gen3 host (2)", "hostC", {}});
    QCOMPARE(clab::design::uniqueSystemName(d, "C: Gen3 host"), std::string("C: Gen3 host (3)"));
}

void TestEdit::copyHostWithLooseDevices()
{
    const Design f = copyItems(seed(), {"hostA", "gpu0", "gpu1"});
    QCOMPARE(f.hosts.size(), std::size_t(1));
    QCOMPARE(f.hosts[0], seed().hosts[0]);
    QVERIFY(f.chassis.empty());
    // Their chassis stays behind, so they leave its slots (a paste would fill them twice).
    QCOMPARE(f.devices.size(), std::size_t(2));
    QCOMPARE(f.devices[0], (Device{"gpu0", "A100-PCIe-40GB", {}, {}, -1}));
    QCOMPARE(f.devices[1], (Device{"gpu1", "A100-PCIe-40GB", {}, {}, -1}));
    QVERIFY(f.links.empty());   // hostA's only link goes to the pool
    QVERIFY(f.systems.empty()); // system A also has gpu2, gpu3 and nvme0
    QCOMPARE(f.layout.size(), std::size_t(3));
    QCOMPARE(f.layout.at("hostA"), (Position{80, 60}));
    QCOMPARE(f.layout.at("gpu1"), (Position{210, 300}));
    QVERIFY(f.name.empty());
}

void TestEdit::copyChassisBringsItsDevices()
{
    const Design f = copyItems(seed(), {"pool"});
    QCOMPARE(f.chassis.size(), std::size_t(1));
    QCOMPARE(f.devices, seed().devices); // all 16, in their slots
    QVERIFY(f.hosts.empty());
    QVERIFY(f.links.empty());
    QVERIFY(f.systems.empty());
    QCOMPARE(f.layout.size(), std::size_t(17)); // the pool and its 16 devices
}

void TestEdit::copyKeepsLinksAndSystemsWhollyInside()
{
    const Design f = copyItems(seed(), {"pool", "hostA"});
    QCOMPARE(f.links, (std::vector<Link>{{"hostA/cpu0", "pool/up0", "pcie4x16", 1, "link1"}}));
    QCOMPARE(f.systems.size(), std::size_t(1));
    QCOMPARE(f.systems[0], seed().systems[0]);
    QCOMPARE(f.layout.size(), std::size_t(18));

    const Design c = copyItems(seed(), {"hostC", "nvme1", "gpu11"});
    QCOMPARE(c.systems.size(), std::size_t(1));
    QCOMPARE(c.systems[0].name, std::string("C: Gen3 host"));
    QCOMPARE(idsOf(c.devices), (std::vector<std::string>{"gpu11", "nvme1"})); // design order
}

void TestEdit::copyIgnoresUnknownIds()
{
    const Design f = copyItems(seed(), {"nosuch", "gpu3"});
    QCOMPARE(idsOf(f.devices), std::vector<std::string>{"gpu3"});
    QCOMPARE(f.layout.size(), std::size_t(1));
    QCOMPARE(copyItems(seed(), {}), Design{});
}

void TestEdit::pasteRenamesClashes()
{
    const Design f = prepareForPaste(seed(), copyItems(seed(), {"pool", "hostA"}), 40, 40);
    QCOMPARE(f.hosts[0].id, std::string("hostA1"));
    QCOMPARE(f.hosts[0].name, std::string("Host A (AC922)"));
    QCOMPARE(f.chassis[0].id, std::string("pool1"));
    // gpu0..gpu11 -> gpu12..gpu23, nvme0/1 -> nvme2/3, nic0/1 -> nic2/3, all still in pool1.
    QCOMPARE(f.devices[0].id, std::string("gpu12"));
    QCOMPARE(f.devices[11].id, std::string("gpu23"));
    QCOMPARE(f.devices[12].id, std::string("nvme2"));
    QCOMPARE(f.devices[15].id, std::string("nic3"));
    QCOMPARE(f.devices[15].chassis, std::string("pool1"));
    QCOMPARE(f.devices[15].slot, 15);
    // The link's id is the seed's: it gets the first free one (after link1..link4).
    QCOMPARE(f.links, (std::vector<Link>{{"hostA1/cpu0", "pool1/up0", "pcie4x16", 1, "link5"}}));
    QCOMPARE(f.systems.size(), std::size_t(1));
    QCOMPARE(f.systems[0], (System{"A: 4 GPUs on one uplink (2)",
                                   "hostA1",
                                   {"gpu12", "gpu13", "gpu14", "gpu15", "nvme2"}}));
    QCOMPARE(f.layout.size(), std::size_t(18));
    QCOMPARE(f.layout.at("hostA1"), (Position{120, 100})); // (80, 60) + (40, 40)
    QCOMPARE(f.layout.at("gpu12"), (Position{160, 340}));  // gpu0's (120, 300) + (40, 40)
    QVERIFY(!f.layout.contains("hostA"));

    // Pasted, no id repeats.
    Design d = seed();
    appendItems(d, f);
    const std::size_t items
        = d.hosts.size() + d.chassis.size() + d.switches.size() + d.devices.size();
    QCOMPARE(items, std::size_t(21 + 18));
    QCOMPARE(itemIds(d).size(), items);
}

void TestEdit::pasteAvoidsTheFragmentsOwnIds()
{
    Design d;
    d.devices.push_back({"gpu1", "A100-PCIe-40GB", {}, {}, -1});
    d.systems.push_back({"s", "h", {}});
    Design f;
    f.hosts.push_back({"h", "epyc-7742-2s", {}});
    f.devices.push_back({"gpu1", "A100-PCIe-40GB", {}, {}, -1});
    f.devices.push_back({"gpu2", "A100-PCIe-40GB", {}, {}, -1});
    f.links.push_back({"h/cpu1", "gpu1", "pcie4x16", 2});
    f.systems.push_back({"s", "h", {"gpu1", "gpu2"}});
    f.systems.push_back({"s", "h", {}});
    f.layout["gpu1"] = {1.5, -2};
    const Design p = prepareForPaste(d, f, -1.5, 2);
    // gpu2 is the fragment's own, so the clashing gpu1 becomes gpu3.
    QCOMPARE(idsOf(p.devices), (std::vector<std::string>{"gpu3", "gpu2"}));
    QCOMPARE(p.hosts[0].id, std::string("h")); // no clash: kept
    QCOMPARE(p.links, (std::vector<Link>{{"h/cpu1", "gpu3", "pcie4x16", 2, "link1"}}));
    QCOMPARE(p.systems[0], (System{"s (2)", "h", {"gpu3", "gpu2"}}));
    QCOMPARE(p.systems[1].name, std::string("s (3)"));
    QCOMPARE(p.layout, (std::map<std::string, Position>{{"gpu3", {0, 0}}}));
}

void TestEdit::pasteIntoEmptyDesignKeepsIds()
{
    const Design f = copyItems(seed(), {"pool", "hostA"});
    Design p = prepareForPaste(Design{}, f, 0, 0);
    COMPARE_DESIGNS(p, f);
}

void TestEdit::appendAndRemoveAppended()
{
    Design d = seed();
    Design f;
    f.switches.push_back({"sw1", "broadcom-pex88096", {}});
    f.layout["sw1"] = {5, 6};
    f.layout["hostA"] = {7, 8}; // overwrites a position: undo must bring the old one back
    const auto overwritten = appendItems(d, f);
    QCOMPARE(d.switches.size(), std::size_t(1));
    QCOMPARE(d.layout.at("hostA"), (Position{7, 8}));
    QCOMPARE(overwritten, (std::map<std::string, Position>{{"hostA", {80, 60}}}));
    removeAppended(d, f, overwritten);
    COMPARE_DESIGNS(d, seed());
}

void TestEdit::removeChassisAndRestore()
{
    Design d = seed();
    const Removal r = removeItems(d, {"pool"});
    QVERIFY(d.chassis.empty());
    QVERIFY(d.devices.empty());                 // all 16 were in its slots
    QVERIFY(d.links.empty());                   // every link ends at the pool
    QCOMPARE(d.systems.size(), std::size_t(4)); // the hosts stay, so do their systems
    for (const System &s : d.systems)
        QVERIFY(s.devices.empty());
    QCOMPARE(d.layout.size(), std::size_t(4)); // the hosts'
    QCOMPARE(r.devices.size(), std::size_t(16));
    QCOMPARE(r.members.size(), std::size_t(4));
    QCOMPARE(r.positions.size(), std::size_t(17));
    restoreItems(d, r);
    COMPARE_DESIGNS(d, seed());
}

void TestEdit::removeHostRemovesItsSystem()
{
    Design d = seed();
    // gpu5 and gpu2 from the middle of their systems, hostC with its system.
    const Removal r = removeItems(d, {"gpu5", "hostC", "gpu2", "nosuch"});
    QCOMPARE(d.hosts.size(), std::size_t(3));
    QCOMPARE(d.devices.size(), std::size_t(14));
    QCOMPARE(d.links.size(), std::size_t(3));
    QCOMPARE(d.systems.size(), std::size_t(3));
    QCOMPARE(d.systems[0].devices, (std::vector<std::string>{"gpu0", "gpu1", "gpu3", "nvme0"}));
    QCOMPARE(d.systems[1].devices,
             (std::vector<std::string>{"gpu4", "gpu6", "gpu7", "gpu8", "gpu9"}));
    QCOMPARE(d.systems[2].name, std::string("D: GPU through the central switch"));
    QVERIFY(d.device("gpu11")); // hostC's devices return to the pool
    QVERIFY(!d.layout.contains("hostC"));
    restoreItems(d, r);
    COMPARE_DESIGNS(d, seed());

    Design e = seed();
    QVERIFY(removeItems(e, {"nosuch"}).empty());
    COMPARE_DESIGNS(e, seed());
}

void TestEdit::removeExtraLinks()
{
    Design d = seed();
    QCOMPARE(d.links[1].from, std::string("hostB/cpu0"));
    const Removal r = removeItems(d, {}, {d.links[1].id, "nosuch"});
    QCOMPARE(d.links.size(), std::size_t(3));
    QCOMPARE(d.links[1].from, std::string("hostC/cpu0"));
    QCOMPARE(r.links.size(), std::size_t(1));
    QCOMPARE(r.links[0].index, 1);
    restoreItems(d, r);
    COMPARE_DESIGNS(d, seed());
}

void TestEdit::composeMovesADevice()
{
    Design d = seed();
    const auto c = compose(d, "gpu4", "hostA");
    QVERIFY(c);
    QCOMPARE(d.systems[0].devices,
             (std::vector<std::string>{"gpu0", "gpu1", "gpu2", "gpu3", "nvme0", "gpu4"}));
    QCOMPARE(d.systems[1].devices.front(), std::string("gpu5"));
    QVERIFY(!c->createdSystem);
    undoCompose(d, *c);
    COMPARE_DESIGNS(d, seed());

    const auto release = compose(d, "gpu4", "");
    QVERIFY(release);
    QCOMPARE(d.systems[1].devices.size(), std::size_t(5));
    QCOMPARE(d.systems[0].devices.size(), std::size_t(5));
    undoCompose(d, *release);
    COMPARE_DESIGNS(d, seed());
}

void TestEdit::composeCreatesASystem()
{
    Design d = seed();
    d.systems.pop_back(); // hostD has no system now; gpu10 and nic0 are in the pool
    const Design before = d;
    const auto c = compose(d, "gpu10", "hostD");
    QVERIFY(c);
    QVERIFY(c->createdSystem);
    QCOMPARE(d.systems.size(), std::size_t(4));
    QCOMPARE(d.systems[3], (System{"Host D (Xeon 6330)", "hostD", {"gpu10"}}));
    undoCompose(d, *c);
    COMPARE_DESIGNS(d, before);
}

void TestEdit::composeNothingToDo()
{
    Design d = seed();
    QVERIFY(!compose(d, "gpu0", "hostA"));   // already there
    QVERIFY(!compose(d, "nic1", ""));        // in no system
    QVERIFY(!compose(d, "nosuch", "hostA")); // unknown device
    QVERIFY(!compose(d, "gpu0", "nosuch"));  // unknown host
    COMPARE_DESIGNS(d, seed());

    // Listed twice (a rules error in a file): composing to one of them keeps only that place.
    d.systems[1].devices.push_back("gpu0");
    const Design twice = d;
    const auto c = compose(d, "gpu0", "hostA");
    QVERIFY(c);
    QCOMPARE(c->system, -1);
    QCOMPARE(d.systems[0].devices.front(), std::string("gpu0"));
    QCOMPARE(d.systems[1].devices.size(), std::size_t(6));
    undoCompose(d, *c);
    COMPARE_DESIGNS(d, twice);
}

void TestEdit::groupAndRemoveSystems()
{
    Design d = seed();
    const auto released
        = groupSystem(d, {"A: 4 GPUs on one uplink", "hostD", {"gpu3", "nic1", "gpu3", "x"}});
    QVERIFY(released);
    QCOMPARE(d.systems.size(), std::size_t(5));
    QCOMPARE(d.systems[4], (System{"A: 4 GPUs on one uplink (2)", "hostD", {"gpu3", "nic1"}}));
    QCOMPARE(d.systems[0].devices, (std::vector<std::string>{"gpu0", "gpu1", "gpu2", "nvme0"}));
    ungroupSystem(d, *released);
    COMPARE_DESIGNS(d, seed());
    QVERIFY(!groupSystem(d, {"x", "nosuch", {"gpu0"}}));

    const auto taken = takeSystem(d, "B: 6 GPUs over two switches");
    QVERIFY(taken);
    QCOMPARE(taken->index, 1);
    QCOMPARE(d.systems.size(), std::size_t(3));
    putBackSystem(d, *taken);
    COMPARE_DESIGNS(d, seed());
    QVERIFY(!takeSystem(d, "nosuch"));
}

void TestEdit::renameSystemRefusesClashes()
{
    Design d = seed();
    QVERIFY(!renameSystem(d, "C: Gen3 host", "A: 4 GPUs on one uplink"));
    QVERIFY(!renameSystem(d, "C: Gen3 host", ""));
    QVERIFY(!renameSystem(d, "nosuch", "x"));
    COMPARE_DESIGNS(d, seed());
    QVERIFY(renameSystem(d, "C: Gen3 host", "C"));
    QCOMPARE(d.systems[2].name, std::string("C"));
}

void TestEdit::setNameModelPlacement()
{
    Design d = seed();
    QCOMPARE(setItemName(d, "pool", "Pool"), std::optional<std::string>("Composable pool"));
    QCOMPARE(d.chassis[0].name, std::string("Pool"));
    QCOMPARE(setItemModel(d, "hostC", "epyc-7742-2s"),
             std::optional<std::string>("xeon-gold-6248-2s"));
    QCOMPARE(d.hosts[2].model, std::string("epyc-7742-2s"));
    QVERIFY(!setItemName(d, "nosuch", "x"));

    QCOMPARE(setPlacement(d, "gpu3", {"", 7}), (std::optional<Placement>({"pool", 3})));
    QCOMPARE((Placement{d.devices[3].chassis, d.devices[3].slot}), (Placement{"", -1}));
    QVERIFY(!setPlacement(d, "gpu3", {"hostA", 1})); // not a chassis
    QVERIFY(!setPlacement(d, "gpu3", {"pool", -2}));
    QCOMPARE(setPlacement(d, "gpu3", {"pool", 3}), (std::optional<Placement>({"", -1})));
    QCOMPARE(d.devices[3], seed().devices[3]);

    QVERIFY(isStorableLink(d, {"hostA/cpu1", "gpu3", "pcie4x16", 1}));
    QVERIFY(!isStorableLink(d, {"hostA/cpu1", "nosuch", "pcie4x16", 1}));
    QVERIFY(!isStorableLink(d, {"hostA/cpu1", "gpu3", "pcie4x16", 0}));
    QVERIFY(!isStorableLink(d, {"hostA/cpu1", "gpu3", "pcie4x16", kMaxLinkCount + 1}));
}

QTEST_APPLESS_MAIN(TestEdit)
#include "tst_edit.moc"
