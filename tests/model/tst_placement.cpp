#include "design/designindex.h"
#include "design/edit.h"
#include "design/examples.h"
#include "design/linking.h"
#include "design/placement.h"

#include "catalog/catalog.h"

#include <QtTest>

using namespace clab;
using namespace clab::design;

// Where a palette part goes (design::placePart): the slot a device takes, the cable and system a
// device dropped on a host gets, the grid, and the parts that cannot go on the canvas at all.
// The seed testbed's chassis "pool" has 16 slots, all taken (gpu0..gpu11, nvme0/1, nic0/1).
class TestPlacement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deviceTakesTheSlotAskedWhenFree();
    void fullChassisRefuses();
    void deviceOnHostIsCabledAndComposed();
    void looseItemsSnapToTheGrid();
    void linksAndRoutingCannotBePlaced();
    void slotHolderNamesTheOccupant();

private:
    static const catalog::Catalog &cat() { return catalog::Catalog::builtin(); }
};

namespace {

// The seed testbed with gpu3 and nic1 taken out: slots 3 and 15 are free.
Design withFreeSlots()
{
    Design d = seedTestbed();
    removeItems(d, {"gpu3", "nic1"}, {});
    return d;
}

} // namespace

void TestPlacement::deviceTakesTheSlotAskedWhenFree()
{
    const Design d = withFreeSlots();
    PlacedPart p = placePart(d, cat(), "A100-PCIe-40GB", {5, 5}, "pool", 15);
    QVERIFY2(p.problem.empty(), p.problem.c_str());
    QVERIFY(p.id.starts_with("gpu") && !hasItem(d, p.id)); // a fresh gpuN
    QCOMPARE(p.fragment.devices.size(), std::size_t(1));
    QCOMPARE(p.fragment.devices[0].chassis, std::string("pool"));
    QCOMPARE(p.fragment.devices[0].slot, 15);
    QVERIFY(p.fragment.layout.empty()); // the chassis draws it
    QVERIFY(p.composeTo.empty());
    // An occupied slot, or none under the drop: the first free one.
    QCOMPARE(placePart(d, cat(), "A100-PCIe-40GB", {}, "pool", 0).fragment.devices[0].slot, 3);
    QCOMPARE(placePart(d, cat(), "A100-PCIe-40GB", {}, "pool", -1).fragment.devices[0].slot, 3);
    QCOMPARE(placePart(d, cat(), "A100-PCIe-40GB", {}, "pool", 99).fragment.devices[0].slot, 3);
}

void TestPlacement::fullChassisRefuses()
{
    const PlacedPart p = placePart(seedTestbed(), cat(), "A100-PCIe-40GB", {}, "pool", 2);
    QCOMPARE(p.problem, std::string("pool has no free slot"));
    QVERIFY(p.id.empty());
}

void TestPlacement::deviceOnHostIsCabledAndComposed()
{
    Design d = seedTestbed();
    d.layout.erase("hostA");
    const PlacedPart p = placePart(d, cat(), "A100-PCIe-40GB", {333, 444}, "hostA", -1);
    QVERIFY2(p.problem.empty(), p.problem.c_str());
    QCOMPARE(p.composeTo, std::string("hostA"));
    QCOMPARE(p.fragment.devices[0].chassis, std::string());
    QCOMPARE(p.fragment.links.size(), std::size_t(1));
    const Link &cable = p.fragment.links[0];
    QCOMPARE(cable.from, std::string("hostA/cpu0"));
    QCOMPARE(cable.to, p.id);
    // The same cable the whole design would choose once the device is in it.
    Design with = d;
    with.devices.push_back(p.fragment.devices[0]);
    const LinkChoice whole = chooseLink(DesignIndex(with), cat(), "hostA/cpu0", p.id);
    QVERIFY(whole.ok());
    QCOMPARE(cable.kind, whole.kind);
    QCOMPARE(cable.count, whole.count);
    // Under the host (here without a saved position: under the drop point, snapped).
    QCOMPARE(p.fragment.layout.at(p.id).x, 340.0);
    QCOMPARE(p.fragment.layout.at(p.id).y, 440.0 + kHostBox.height + 60);
    Design laid = d;
    laid.layout["hostA"] = {1000, 2000};
    const PlacedPart under = placePart(laid, cat(), "A100-PCIe-40GB", {}, "hostA", -1);
    QCOMPARE(under.fragment.layout.at(under.id).x, 1000.0);
    QCOMPARE(under.fragment.layout.at(under.id).y, 2000.0 + kHostBox.height + 60);
}

void TestPlacement::looseItemsSnapToTheGrid()
{
    const Design d = seedTestbed();
    const PlacedPart host = placePart(d, cat(), "power9-ac922", {31, -49}, "", -1);
    QCOMPARE(host.id, std::string("host1"));
    QCOMPARE(host.fragment.hosts.size(), std::size_t(1));
    QCOMPARE(host.fragment.layout.at("host1").x, 40.0);
    QCOMPARE(host.fragment.layout.at("host1").y, -40.0);
    const Position snapped = snapToGrid({kSnapStep * 2.49, -kSnapStep * 0.51});
    QCOMPARE(snapped.x, kSnapStep * 2);
    QCOMPARE(snapped.y, -kSnapStep);
    // A device dropped on nothing (or on a switch) lies loose where it was dropped.
    const PlacedPart loose = placePart(d, cat(), "A100-PCIe-40GB", {95, 5}, "", -1);
    QCOMPARE(loose.fragment.devices[0].slot, -1);
    QCOMPARE(loose.fragment.layout.at(loose.id).x, 100.0);
}

void TestPlacement::linksAndRoutingCannotBePlaced()
{
    const Design d = seedTestbed();
    QCOMPARE(placePart(d, cat(), "pcie4x16", {}, "", -1).problem,
             std::string("pcie4x16 cannot be placed on the canvas"));
    QCOMPARE(placePart(d, cat(), "no-such-part", {}, "", -1).problem,
             std::string("no-such-part cannot be placed on the canvas"));
}

void TestPlacement::slotHolderNamesTheOccupant()
{
    const Design d = seedTestbed();
    QCOMPARE(slotHolder(d, "pool", 12)->id, std::string("nvme0"));
    QVERIFY(!slotHolder(d, "pool", 12, "nvme0")); // itself does not count
    QVERIFY(!slotHolder(d, "pool", 16));
    QVERIFY(!slotHolder(withFreeSlots(), "pool", 3));
}

QTEST_APPLESS_MAIN(TestPlacement)
#include "tst_placement.moc"
