#include "store/import.h"
#include "store/store.h"
#include "views/charts/chartspanel.h"
#include "views/charts/chartwidget.h"
#include "views/charts/exportdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSpinBox>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace clab;

// The Chart dock: it draws the store's runs, or only the runs selected in the browser.
class TestChartsPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plotsAllThenTheSelection();
    void saysWhenThereIsNoStore();
    void exportDialogSizesAndRemembers();

public:
    TestChartsPanel() { QStandardPaths::setTestModeEnabled(true); }
};

void TestChartsPanel::plotsAllThenTheSelection()
{
    QTemporaryDir dir;
    const std::string csv = dir.filePath(QStringLiteral("runs.csv")).toStdString();
    {
        std::ofstream out(csv);
        out << "system,benchmark,value,kind\n"
               "rack A,resnet,30,measured\n"
               "rack A,resnet,33,predicted\n"
               "rack B,bert,20,measured\n"
               "rack B,bert,18,predicted\n";
    }
    const QString db = dir.filePath(QStringLiteral("s.sqlite"));
    {
        store::Store s(db.toStdString());
        store::importPaths(s, {csv});
    }
    views::ChartsPanel panel;
    panel.setKind(charts::ChartKind::Ttt);
    panel.setStorePath(db);
    QCOMPARE(panel.chart()->chart().categories.size(), std::size_t(2)); // rack A and rack B
    QCOMPARE(panel.chart()->barCount(), 2);                             // measured, predicted

    // Run ids follow the import order: 3 and 4 are rack B's.
    panel.setRunIds({3, 4});
    QCOMPARE(panel.chart()->chart().categories.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(panel.chart()->chart().categories.front())
                .startsWith(QLatin1String("rack B")));
    QVERIFY(panel.message().contains(QLatin1String("2 selected")));

    QString error;
    const QString png = dir.filePath(QStringLiteral("chart.png"));
    QVERIFY2(panel.exportTo(png, 96, {}, &error), qPrintable(error));
    QVERIFY(QImage(png).width() > 100);
    // 6 x 4 in at 200 dpi is 1200 x 800 pixels, whatever the dock's size.
    QVERIFY2(panel.exportTo(png, 200, {576, 384, 1.5}, &error), qPrintable(error));
    QCOMPARE(QImage(png).size(), QSize(1200, 800));
}

// The export dialog: a size in a unit becomes pixels at 96 dpi, changing the unit keeps the
// physical size, "as shown" takes the screen size, the resolution is for PNG only, and the
// choices come back next time.
void TestChartsPanel::exportDialogSizesAndRemembers()
{
    QSettings().remove(QStringLiteral("chartExport"));
    {
        views::ChartExportDialog d(true, QSize(700, 500));
        d.widthBox()->setValue(6);
        d.heightBox()->setValue(4);
        d.unitBox()->setCurrentText(QStringLiteral("in"));
        QCOMPARE(d.layout().width, 576);
        QCOMPARE(d.layout().height, 384);
        d.unitBox()->setCurrentText(QStringLiteral("cm"));
        QCOMPARE(d.widthBox()->value(), 15.2);
        QCOMPARE(d.layout().width, 574); // 15.2 cm (a tenth) x 96 / 2.54 = 574.5 px
        d.styleBox()->setCurrentIndex(1);
        QCOMPARE(d.layout().textScale, 1.5);
        d.dpiBox()->setValue(450);
        d.asShown()->setChecked(true);
        QCOMPARE(d.layout().width, 700);
        QCOMPARE(d.layout().height, 500);
        QVERIFY(!d.widthBox()->isEnabled());
        d.remember();
    }
    views::ChartExportDialog again(false, QSize(300, 200));
    QVERIFY(again.asShown()->isChecked());
    QCOMPARE(again.unitBox()->currentText(), QStringLiteral("cm"));
    QCOMPARE(again.styleBox()->currentIndex(), 1);
    QCOMPARE(again.dpi(), 450);
    QVERIFY(!again.dpiBox()->isEnabled()); // a PDF or SVG keeps its physical size
}

void TestChartsPanel::saysWhenThereIsNoStore()
{
    QTemporaryDir dir;
    views::ChartsPanel panel;
    panel.setStorePath(dir.filePath(QStringLiteral("none.sqlite")));
    QVERIFY(panel.message().contains(QLatin1String("No experiments yet")));
    QVERIFY(panel.chart()->chart().series.empty());
}

QTEST_MAIN(TestChartsPanel)
#include "tst_chartspanel.moc"
