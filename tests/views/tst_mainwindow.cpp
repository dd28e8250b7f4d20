#include "mainwindow.h"
#include "views/canvas/canvasscene.h"
#include "views/cluster/clusterview.h"
#include "views/findings/findingspanel.h"
#include "views/systems/systemsview.h"

#include <QListWidget>
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
    void badFileKeepsDocument();
    void saveAndReopen();
    void showsDesignCluster();
    void newFromMachine();

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

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
