#include "mainwindow.h"
#include "views/systems/systemsview.h"

#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QSettings>
#include <QtTest>

using namespace clab;

// The Predictions tab shows, for the selected composed system, what the performance model says
// for ResNet-50 and BERT-Large, and follows the selection.
class TestPredictions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // Keep the user's real settings and data out of the tests.
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }
    void showsModelNumbers();

private:
    QTemporaryDir m_settings;
};

void TestPredictions::showsModelNumbers()
{
    MainWindow w;
    QVERIFY(w.openExample(QStringLiteral("seed-testbed.clab")));
    w.resize(1200, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    views::SystemsView *view = w.systemsView();
    view->findChild<QTabWidget *>()->setCurrentWidget(view->predictionTable());
    QTableWidget *t = view->predictionTable();

    // System A: four A100 PCIe behind one x16 uplink.
    view->selectSystem(0);
    QCOMPARE(t->rowCount(), 2);
    QVERIFY(t->item(0, 0)->text().startsWith(QLatin1String("ResNet-50")));
    QVERIFY(t->item(1, 0)->text().startsWith(QLatin1String("BERT-Large")));
    const double resnetA = t->item(0, 4)->text().toDouble();
    QVERIFY2(resnetA > 10 && resnetA < 1000, qPrintable(t->item(0, 4)->text()));
    // The breakdown columns add up to the total (each rounded to 0.1 min).
    double sum = 0;
    for (int c = 5; c <= 8; ++c)
        sum += t->item(0, c)->text().toDouble();
    QVERIFY(std::abs(sum - resnetA) <= 0.25);
    // The 80 % interval brackets the prediction.
    const QStringList interval = t->item(0, 10)->text().split(QLatin1Char('-'));
    QCOMPARE(interval.size(), 2);
    QVERIFY2(interval[0].toDouble() <= resnetA && resnetA <= interval[1].toDouble(),
             qPrintable(t->item(0, 10)->text()));
    // "% of peak" is a share of the dense peak, below what the GPU's GEMMs reach.
    const double peak = t->item(0, 11)->text().toDouble();
    QVERIFY2(peak > 1 && peak < 80, qPrintable(t->item(0, 11)->text()));
    // Energy and cost of the run: four A100 PCIe (250 W) and their host for the time to train
    // draw more than the GPUs at idle and less than all parts at full power with the facility.
    const double kwh = t->item(0, 12)->text().toDouble();
    const double hours = resnetA / 60;
    QVERIFY2(kwh > 4 * 250 * 0.13 * hours / 1e3 && kwh < (4 * 250 + 2000) * 1.58 * hours / 1e3,
             qPrintable(t->item(0, 12)->text()));
    QVERIFY2(t->item(0, 13)->text().endsWith(QLatin1String(" USD")),
             qPrintable(t->item(0, 13)->text()));
    QVERIFY(t->item(0, 13)->toolTip().contains(QLatin1String("electricity")));

    // System C: one GPU on a Gen3 host: slower to train than A's four.
    view->selectSystem(2);
    QCOMPARE(t->rowCount(), 2);
    QVERIFY(t->item(0, 4)->text().toDouble() > resnetA);

    // A benchmark the model is not calibrated on is flagged, with the reasons in the tooltip.
    w.setBenchmarks({"mobilenet_v2"});
    view->selectSystem(0);
    QCOMPARE(t->rowCount(), 1);
    QVERIFY2(t->item(0, 3)->text().toDouble() > 0, qPrintable(t->item(0, 3)->text()));
    QVERIFY(t->item(0, 10)->text().endsWith(QLatin1String("/s"))); // no convergence table
    w.setBenchmarks({"resnet50", "bert_large"});

    if (qEnvironmentVariableIsSet("CLAB_SCREENSHOT_DIR")) {
        view->selectSystem(0);
        w.grab().save(qEnvironmentVariable("CLAB_SCREENSHOT_DIR")
                      + QStringLiteral("/predictions.png"));
    }
}

QTEST_MAIN(TestPredictions)
#include "tst_predictions.moc"
