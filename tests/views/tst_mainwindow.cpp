#include "mainwindow.h"
#include "design/edit.h"
#include "commands/moveitemscommand.h"
#include "commands/renamecommand.h"
#include "commands/setdesigninfocommand.h"
#include "store/import.h"
#include "store/store.h"
#include "views/canvas/canvasitems.h"
#include "views/canvas/canvasscene.h"
#include "views/cluster/clusterview.h"
#include "util/fileio.h"
#include "views/experiments/experimentsview.h"
#include "views/experiments/runtablemodel.h"
#include "views/findings/findingspanel.h"
#include "views/schedule/scheduleview.h"
#include "views/systems/systemsview.h"

#include <QAction>
#include <QDockWidget>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTableView>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QSettings>
#include <QtTest>

using namespace clab;

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void opensSeedTestbed();
    void moveReanalysesNothing();
    void moveWithoutLayoutPlacesAsRedraw();
    void renameRedrawsOnlyItsItem();
    void badFileKeepsDocument();
    void saveAndReopen();
    void showsDesignCluster();
    void schedulingDockBesideCluster();
    void newFromMachine();
    void storedMeasurementsBesideTheModel();
    void deletedRunsUndoApartFromTheDesign();

private:
    QTemporaryDir m_settings;
};

void TestMainWindow::initTestCase()
{
    // Keep the user's real settings and data out of the tests.
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
}

void TestMainWindow::opensSeedTestbed()
{
    MainWindow w;
    QSignalSpy updated(&w, &MainWindow::analysisUpdated);
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    QCOMPARE(updated.count(), 1);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    views::SystemsView *view = w.systemsView();
    QCOMPARE(view->systemCount(), 4);
    QVERIFY(w.windowTitle().contains(QLatin1String("seed-testbed.clab")));
    view->selectSystem(0);
    QTableWidget *h2d = view->hostToDeviceTable();
    QCOMPARE(h2d->rowCount(), 4);
    QCOMPARE(h2d->item(0, 0)->text(), QStringLiteral("gpu0"));
    QCOMPARE(h2d->item(0, 1)->text(), QStringLiteral("25.8"));
    QCOMPARE(h2d->item(0, 2)->text(), QStringLiteral("6.5"));
    QCOMPARE(view->peerTable()->model()->rowCount(), 4);
    QCOMPARE(w.findingsPanel()->list()->item(0)->text(),
             QStringLiteral("No design-rule findings."));
    // The canvas shows every host, chassis and device of the testbed.
    const design::Design &d = w.document()->design();
    QCOMPARE(w.canvasScene()->nodeCount(),
             d.hosts.size() + d.chassis.size() + d.switches.size() + d.devices.size());
}

// A move on the canvas changes nothing the rules, the fabric or the model read: the canvas follows
// (also on undo), and the analysis does not run again. Any other edit runs it.
void TestMainWindow::moveReanalysesNothing()
{
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    QSignalSpy updated(&w, &MainWindow::analysisUpdated);
    QUndoStack *stack = w.document()->undoStack();
    const QPointF before = w.canvasScene()->node("hostA")->pos();
    stack->push(new commands::MoveItemsCommand(w.document(), {{"hostA", {before.x() + 300, 40}}}));
    QCOMPARE(w.canvasScene()->node("hostA")->pos(), QPointF(before.x() + 300, 40));
    stack->undo();
    QCOMPARE(w.canvasScene()->node("hostA")->pos(), before);
    QCOMPARE(updated.count(), 0);
    w.document()->apply([](design::Design &d) { d.systems.front().name += " renamed"; },
                        Change::of(Change::Systems));
    QCOMPARE(updated.count(), 1);
    QVERIFY(w.analysis().systems.front().name.ends_with(" renamed"));
}

// In a design whose items are placed around the others (no saved layout), a move places them
// where a full redraw would: nothing jumps at the next edit.
void TestMainWindow::moveWithoutLayoutPlacesAsRedraw()
{
    MainWindow w;
    QVERIFY(w.openExample(QStringLiteral("two-nodes-infiniband.clab")));
    QVERIFY(w.document()->design().layout.empty());
    views::CanvasScene *scene = w.canvasScene();
    const std::string host = w.document()->design().hosts.front().id;
    w.document()->undoStack()->push(
        new commands::MoveItemsCommand(w.document(), {{host, {900, 700}}}));
    std::map<std::string, QPointF> afterMove;
    for (const design::Host &h : w.document()->design().hosts)
        afterMove[h.id] = scene->node(h.id)->pos();
    for (const design::Switch &s : w.document()->design().switches)
        afterMove[s.id] = scene->node(s.id)->pos();
    QCOMPARE(afterMove[host], QPointF(900, 700));
    scene->setDesign(w.document()->design(), w.analysis().findings);
    for (const auto &[id, pos] : afterMove)
        QCOMPARE(scene->node(id)->pos(), pos);
}

// A rename changes the title of the renamed item alone, and the canvas then shows what a full
// redraw would; the design's name and description run no analysis at all.
void TestMainWindow::renameRedrawsOnlyItsItem()
{
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    QSignalSpy updated(&w, &MainWindow::analysisUpdated);
    views::CanvasScene *scene = w.canvasScene();
    const views::NodeItem *gpu = scene->node("gpu7");
    const views::NodeItem *host = scene->node("hostA");
    const QString hostTitle = host->look().title;
    QUndoStack *stack = w.document()->undoStack();
    auto sameAsFullRedraw = [&] {
        const design::Design &d = w.document()->design();
        views::CanvasScene full;
        full.setDesign(d, w.analysis().findings);
        for (const std::string &id : design::itemIds(d))
            if (!(scene->node(id)->look() == full.node(id)->look()))
                return false;
        return scene->design() == d;
    };
    stack->push(new commands::RenameCommand(w.document(), "gpu7", "GPU seven"));
    QCOMPARE(updated.count(), 1);
    QCOMPARE(scene->node("gpu7"), gpu); // the same item, only its title changed
    QCOMPARE(gpu->look().title, QStringLiteral("GPU seven"));
    QCOMPARE(host->look().title, hostTitle);
    QVERIFY(sameAsFullRedraw());
    stack->undo();
    QCOMPARE(gpu->look().title, QStringLiteral("gpu7"));
    QVERIFY(sameAsFullRedraw());
    stack->push(new commands::RenameCommand(w.document(), "hostA", ""));
    QCOMPARE(host->look().title, QStringLiteral("hostA")); // no name: the id is shown
    QVERIFY(sameAsFullRedraw());
    QCOMPARE(updated.count(), 3);
    stack->push(new commands::SetDesignInfoCommand(w.document(), "Lab", "Two racks"));
    QCOMPARE(updated.count(), 3);
    QCOMPARE(w.document()->design().name, std::string("Lab"));
    QVERIFY(sameAsFullRedraw()); // the scene's copy has the name too
    stack->undo();
    QVERIFY(sameAsFullRedraw());
}

void TestMainWindow::badFileKeepsDocument()
{
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    const design::Design before = w.document()->design();
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("broken.clab"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"formatVersion\": 1, \"appVersion\": \"0.1\", \"hosts\": [");
    f.close();
    QSignalSpy errors(&w, &MainWindow::errorShown);
    QVERIFY(!w.openFile(bad));
    QCOMPARE(errors.count(), 1);
    QVERIFY(errors.at(0).at(0).toString().contains(bad));
    QVERIFY(w.document()->design() == before);
    QCOMPARE(w.systemsView()->systemCount(), 4);
}

void TestMainWindow::saveAndReopen()
{
    MainWindow w;
    QVERIFY(w.openExample(QStringLiteral("dgx-a100-nvswitch.clab")));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("copy.clab"));
    w.document()->save(path);
    MainWindow other;
    QVERIFY(other.openFile(path));
    QVERIFY(other.document()->design() == w.document()->design());
    QCOMPARE(other.systemsView()->systemCount(), 1);
    QCOMPARE(other.systemsView()->peerTable()->model()->rowCount(), 8);
}

void TestMainWindow::showsDesignCluster()
{
    // A design with a cluster fills the Cluster view with its topology (64 DGX nodes of 8 GPUs
    // in the bundled example: 512 endpoints).
    MainWindow w;
    QSignalSpy updated(w.clusterView(), &views::ClusterView::updated);
    QVERIFY(w.openExample(QStringLiteral("cluster-dgx-a100-fattree.clab")));
    QVERIFY(w.document()->design().cluster.has_value());
    // Wait for every computation started (the view's default, then the design's) to come back:
    // one `updated` alone may be the default's, with the design's still running.
    const int endpoints = w.document()->design().cluster->nodes * 8;
    QTRY_VERIFY_WITH_TIMEOUT(updated.count() > 0 && !w.clusterView()->busy()
                                 && w.clusterView()->spec().endpoints == endpoints,
                             60000);
    QVERIFY(w.clusterView()->report());
    QCOMPARE(w.clusterView()->report()->structure.accelerators, (long long)endpoints);
    // An edit elsewhere does not rebuild the network.
    const int before = updated.count();
    design::Design d = w.document()->design();
    d.name += " (edited)";
    w.document()->setDesign(d);
    QVERIFY(!w.clusterView()->busy()); // no recomputation started
    QCOMPARE(updated.count(), before);
}

void TestMainWindow::schedulingDockBesideCluster()
{
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    auto *cluster = w.findChild<QDockWidget *>(QStringLiteral("clusterDock"));
    auto *scheduling = w.findChild<QDockWidget *>(QStringLiteral("schedulingDock"));
    QVERIFY(cluster && scheduling);
    QCOMPARE(scheduling->widget(), w.scheduleView());
    QVERIFY(w.tabifiedDockWidgets(cluster).contains(scheduling));
    // View > Scheduling shows and hides it, as it does the other docks.
    QMenu *view = nullptr;
    for (QAction *a : w.menuBar()->actions()) {
        if (a->text() == QLatin1String("&View"))
            view = a->menu();
    }
    QVERIFY(view);
    QVERIFY(view->actions().contains(scheduling->toggleViewAction()));

    // The open design reaches it: the seed testbed's 12 GPUs run the trace.
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("trace.csv"));
    writeFileAtomically(trace.toStdString(), "submit_s,gpus,duration_s\n0,8,100\n1,2,100\n");
    QSignalSpy updated(w.scheduleView(), &views::ScheduleView::updated);
    w.scheduleView()->setTrace(trace);
    w.scheduleView()->run();
    QTRY_VERIFY_WITH_TIMEOUT(updated.count() > 0 && !w.scheduleView()->busy(), 60000);
    QVERIFY2(w.scheduleView()->message().contains(
                 QLatin1String("2 job(s) of trace.csv on Seed composable testbed: 12 GPUs")),
             qPrintable(w.scheduleView()->message()));

    // Hidden, it stays hidden in a window that restores the state (found by its object name).
    scheduling->hide();
    const QByteArray state = w.saveState();
    MainWindow again;
    auto *restored = again.findChild<QDockWidget *>(QStringLiteral("schedulingDock"));
    QVERIFY(restored && !restored->isHidden());
    QVERIFY(again.restoreState(state));
    QVERIFY(restored->isHidden());
}

void TestMainWindow::newFromMachine()
{
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    QTemporaryDir dir;
    auto write = [&](const char *name, const char *text) {
        QFile f(dir.filePath(QString::fromLatin1(name)));
        if (!f.open(QIODevice::WriteOnly))
            return QString();
        f.write(text);
        return f.fileName();
    };
    const QString topo = write("topo.txt", "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                                           "GPU0\t X \tNV12\t0-31\t0\n"
                                           "GPU1\tNV12\t X \t0-31\t0\n");
    const QString names = write("gpus.txt", "GPU 0: NVIDIA H100 PCIe (UUID: GPU-1)\n"
                                            "GPU 1: NVIDIA H100 PCIe (UUID: GPU-2)\n");
    const QString junk = write("junk.txt", "nothing a machine printed\n");
    // A file that is no machine output: the error names it and the testbed stays.
    QSignalSpy errors(&w, &MainWindow::errorShown);
    QVERIFY(!w.newFromMachine({topo, junk}));
    QCOMPARE(errors.count(), 1);
    QVERIFY(errors.at(0).at(0).toString().contains(junk));
    QCOMPARE(w.systemsView()->systemCount(), 4);
    // A GPU model that is not in the catalog: the file and what to choose, not "topo.txt: gpu:"
    // (the model's place for a choice reads like a spot in the file).
    QVERIFY(!w.newFromMachine({topo}, QStringLiteral("NoSuchGPU")));
    QCOMPARE(errors.count(), 2);
    const QString unknown = errors.at(1).at(0).toString();
    QVERIFY2(unknown.startsWith(topo + QStringLiteral(": ")), qPrintable(unknown));
    QVERIFY2(!unknown.contains(QStringLiteral(": gpu:")), qPrintable(unknown));
    QVERIFY2(unknown.contains(QStringLiteral("NoSuchGPU")), qPrintable(unknown));
    // The matrix and `nvidia-smi -L`: a new, unsaved design of two bridged H100 PCIe.
    QVERIFY(w.newFromMachine({topo, names}));
    const design::Design &d = w.document()->design();
    QCOMPARE(d.devices.size(), std::size_t(2));
    QCOMPARE(d.devices.front().model, std::string("H100-PCIe-80GB"));
    QVERIFY(w.document()->isModified());
    QCOMPARE(w.systemsView()->systemCount(), 1);
    QCOMPARE(w.canvasScene()->nodeCount(), std::size_t(3));
    // Undo has nothing to take back into the old design.
    QVERIFY(!w.document()->undoStack()->canUndo());
}

// Tool outputs imported as the design system's (import --system) show beside the model, once the
// window reads the store: at start, after an import, on a change of store.
void TestMainWindow::storedMeasurementsBesideTheModel()
{
    MainWindow w;
    QTemporaryDir dir;
    QFile topo(dir.filePath(QStringLiteral("topo.txt")));
    QVERIFY(topo.open(QIODevice::WriteOnly));
    topo.write("\tGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity\n"
               "GPU0\t X \tPIX\tPIX\t0-31\t0\n"
               "GPU1\tPIX\t X \tPIX\t0-31\t0\n"
               "GPU2\tPIX\tPIX\t X \t0-31\t0\n");
    topo.close();
    QVERIFY(w.newFromMachine({topo.fileName()}, QStringLiteral("A100-PCIe-80GB")));
    const std::string system = w.document()->design().systems.at(0).name;
    const auto measured = [&] {
        int n = 0;
        for (const auto &p : w.analysis().systems.at(0).p2p)
            n += p.measuredGBps.has_value();
        return n;
    };
    QCOMPARE(measured(), 0);
    // The p2p matrix of three GPUs, stored as this system's under another case.
    const std::string db = dir.filePath(QStringLiteral("store.sqlite")).toStdString();
    {
        store::Store s(db);
        store::ImportControl control;
        control.system = QString::fromStdString(system).toUpper().toStdString();
        const std::string p2p = std::string(CLAB_TEST_DATA) + "/import/p2p_bandwidth_latency.txt";
        const store::ImportReport report = store::importPaths(s, {p2p}, control);
        QCOMPARE(report.failed.size(), std::size_t(0));
    }
    w.setStorePath(QString::fromStdString(db));
    QCOMPARE(measured(), 6);
    const auto &first = w.analysis().systems.at(0).p2p.front();
    QVERIFY(first.measuredBy.find("p2pBandwidthLatencyTest") != std::string::npos);
}

void TestMainWindow::deletedRunsUndoApartFromTheDesign()
{
    // Deleting runs goes onto the store's own undo stack: the design stays unmodified, Undo
    // with the focus in the Experiments dock brings the runs back, and opening another design
    // keeps that undo.
    QTemporaryDir dir;
    const std::string db = dir.filePath(QStringLiteral("store.sqlite")).toStdString();
    {
        store::Store s(db);
        const store::ImportReport report
            = store::importPaths(s, {std::string(CLAB_TEST_DATA) + "/import/generic_runs.csv"});
        QCOMPARE(report.failed.size(), std::size_t(0));
    }
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    w.setStorePath(QString::fromStdString(db));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    views::ExperimentsView *runs = w.experimentsView();
    const int before = runs->model()->rowCount();
    QVERIFY(before > 1);
    runs->table()->selectRow(0);
    runs->deleteSelected();
    QCOMPARE(runs->model()->rowCount(), before - 1);
    QVERIFY(!w.document()->isModified());
    QVERIFY(!w.document()->undoStack()->canUndo());
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    QVERIFY(runs->undoStack()->canUndo());
    // Edit > Undo, with the focus in the runs table.
    runs->table()->setFocus();
    QApplication::processEvents();
    QAction *undo = nullptr;
    for (QAction *a : w.findChildren<QAction *>())
        if (a->shortcut() == QKeySequence(QKeySequence::Undo))
            undo = a;
    QVERIFY(undo && undo->isEnabled());
    undo->trigger();
    QCOMPARE(runs->model()->rowCount(), before);
    QVERIFY(!w.document()->isModified());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
