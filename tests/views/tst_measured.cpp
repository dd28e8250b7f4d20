// Measured beside modelled: a design with measurements of its real machine shows them in the
// host-to-device table and the peer-to-peer heatmap, with the ratio, and flags pairs more than
// 15 % apart. Set CLAB_SCREENSHOT_DIR to keep a picture of each tab.
#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "fabric/report.h"
#include "util/inputerror.h"
#include "views/systems/systemsview.h"

#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

using namespace clab;

namespace {

// Two GPUs on one socket's root ports of a PCIe Gen4 host, as `composelab machine` builds it, and
// three measurements: one the model matches, one it misses by far, one for a device not there.
design::Design measuredMachine(double modelledPeerGBps)
{
    design::Design d = design::readDesign(R"({"formatVersion": 1, "appVersion": "t",
        "hosts": [{"id": "host", "model": "epyc-7742-2s"}],
        "devices": [{"id": "gpu0", "model": "L40S"}, {"id": "gpu1", "model": "L40S"}],
        "links": [{"from": "host/cpu0", "to": "gpu0", "kind": "pcie4x16"},
                  {"from": "host/cpu0", "to": "gpu1", "kind": "pcie4x16"}],
        "systems": [{"name": "box", "host": "host", "devices": ["gpu0", "gpu1"]}]})",
                                          "measured.clab");
    const fabric::Analysis a = fabric::analyze(d, catalog::Catalog::builtin());
    const double h2d = a.systems.at(0).h2d.at(0).aloneGBps;
    d.measurements = {
        {"h2d", "", "gpu0", "", h2d * 1.05, "bandwidthTest", "Host to Device PINNED", "bw.txt"},
        {"p2p", "gpu0", "gpu1", "", modelledPeerGBps * 1.5, "p2pBandwidthLatencyTest",
         "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)", "p2p.txt"},
        {"h2d", "", "gpu7", "", 10, "bandwidthTest", "", "bw.txt"},
        {"collective", "", "", "", 20, "nccl-tests", "all_reduce_perf out-of-place", "nccl.txt"}};
    return d;
}

void keepPicture(QWidget *w, const char *name)
{
    const QByteArray dir = qgetenv("CLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        w->grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name));
}

} // namespace

class TestMeasured : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void designKeepsItsMeasurements()
    {
        const design::Design d = measuredMachine(20);
        const design::Design again = design::readDesign(design::writeDesign(d), "again.clab");
        QCOMPARE(again.measurements.size(), std::size_t(4));
        QVERIFY(again.measurements == d.measurements);
        QVERIFY_THROWS_EXCEPTION(
            InputError,
            design::readDesign(R"({"formatVersion": 1, "appVersion": "t", "measurements":
                [{"kind": "sideways", "GBps": 3}]})",
                               "bad.clab"));
    }

    void analysisSetsMeasuredBesideModelled()
    {
        const design::Design plain = measuredMachine(20);
        const fabric::Analysis first = fabric::analyze(plain, catalog::Catalog::builtin());
        const double peer = first.systems[0].p2p[0].GBps;
        const design::Design d = measuredMachine(peer);
        const fabric::Analysis a = fabric::analyze(d, catalog::Catalog::builtin());
        const auto &s = a.systems.at(0);
        QVERIFY(s.h2d[0].measuredGBps && !s.h2d[1].measuredGBps);
        QVERIFY(!fabric::offByMoreThanTolerance(s.h2d[0].aloneGBps, *s.h2d[0].measuredGBps));
        QVERIFY(s.p2p[0].measuredGBps && !s.p2p[1].measuredGBps); // gpu0 -> gpu1 only
        QVERIFY(fabric::offByMoreThanTolerance(s.p2p[0].GBps, *s.p2p[0].measuredGBps));
        QCOMPARE(s.measuredBusGBps.value_or(0), 20.0);
        const auto json = fabric::analysisToJson(a);
        const auto &h = json["systems"][0]["h2d"][0];
        QCOMPARE(h["measured_GBps"].get<double>(), std::round(*s.h2d[0].measuredGBps * 100) / 100);
        QCOMPARE(h["off_by_more_than_15_percent"].get<bool>(), false);
        QCOMPARE(json["systems"][0]["p2p"][0]["off_by_more_than_15_percent"].get<bool>(), true);
        QVERIFY(!json["systems"][0]["p2p"][1].contains("measured_GBps"));
        QVERIFY(json["systems"][0].contains("ring_measured"));
    }

    void resultsPanelShowsThemWithTheRatio()
    {
        const design::Design plain = measuredMachine(20);
        const double peer
            = fabric::analyze(plain, catalog::Catalog::builtin()).systems[0].p2p[0].GBps;
        const fabric::Analysis a
            = fabric::analyze(measuredMachine(peer), catalog::Catalog::builtin());
        views::SystemsView view;
        view.resize(1000, 500);
        view.setAnalysis(a);
        view.selectSystem(0);
        view.show();
        QTableWidget *h2d = view.hostToDeviceTable();
        QCOMPARE(h2d->columnCount(), 7);
        QCOMPARE(h2d->horizontalHeaderItem(2)->text(), QStringLiteral("Measured (GB/s)"));
        QCOMPARE(h2d->item(0, 3)->text(), QStringLiteral("0.95"));
        QVERIFY(!h2d->item(1, 2)); // no measurement for gpu1
        QCOMPARE(h2d->horizontalHeaderItem(6)->text(), QStringLiteral("Limited by"));
        const QAbstractItemModel *peers = view.peerTable()->model();
        const QString cell = peers->data(peers->index(0, 1)).toString();
        QVERIFY2(cell.contains(QLatin1String(" | ")) && cell.contains(QChar(0x26A0)),
                 qPrintable(cell));
        QVERIFY(peers->data(peers->index(0, 1), Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("off by more than 15 %")));
        QVERIFY(!peers->data(peers->index(1, 0)).toString().contains(QLatin1String(" | ")));
        auto *tabs = view.findChild<QTabWidget *>();
        QVERIFY(tabs);
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            keepPicture(&view, qPrintable(QStringLiteral("measured-tab%1.png").arg(i)));
        }
    }
};

QTEST_MAIN(TestMeasured)
#include "tst_measured.moc"
