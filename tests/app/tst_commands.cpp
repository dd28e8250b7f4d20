#include "commands/additemscommand.h"
#include "commands/addlinkcommand.h"
#include "commands/composecommand.h"
#include "commands/editlinkcommand.h"
#include "commands/groupsystemcommand.h"
#include "commands/moveitemscommand.h"
#include "commands/removeitemscommand.h"
#include "commands/removesystemcommand.h"
#include "commands/renamecommand.h"
#include "commands/renamesystemcommand.h"
#include "commands/setdesigninfocommand.h"
#include "commands/setmodelcommand.h"
#include "commands/setslotcommand.h"
#include "document.h"

#include "design/edit.h"
#include "design/examples.h"

#include <QSignalSpy>
#include <QtTest>

#include "commandtest.h"

#include <functional>
#include <sstream>

using namespace clab;
using namespace clab::commands;
using design::Design;
using namespace clab::testing;

namespace {

using Check = std::function<void(const Design &)>;
using Make = std::function<QUndoCommand *(Document *)>;

// Pushes the command `make` builds on a document holding `start`, checks the result with `check`,
// then undoes and redoes twice: undo must give `start` back exactly, redo the same after-state,
// and every push, undo and redo must announce exactly one change.
void pushUndoRedo(const Make &make, const char *text, const Check &check,
                  const Design &start = seed())
{
    Document doc;
    doc.setDesign(start);
    QSignalSpy changed(&doc, &Document::changed);
    QUndoStack *stack = doc.undoStack();
    stack->push(make(&doc));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(stack->count(), 1);
    QCOMPARE(stack->undoText(), QString::fromUtf8(text));
    const Design after = doc.design();
    QVERIFY(after != start);
    check(after);
    if (QTest::currentTestFailed())
        return;
    for (int round = 0; round < 2; ++round) {
        stack->undo();
        QCOMPARE(changed.count(), 2 + 2 * round);
        COMPARE_DESIGNS(doc.design(), start);
        stack->redo();
        QCOMPARE(changed.count(), 3 + 2 * round);
        COMPARE_DESIGNS(doc.design(), after);
    }
}

// A command whose target does not exist (or that would change nothing) leaves the design, the
// stack and the change signal alone.
void pushIsNoOp(const Make &make)
{
    Document doc;
    doc.setDesign(seed());
    QSignalSpy changed(&doc, &Document::changed);
    doc.undoStack()->push(make(&doc));
    QCOMPARE(doc.undoStack()->count(), 0);
    QCOMPARE(changed.count(), 0);
    COMPARE_DESIGNS(doc.design(), seed());
}

std::vector<std::string> ids(const std::vector<design::Device> &devices)
{
    std::vector<std::string> out;
    for (const auto &d : devices)
        out.push_back(d.id);
    return out;
}

using Strings = std::vector<std::string>;

} // namespace

class TestCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void addItems();
    void addItemsPaste();
    void removeDevice();
    void removeChassis();
    void removeHostAndLinks();
    void removeInALargePool();
    void moveItems();
    void moveItemWithoutPosition();
    void movesOfTheSameIdsMerge();
    void movesOfOtherIdsDoNotMerge();
    void moveBackToTheStartLeavesNoStep();
    void compose();
    void composeCreatesSystem();
    void release();
    void addThenComposeAsOneStep();
    void addLink();
    void editLink();
    void linksAreFoundByIdWhenOthersGo();
    void rename();
    void setModel();
    void setSlot();
    void groupSystem();
    void renameSystem();
    void removeSystem();
    void setDesignInfo();
    void unknownTargetsDoNothing();
};

void TestCommands::addItems()
{
    const design::Link link{"hostA/cpu1", "sw1", "pcie4x16", 1};
    Design fragment;
    fragment.switches.push_back({"sw1", "broadcom-pex88096", "Switch"});
    fragment.links.push_back(link);
    fragment.layout["sw1"] = {10, 20};
    pushUndoRedo(
        [&](Document *doc) {
            return new AddItemsCommand(doc, fragment, QStringLiteral("Add switch"));
        },
        "Add switch",
        [&](const Design &d) {
            QCOMPARE(d.switches, fragment.switches);
            QCOMPARE(d.links.size(), std::size_t(5));
            design::Link added = link;
            added.id = "link5"; // given on the first redo, kept by the next ones
            QCOMPARE(d.links[4], added);
            QCOMPARE(d.layout.at("sw1"), (design::Position{10, 20}));
        });
}

void TestCommands::addItemsPaste()
{
    const Design fragment
        = design::prepareForPaste(seed(), design::copyItems(seed(), {"hostA", "pool"}), 40, 40);
    pushUndoRedo(
        [&](Document *doc) { return new AddItemsCommand(doc, fragment, QStringLiteral("Paste")); },
        "Paste",
        [](const Design &d) {
            QCOMPARE(d.hosts.size(), std::size_t(5));
            QCOMPARE(d.hosts[4].id, std::string("hostA1"));
            QCOMPARE(d.chassis.size(), std::size_t(2));
            QCOMPARE(d.devices.size(), std::size_t(32));
            QCOMPARE(d.devices[16].id, std::string("gpu12"));
            QCOMPARE(d.devices[16].chassis, std::string("pool1"));
            QCOMPARE(d.links.size(), std::size_t(5));
            QCOMPARE(d.systems.size(), std::size_t(5));
            QCOMPARE(d.systems[4].host, std::string("hostA1"));
            QCOMPARE(d.layout.size(), std::size_t(21 + 18));
        });
}

void TestCommands::removeDevice()
{
    pushUndoRedo(
        [](Document *doc) { return new RemoveItemsCommand(doc, {"gpu5"}); }, "Remove gpu5",
        [](const Design &d) {
            QCOMPARE(d.devices.size(), std::size_t(15));
            QVERIFY(!d.device("gpu5"));
            QCOMPARE(d.systems[1].devices, (Strings{"gpu4", "gpu6", "gpu7", "gpu8", "gpu9"}));
            QVERIFY(!d.layout.contains("gpu5"));
            QCOMPARE(d.links, seed().links);
        });
}

void TestCommands::removeChassis()
{
    // The pool takes its 16 devices, the four host links and every system membership with it;
    // undo must put each back in its old place (operator== compares the order of every list).
    pushUndoRedo([](Document *doc) { return new RemoveItemsCommand(doc, {"pool"}); }, "Remove pool",
                 [](const Design &d) {
                     QVERIFY(d.chassis.empty());
                     QVERIFY(d.devices.empty());
                     QVERIFY(d.links.empty());
                     QCOMPARE(d.systems.size(), std::size_t(4));
                     for (const design::System &s : d.systems)
                         QVERIFY(s.devices.empty());
                     QCOMPARE(d.layout.size(), std::size_t(4)); // the hosts'
                     QCOMPARE(d.hosts, seed().hosts);
                 });
}

void TestCommands::removeHostAndLinks()
{
    pushUndoRedo(
        [](Document *doc) {
            // The link from hostD by its id (version 1 seed file: ids given in order on read).
            return new RemoveItemsCommand(doc, {"hostB"}, {"link4"});
        },
        "Remove 2 item(s)",
        [](const Design &d) {
            QCOMPARE(seed().links[3].from, std::string("hostD/cpu0"));
            QCOMPARE(seed().links[3].id, std::string("link4"));
            QCOMPARE(d.hosts.size(), std::size_t(3));
            QCOMPARE(d.links, (std::vector<design::Link>{seed().links[0], seed().links[2]}));
            QCOMPARE(d.systems.size(), std::size_t(3)); // B went with its host
            QCOMPARE(d.systems[1].name, std::string("C: Gen3 host"));
            QCOMPARE(ids(d.devices), ids(seed().devices)); // its GPUs stay in the pool
        });
}

void TestCommands::removeInALargePool()
{
    // generatePool(1000): 63 chassis of 16 slots, 250 hosts with one link each.
    const Design pool = design::generatePool(1000);
    QCOMPARE(pool.links.size(), std::size_t(250));
    pushUndoRedo([](Document *doc) { return new RemoveItemsCommand(doc, {"chassis3"}); },
                 "Remove chassis3",
                 [](const Design &d) {
                     QCOMPARE(d.chassis.size(), std::size_t(62));
                     QCOMPARE(d.devices.size(), std::size_t(1000 - 16));
                     QCOMPARE(d.links.size(), std::size_t(246));
                     QVERIFY(d.system("chassis3-host0-system")->devices.empty());
                 },
                 pool);
}

void TestCommands::moveItems()
{
    pushUndoRedo(
        [](Document *doc) {
            return new MoveItemsCommand(doc, {{"hostA", {1, 2}}, {"pool", {3, 4}}});
        },
        "Move 2 item(s)",
        [](const Design &d) {
            QCOMPARE(d.layout.at("hostA"), (design::Position{1, 2}));
            QCOMPARE(d.layout.at("pool"), (design::Position{3, 4}));
            QCOMPARE(d.layout.at("hostB"), seed().layout.at("hostB"));
            QCOMPARE(d.layout.size(), seed().layout.size());
        });
}

void TestCommands::moveItemWithoutPosition()
{
    Design start = seed();
    start.layout.erase("nic1"); // undo must take the position away again
    pushUndoRedo(
        [](Document *doc) {
            return new MoveItemsCommand(doc, {{"nic1", {5, 5}}});
        },
        "Move nic1",
        [](const Design &d) {
            QCOMPARE(d.layout.at("nic1"), (design::Position{5, 5}));
        },
        start);
}

void TestCommands::movesOfTheSameIdsMerge()
{
    Document doc;
    doc.setDesign(seed());
    QSignalSpy changed(&doc, &Document::changed);
    QUndoStack *stack = doc.undoStack();
    for (double at : {10.0, 20.0, 30.0})
        stack->push(new MoveItemsCommand(&doc, {{"hostA", {at, at}}, {"hostB", {at, -at}}}));
    QCOMPARE(changed.count(), 3);
    QCOMPARE(stack->count(), 1);
    QCOMPARE(doc.design().layout.at("hostA"), (design::Position{30, 30}));
    QCOMPARE(doc.design().layout.at("hostB"), (design::Position{30, -30}));
    stack->undo();
    QCOMPARE(changed.count(), 4);
    QVERIFY(!stack->canUndo());
    COMPARE_DESIGNS(doc.design(), seed());
    stack->redo();
    QCOMPARE(doc.design().layout.at("hostA"), (design::Position{30, 30}));
}

void TestCommands::movesOfOtherIdsDoNotMerge()
{
    Document doc;
    doc.setDesign(seed());
    QUndoStack *stack = doc.undoStack();
    stack->push(new MoveItemsCommand(&doc, {{"hostA", {1, 1}}}));
    stack->push(new MoveItemsCommand(&doc, {{"hostB", {2, 2}}}));
    stack->push(new MoveItemsCommand(&doc, {{"hostA", {3, 3}}, {"hostB", {3, 3}}}));
    QCOMPARE(stack->count(), 3);
    stack->undo();
    QCOMPARE(doc.design().layout.at("hostA"), (design::Position{1, 1}));
    QCOMPARE(doc.design().layout.at("hostB"), (design::Position{2, 2}));
    stack->undo();
    stack->undo();
    COMPARE_DESIGNS(doc.design(), seed());
}

void TestCommands::moveBackToTheStartLeavesNoStep()
{
    Document doc;
    doc.setDesign(seed());
    QUndoStack *stack = doc.undoStack();
    stack->push(new MoveItemsCommand(&doc, {{"hostA", {1, 1}}}));
    stack->push(new MoveItemsCommand(&doc, {{"hostA", seed().layout.at("hostA")}}));
    QCOMPARE(stack->count(), 0);
    COMPARE_DESIGNS(doc.design(), seed());
}

void TestCommands::compose()
{
    pushUndoRedo(
        [](Document *doc) { return new ComposeCommand(doc, "gpu4", "hostA"); },
        "Compose gpu4 to hostA",
        [](const Design &d) {
            QCOMPARE(d.systems[0].devices,
                     (Strings{"gpu0", "gpu1", "gpu2", "gpu3", "nvme0", "gpu4"}));
            QCOMPARE(d.systems[1].devices, (Strings{"gpu5", "gpu6", "gpu7", "gpu8", "gpu9"}));
            QCOMPARE(d.systems.size(), std::size_t(4));
        });
}

void TestCommands::composeCreatesSystem()
{
    Design start = seed();
    start.systems.pop_back(); // hostD has no system
    pushUndoRedo(
        [](Document *doc) { return new ComposeCommand(doc, "gpu10", "hostD"); },
        "Compose gpu10 to hostD",
        [](const Design &d) {
            QCOMPARE(d.systems.size(), std::size_t(4));
            QCOMPARE(d.systems[3], (design::System{"Host D (Xeon 6330)", "hostD", {"gpu10"}}));
        },
        start);
}

void TestCommands::release()
{
    pushUndoRedo([](Document *doc) { return new ComposeCommand(doc, "gpu0", ""); },
                 "Release gpu0 to the pool",
                 [](const Design &d) {
                     QCOMPARE(d.systems[0].devices, (Strings{"gpu1", "gpu2", "gpu3", "nvme0"}));
                     QCOMPARE(d.devices, seed().devices);
                 });
}

void TestCommands::addThenComposeAsOneStep()
{
    // What the canvas does when a GPU is dropped on a host: add it and compose it, one undo step.
    Design fragment;
    fragment.devices.push_back({"gpu12", "A100-PCIe-40GB", {}, {}, -1});
    fragment.links.push_back({"hostD/cpu0", "gpu12", "pcie4x16", 1});
    fragment.layout["gpu12"] = {740, 200};
    Document doc;
    doc.setDesign(seed());
    QUndoStack *stack = doc.undoStack();
    stack->beginMacro(QStringLiteral("Add GPU to hostD"));
    stack->push(new AddItemsCommand(&doc, fragment, QStringLiteral("Add GPU")));
    stack->push(new ComposeCommand(&doc, "gpu12", "hostD"));
    stack->endMacro();
    QCOMPARE(stack->count(), 1);
    const Design after = doc.design();
    QCOMPARE(after.systems[3].devices, (Strings{"gpu10", "nic0", "gpu12"}));
    design::Link added = fragment.links.front();
    added.id = "link5";
    QCOMPARE(after.links.back(), added);
    stack->undo();
    COMPARE_DESIGNS(doc.design(), seed());
    stack->redo();
    COMPARE_DESIGNS(doc.design(), after);
}

void TestCommands::addLink()
{
    const design::Link link{"hostA/cpu1", "nic1", "pcie4x16", 1};
    pushUndoRedo([&](Document *doc) { return new AddLinkCommand(doc, link); },
                 "Link hostA/cpu1 to nic1",
                 [&](const Design &d) {
                     QCOMPARE(d.links.size(), std::size_t(5));
                     design::Link added = link;
                     added.id = "link5"; // the first id no link has; redo brings the same
                     QCOMPARE(d.links[4], added);
                 });
}

void TestCommands::editLink()
{
    const design::Link link{"hostA/cpu1", "pool/up0", "pcie3x16", 2, seed().links[0].id};
    pushUndoRedo([&](Document *doc) { return new EditLinkCommand(doc, link); },
                 "Edit link hostA/cpu1 - pool/up0",
                 [&](const Design &d) {
                     QCOMPARE(d.links.size(), std::size_t(4));
                     QCOMPARE(d.links[0], link);
                     QCOMPARE(d.links[1], seed().links[1]);
                 });
}

// An edit made while the link stood at index 2 still finds it after the link before it went and
// came back: undo and redo name links by id, not by their place in the list.
void TestCommands::linksAreFoundByIdWhenOthersGo()
{
    Document doc;
    doc.setDesign(seed());
    QUndoStack *stack = doc.undoStack();
    design::Link edited = seed().links[2];
    QCOMPARE(edited.id, std::string("link3"));
    edited.kind = "pcie3x16";
    stack->push(new EditLinkCommand(&doc, edited));
    stack->push(new RemoveItemsCommand(&doc, {}, {"link1"}));
    QCOMPARE(doc.design().links.size(), std::size_t(3));
    QCOMPARE(doc.design().links[1], edited); // now at index 1
    stack->push(new AddLinkCommand(&doc, {"hostA/cpu1", "nic1", "pcie4x16", 1}));
    QCOMPARE(doc.design().links.back().id, std::string("link1")); // the first free id again
    stack->undo();
    stack->undo();
    stack->undo();
    COMPARE_DESIGNS(doc.design(), seed());
    stack->redo();
    stack->redo();
    QCOMPARE(*doc.design().link("link3"), edited);
    QVERIFY(!doc.design().link("link1"));
}

void TestCommands::rename()
{
    pushUndoRedo([](Document *doc) { return new RenameCommand(doc, "pool", "Big pool"); },
                 "Rename pool",
                 [](const Design &d) {
                     QCOMPARE(d.chassis[0].name, std::string("Big pool"));
                     QCOMPARE(d.chassis[0].model, std::string("h3-falcon-4016"));
                 });
    pushUndoRedo([](Document *doc) { return new RenameCommand(doc, "gpu7", "GPU seven"); },
                 "Rename gpu7",
                 [](const Design &d) { QCOMPARE(d.devices[7].name, std::string("GPU seven")); });
}

void TestCommands::setModel()
{
    pushUndoRedo([](Document *doc) { return new SetModelCommand(doc, "hostC", "epyc-7742-2s"); },
                 "Change the model of hostC",
                 [](const Design &d) {
                     QCOMPARE(d.hosts[2].model, std::string("epyc-7742-2s"));
                     QCOMPARE(d.hosts[2].name, std::string("Host C (Xeon 6248, Gen3)"));
                 });
}

void TestCommands::setSlot()
{
    pushUndoRedo([](Document *doc) { return new SetSlotCommand(doc, "nic1", "", 5); },
                 "Take nic1 out of its chassis",
                 [](const Design &d) {
                     QCOMPARE(d.devices[15].chassis, std::string());
                     QCOMPARE(d.devices[15].slot, -1);
                 });
    Design loose = seed();
    loose.devices[15].chassis.clear();
    loose.devices[15].slot = -1;
    pushUndoRedo([](Document *doc) { return new SetSlotCommand(doc, "nic1", "pool", 15); },
                 "Put nic1 in pool slot 15",
                 [](const Design &d) { QCOMPARE(d.devices[15], seed().devices[15]); }, loose);
}

void TestCommands::groupSystem()
{
    const design::System system{"E: pooled NIC", "hostD", {"gpu10", "nic1"}};
    pushUndoRedo([&](Document *doc) { return new GroupSystemCommand(doc, system); },
                 "Group system E: pooled NIC",
                 [&](const Design &d) {
                     QCOMPARE(d.systems.size(), std::size_t(5));
                     QCOMPARE(d.systems[4], system);
                     QCOMPARE(d.systems[3].devices, Strings{"nic0"}); // gpu10 left system D
                 });
}

void TestCommands::renameSystem()
{
    pushUndoRedo(
        [](Document *doc) { return new RenameSystemCommand(doc, "C: Gen3 host", "C: old"); },
        "Rename system C: Gen3 host",
        [](const Design &d) {
            QCOMPARE(d.systems[2].name, std::string("C: old"));
            QCOMPARE(d.systems[2].devices, seed().systems[2].devices);
        });
}

void TestCommands::removeSystem()
{
    pushUndoRedo(
        [](Document *doc) { return new RemoveSystemCommand(doc, "B: 6 GPUs over two switches"); },
        "Remove system B: 6 GPUs over two switches",
        [](const Design &d) {
            QCOMPARE(d.systems.size(), std::size_t(3));
            QCOMPARE(d.systems[1].name, std::string("C: Gen3 host"));
            QCOMPARE(d.devices, seed().devices); // the GPUs return to the pool
        });
}

void TestCommands::setDesignInfo()
{
    pushUndoRedo([](Document *doc) { return new SetDesignInfoCommand(doc, "Lab", "Two racks"); },
                 "Edit the design's name and description",
                 [](const Design &d) {
                     QCOMPARE(d.name, std::string("Lab"));
                     QCOMPARE(d.description, std::string("Two racks"));
                 });
}

void TestCommands::unknownTargetsDoNothing()
{
    const std::vector<std::pair<const char *, Make>> cases = {
        {"add nothing",
         [](Document *doc) { return new AddItemsCommand(doc, {}, QStringLiteral("Add")); }},
        {"remove unknown", [](Document *doc) { return new RemoveItemsCommand(doc, {"nosuch"}); }},
        {"remove unknown link",
         [](Document *doc) { return new RemoveItemsCommand(doc, {}, {"nosuch"}); }},
        {"move unknown",
         [](Document *doc) {
             return new MoveItemsCommand(doc, {{"nosuch", {1, 1}}});
         }},
        {"move nowhere",
         [](Document *doc) {
             return new MoveItemsCommand(doc, {{"hostA", seed().layout.at("hostA")}});
         }},
        {"compose unknown device",
         [](Document *doc) { return new ComposeCommand(doc, "nosuch", "hostA"); }},
        {"compose to unknown host",
         [](Document *doc) { return new ComposeCommand(doc, "gpu0", "nosuch"); }},
        {"compose where it is",
         [](Document *doc) { return new ComposeCommand(doc, "gpu0", "hostA"); }},
        {"release a pooled device",
         [](Document *doc) { return new ComposeCommand(doc, "nic1", ""); }},
        {"link to unknown",
         [](Document *doc) {
             return new AddLinkCommand(doc, {"hostA/cpu1", "nosuch", "pcie4x16", 1});
         }},
        {"link count 0",
         [](Document *doc) {
             return new AddLinkCommand(doc, {"hostA/cpu1", "nic1", "pcie4x16", 0});
         }},
        {"edit unknown link",
         [](Document *doc) {
             design::Link l = seed().links[0];
             l.id = "nosuch";
             l.count = 2;
             return new EditLinkCommand(doc, l);
         }},
        {"edit link without id",
         [](Document *doc) {
             design::Link l = seed().links[0];
             l.id.clear();
             l.count = 2;
             return new EditLinkCommand(doc, l);
         }},
        {"edit link unchanged",
         [](Document *doc) { return new EditLinkCommand(doc, seed().links[0]); }},
        {"rename unknown", [](Document *doc) { return new RenameCommand(doc, "nosuch", "x"); }},
        {"rename unchanged",
         [](Document *doc) { return new RenameCommand(doc, "pool", "Composable pool"); }},
        {"model of unknown", [](Document *doc) { return new SetModelCommand(doc, "nosuch", "x"); }},
        {"slot of unknown",
         [](Document *doc) { return new SetSlotCommand(doc, "nosuch", "pool", 1); }},
        {"slot in unknown chassis",
         [](Document *doc) { return new SetSlotCommand(doc, "gpu0", "nosuch", 1); }},
        {"negative slot",
         [](Document *doc) { return new SetSlotCommand(doc, "gpu0", "pool", -3); }},
        {"same slot", [](Document *doc) { return new SetSlotCommand(doc, "gpu0", "pool", 0); }},
        {"group with unknown host",
         [](Document *doc) {
             return new GroupSystemCommand(doc, {"X", "nosuch", {"gpu0"}});
         }},
        {"rename unknown system",
         [](Document *doc) { return new RenameSystemCommand(doc, "nosuch", "x"); }},
        {"rename system onto another",
         [](Document *doc) {
             return new RenameSystemCommand(doc, "C: Gen3 host", "A: 4 GPUs on one uplink");
         }},
        {"rename system to nothing",
         [](Document *doc) { return new RenameSystemCommand(doc, "C: Gen3 host", ""); }},
        {"remove unknown system",
         [](Document *doc) { return new RemoveSystemCommand(doc, "nosuch"); }},
        {"design info unchanged",
         [](Document *doc) {
             return new SetDesignInfoCommand(doc, seed().name, seed().description);
         }},
    };
    for (const auto &[name, make] : cases) {
        pushIsNoOp(make);
        if (QTest::currentTestFailed())
            QFAIL(name);
    }
}

QTEST_GUILESS_MAIN(TestCommands)
#include "tst_commands.moc"
