#include "mainwindow.h"
#include "store/store.h"
#include "views/experiments/experimentsview.h"
#include "views/experiments/runtablemodel.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QSettings>
#include <QtTest>

#include <fstream>

using namespace clab;

// File > Import Results: the import runs on a worker thread and reports when done; a cancel
// leaves the store as it was.
class TestImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // Keep the user's real settings and data out of the tests.
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }
    void importsInTheBackground();
    void cancelLeavesStoreAsItWas();
    void oneBadFileIsReportedTheOthersLand();
    void firstStartShowsRecordedResults();
    void savesPredictionsOnce();

private:
    QTemporaryDir m_settings;
    QString writeCsv(const QTemporaryDir &dir, int rows);
};

QString TestImport::writeCsv(const QTemporaryDir &dir, int rows)
{
    const QString path = dir.filePath(QStringLiteral("runs.csv"));
    std::ofstream out(path.toStdString());
    out << "system,benchmark,metric,value,unit,global_batch_size,precision,date\n";
    for (int i = 0; i < rows; ++i)
        out << "rack " << i % 7 << ",resnet,time_to_train," << 20 + i % 13 << ",min,"
            << 256 * (1 + i % 4) << ",fp16,2024-02-01\n";
    return path;
}

void TestImport::importsInTheBackground()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setStorePath(dir.filePath(QStringLiteral("store.sqlite")));
    QSignalSpy done(&w, &MainWindow::importDone);
    w.importResults({writeCsv(dir, 500)});
    QVERIFY(done.wait(60000));
    QVERIFY2(done.at(0).at(0).toString().startsWith(QLatin1String("Imported 1 item")),
             qPrintable(done.at(0).at(0).toString()));
    store::Store s(w.storePath().toStdString());
    QCOMPARE(s.count(store::Table::Runs), std::int64_t(500));
}

void TestImport::cancelLeavesStoreAsItWas()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setStorePath(dir.filePath(QStringLiteral("store.sqlite")));
    QSignalSpy done(&w, &MainWindow::importDone);
    w.importResults({writeCsv(dir, 200000)});
    w.importRunner()->cancel();
    QVERIFY(done.wait(120000));
    QCOMPARE(done.at(0).at(0).toString(),
             QStringLiteral("Import cancelled; the store is as it was."));
    store::Store s(w.storePath().toStdString());
    QCOMPARE(s.count(store::Table::Runs), std::int64_t(0));
    QCOMPARE(s.count(store::Table::Sources), std::int64_t(0));
}

void TestImport::oneBadFileIsReportedTheOthersLand()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setStorePath(dir.filePath(QStringLiteral("store.sqlite")));
    QSignalSpy done(&w, &MainWindow::importDone);
    QSignalSpy report(&w, &MainWindow::errorShown);
    const QString data = QStringLiteral(CLAB_TEST_DATA) + QStringLiteral("/import/");
    w.importResults({writeCsv(dir, 10), data + QStringLiteral("nccl_garbled.txt")});
    QVERIFY(done.wait(60000));
    QCOMPARE(done.at(0).at(0).toString(),
             QStringLiteral("Imported 1 item(s); 1 file(s) failed and were left out."));
    QCOMPARE(report.count(), 1);
    const QString summary = report.at(0).at(0).toString();
    QVERIFY2(summary.contains(QLatin1String("nccl_garbled.txt: line 24")), qPrintable(summary));
    store::Store s(w.storePath().toStdString());
    QCOMPARE(s.count(store::Table::Runs), std::int64_t(10));
}

void TestImport::firstStartShowsRecordedResults()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setStorePath(dir.filePath(QStringLiteral("new/experiments.sqlite")));
    QSignalSpy seeded(&w, &MainWindow::storeSeeded);
    w.seedStoreIfNew();
    QVERIFY(seeded.wait(30000));
    QVERIFY2(seeded.at(0).at(0).toString().contains(QLatin1String("recorded results")),
             qPrintable(seeded.at(0).at(0).toString()));
    QVERIFY(w.experimentsView()->errorText().isEmpty());
    QVERIFY(w.experimentsView()->model()->rowCount() > 0);
    // The store is the user's from now on: a second start leaves it alone.
    seeded.clear();
    w.seedStoreIfNew();
    QVERIFY(!seeded.wait(500));
}

void TestImport::savesPredictionsOnce()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setStorePath(dir.filePath(QStringLiteral("store.sqlite")));
    QVERIFY(w.openExample(QStringLiteral("seed-testbed.clab")));
    // Four systems, ResNet-50 and BERT-Large each, time to train and throughput each.
    QCOMPARE(w.savePredictionsToStore(), 16);
    QCOMPARE(w.savePredictionsToStore(), 0);
    store::Store s(w.storePath().toStdString());
    QCOMPARE(s.count(store::Table::Runs), std::int64_t(16));
    for (const store::StoredRun &r : s.runs("resnet"))
        QVERIFY(!r.run().measured);
}

QTEST_MAIN(TestImport)
#include "tst_import.moc"
