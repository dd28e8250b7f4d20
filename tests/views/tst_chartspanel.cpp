#include "store/import.h"
#include "store/store.h"
#include "views/charts/chartspanel.h"
#include "views/charts/chartwidget.h"

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
    QVERIFY2(panel.exportTo(png, 96, &error), qPrintable(error));
    QVERIFY(QImage(png).width() > 100);
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
