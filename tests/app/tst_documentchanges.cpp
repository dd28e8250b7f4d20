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

#include <QSignalSpy>
#include <QtTest>

#include "commandtest.h"

using namespace clab;
using namespace clab::commands;
using namespace clab::testing;

using Make = std::function<QUndoCommand *(Document *)>;

// What the document says about an edit: the kinds and ids each command announces, the limits
// every command is checked against, and the undo stack a refused command leaves alone.
class TestDocumentChanges : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void changesSayWhatChanged();
    void editsBeyondFileLimitsAreRefused();
    void refusalsKeepTheRedoHistory();
    void wholeDesignsChangeEverything();
};

// Each command announces the kinds of what it changed and the ids it touched, the same on push
// and on undo, so that views redo only that (a move no analysis, a rename no redraw of others).
void TestDocumentChanges::changesSayWhatChanged()
{
    using K = Change::Kind;
    const std::string newLink = design::uniqueLinkId(seed());
    Design fragment;
    fragment.switches.push_back({"sw1", "broadcom-pex88096", "Switch"});
    fragment.links.push_back({"hostA/cpu1", "sw1", "pcie4x16", 1, {}});
    fragment.layout["sw1"] = {10, 20};
    design::Link wider = seed().links[0];
    wider.count = 2;
    const design::System group{"E: pooled NIC", "hostD", {"gpu10", "nic1"}};
    struct Case
    {
        const char *name;
        Make make;
        Change expected;
    };
    const std::vector<Case> cases = {
        {"add items",
         [&](Document *doc) { return new AddItemsCommand(doc, fragment, QStringLiteral("Add")); },
         Change::of(K::Composition | K::Links | K::Layout, {"sw1", newLink})},
        {"remove items",
         [](Document *doc) { return new RemoveItemsCommand(doc, {"gpu0"}, {"link2"}); },
         Change::of(K::Composition | K::Links | K::Systems | K::Layout, {"gpu0", "link2"})},
        {"move",
         [](Document *doc) {
             return new MoveItemsCommand(doc, {{"hostA", {5, 5}}});
         },
         Change::of(K::Layout, {"hostA"})},
        {"compose", [](Document *doc) { return new ComposeCommand(doc, "gpu11", "hostA"); },
         Change::of(K::Composition | K::Systems, {"gpu11", "hostA"})},
        {"add link",
         [](Document *doc) {
             return new AddLinkCommand(doc, {"hostA/cpu1", "nic1", "pcie4x16", 1, {}});
         },
         Change::of(K::Links, {newLink})},
        {"edit link", [&](Document *doc) { return new EditLinkCommand(doc, wider); },
         Change::of(K::Links, {wider.id})},
        {"rename", [](Document *doc) { return new RenameCommand(doc, "gpu7", "GPU seven"); },
         Change::of(K::Names, {"gpu7"})},
        {"set model",
         [](Document *doc) { return new SetModelCommand(doc, "hostC", "epyc-7742-2s"); },
         Change::of(K::Models, {"hostC"})},
        {"set slot", [](Document *doc) { return new SetSlotCommand(doc, "nic1", "", -1); },
         Change::of(K::Composition, {"nic1"})},
        {"group", [&](Document *doc) { return new GroupSystemCommand(doc, group); },
         Change::of(K::Systems | K::Composition, {group.name, "hostD", "gpu10", "nic1"})},
        {"rename system",
         [](Document *doc) { return new RenameSystemCommand(doc, "C: Gen3 host", "C: old"); },
         Change::of(K::Systems, {"C: Gen3 host", "C: old"})},
        {"remove system",
         [](Document *doc) { return new RemoveSystemCommand(doc, "C: Gen3 host"); },
         Change::of(K::Systems | K::Composition, {"C: Gen3 host"})},
        {"design info",
         [](Document *doc) { return new SetDesignInfoCommand(doc, "Lab", "Two racks"); },
         Change::of(K::DesignInfo)},
    };
    for (const Case &c : cases) {
        Document doc;
        doc.setDesign(seed());
        std::vector<Change> seen;
        connect(&doc, &Document::changed, this, [&seen](const Change &ch) { seen.push_back(ch); });
        doc.undoStack()->push(c.make(&doc));
        doc.undoStack()->undo();
        QVERIFY2(seen.size() == 2, c.name);
        for (const Change &ch : seen) {
            QVERIFY2(ch.kinds == c.expected.kinds, c.name);
            QVERIFY2(ch.ids == c.expected.ids, c.name);
        }
    }
}

// Every command checks its own edit against the file limits, whoever pushes it: one that would
// leave a design no reader opens again is taken back, says why, announces nothing and leaves no
// step; the same command within the limits goes through.
void TestDocumentChanges::editsBeyondFileLimitsAreRefused()
{
    Document doc;
    doc.setDesign(seed());
    QSignalSpy changed(&doc, &Document::changed);
    QSignalSpy refused(&doc, &Document::refused);
    doc.undoStack()->push(new MoveItemsCommand(&doc, {{"hostA", {2e9, 0}}}));
    QCOMPARE(refused.count(), 1);
    QVERIFY2(refused[0][0].toString().contains(QStringLiteral("hostA would be placed outside")),
             qPrintable(refused[0][0].toString()));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(doc.undoStack()->count(), 0);
    COMPARE_DESIGNS(doc.design(), seed());

    Design far;
    far.hosts.push_back({"hostE", "power9-ac922", {}});
    far.layout["hostE"] = {0, -3e9};
    doc.undoStack()->push(new AddItemsCommand(&doc, far, QStringLiteral("Add")));
    QCOMPARE(refused.count(), 2);
    QCOMPARE(doc.undoStack()->count(), 0);
    COMPARE_DESIGNS(doc.design(), seed());

    doc.undoStack()->push(new MoveItemsCommand(&doc, {{"hostA", {1e9, 0}}})); // the very edge
    QCOMPARE(refused.count(), 2);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.design().layout.at("hostA").x, 1e9);
    // A drag that goes on past the edge: the refused move does not merge into the drag's step,
    // so undo and redo still go between the start and the last accepted position.
    doc.undoStack()->push(new MoveItemsCommand(&doc, {{"hostA", {2e9, 0}}}));
    QCOMPARE(refused.count(), 3);
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    COMPARE_DESIGNS(doc.design(), seed());
    doc.undoStack()->redo();
    QCOMPARE(doc.design().layout.at("hostA").x, 1e9);
    QCOMPARE(refused.count(), 3);
}

// A command that comes to nothing (refused, or a no-op) leaves the stack as it was: QUndoStack
// would drop the redo history, and with it the saved state, before seeing that.
void TestDocumentChanges::refusalsKeepTheRedoHistory()
{
    Document doc;
    doc.setDesign(seed());
    QVERIFY(doc.push(new RenameCommand(&doc, "gpu7", "GPU seven")));
    doc.undoStack()->setClean(); // saved with the new name
    doc.undoStack()->undo();
    QVERIFY(doc.undoStack()->canRedo());
    QSignalSpy changed(&doc, &Document::changed);
    QSignalSpy refused(&doc, &Document::refused);
    QVERIFY(!doc.push(new MoveItemsCommand(&doc, {{"hostA", {2e9, 0}}})));
    QCOMPARE(refused.count(), 1);
    QVERIFY(!doc.push(new RenameCommand(&doc, "pool", "Composable pool"))); // unchanged
    QCOMPARE(changed.count(), 0); // the trials announce nothing
    COMPARE_DESIGNS(doc.design(), seed());
    QVERIFY(doc.undoStack()->canRedo());
    doc.undoStack()->redo();
    QVERIFY(doc.undoStack()->isClean());
    QCOMPARE(doc.design().device("gpu7")->name, std::string("GPU seven"));
    // A command that stands goes on the stack once, edited once as seen from outside.
    doc.undoStack()->undo();
    changed.clear();
    QVERIFY(doc.push(new RenameCommand(&doc, "gpu7", "Seventh")));
    QCOMPARE(changed.count(), 1);
    QVERIFY(!doc.undoStack()->canRedo());
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    COMPARE_DESIGNS(doc.design(), seed());
}

// A design replaced as a whole (open, recover, a text edit) says everything changed, with no ids.
void TestDocumentChanges::wholeDesignsChangeEverything()
{
    Document doc;
    std::vector<Change> seen;
    connect(&doc, &Document::changed, this, [&seen](const Change &ch) { seen.push_back(ch); });
    doc.setDesign(seed());
    doc.loadText(design::writeDesign(seed()), QStringLiteral("seed"));
    QCOMPARE(seen.size(), std::size_t(2));
    for (const Change &ch : seen) {
        QCOMPARE(ch.kinds, unsigned(Change::Everything));
        QVERIFY(ch.ids.empty());
        QVERIFY(!ch.only(Change::Layout));
        QVERIFY(ch.has(Change::Names));
    }
}

QTEST_GUILESS_MAIN(TestDocumentChanges)
#include "tst_documentchanges.moc"
