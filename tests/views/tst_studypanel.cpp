// The Study dock: the seed study run in the background into a store, its points in a sortable
// table, dropped points summed up, Cancel storing nothing, a bad study named.
#include "views/study/studypanel.h"

#include "catalog/catalog.h"
#include "design/examples.h"
#include "perf/study.h"
#include "store/store.h"
#include "util/fileio.h"

#include <QApplication>
#include <QDialog>
#include <QPushButton>
#include <QTimer>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

namespace {

// Clicks the panel's button whose text (without the & of its shortcut) is `label`.
bool click(views::StudyPanel &panel, const QString &label)
{
    for (QPushButton *b : panel.findChildren<QPushButton *>())
        if (b->text().remove(QLatin1Char('&')) == label && b->isEnabled()) {
            QTest::mouseClick(b, Qt::LeftButton);
            return true;
        }
    return false;
}

} // namespace

class TestStudyPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void seedStudyIntoTheStore()
    {
        views::StudyPanel panel;
        const std::string db = m_dir.path().toStdString() + "/runs.sqlite";
        panel.setStorePath(QString::fromStdString(db));
        QVERIFY(click(panel, QStringLiteral("Seed Study")));
        QSignalSpy done(&panel, &views::StudyPanel::finished);
        QVERIFY(click(panel, QStringLiteral("Run")));
        QVERIFY(panel.running());
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().first().toBool(), true);
        QVERIFY(!panel.running());
        QCOMPARE(panel.model()->rowCount(), 48);
        QVERIFY2(panel.status().contains(QStringLiteral("16 dropped: uplinks apply to pooled")),
                 qPrintable(panel.status()));
        QVERIFY2(panel.status().contains(QStringLiteral("48 predicted runs kept")),
                 qPrintable(panel.status()));
        {
            store::Store s(db);
            QCOMPARE(s.count(store::Table::Runs), std::int64_t(48));
        }
        // Sorted by samples/s, by value: the fastest point last in ascending order.
        QAbstractItemModel *shown = panel.table()->model();
        panel.table()->sortByColumn(4, Qt::AscendingOrder);
        double previous = 0;
        for (int row = 0; row < shown->rowCount(); ++row) {
            const double v = shown->index(row, 4).data(Qt::UserRole).toDouble();
            QVERIFY(v >= previous);
            previous = v;
        }
        // Run again: the table fills again and the store says it has them.
        QVERIFY(click(panel, QStringLiteral("Run")));
        QVERIFY(done.wait(20000));
        QCOMPARE(panel.model()->rowCount(), 48);
        QVERIFY2(panel.status().contains(QStringLiteral("already in the experiment store")),
                 qPrintable(panel.status()));
    }

    void cancelStoresNothing()
    {
        // A study large enough to be running when Cancel comes.
        const std::string file = m_dir.path().toStdString() + "/big.clabstudy";
        std::string batches;
        for (int b = 1; b <= 5000; ++b)
            batches += (b > 1 ? "," : "") + std::to_string(8 * b);
        writeFileAtomically(file,
                            "{\"format\": \"composelab-study\", \"version\": 1, \"name\": "
                            "\"big\", \"base\": {\"node\": {}}, \"axes\": [{\"name\": "
                            "\"gpus\", \"values\": [1, 2, 4, 8]}, {\"name\": \"global_batch\", "
                            "\"values\": ["
                                + batches + "]}]}");
        views::StudyPanel panel;
        const std::string db = m_dir.path().toStdString() + "/cancel.sqlite";
        panel.setStorePath(QString::fromStdString(db));
        QVERIFY(panel.openStudy(QString::fromStdString(file)));
        QSignalSpy done(&panel, &views::StudyPanel::finished);
        QVERIFY(click(panel, QStringLiteral("Run")));
        QVERIFY(click(panel, QStringLiteral("Cancel")));
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().first().toBool(), false);
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(panel.status().contains(QStringLiteral("Cancelled")));
        store::Store s(db);
        QCOMPARE(s.count(store::Table::Runs), std::int64_t(0));
    }

    void studyOfTheOpenDesignVariedAndSaved()
    {
        views::StudyPanel panel;
        const std::string system = "A: 4 GPUs on one uplink";
        panel.studyDesign(design::seedTestbed(), system);
        QCOMPARE(panel.points(), std::uint64_t(1));
        QVERIFY(panel.vary(QStringLiteral("gpus"), QStringLiteral("1, 4")));
        QVERIFY(panel.vary(QStringLiteral("benchmark"), QStringLiteral("resnet50, bert_large")));
        QCOMPARE(panel.points(), std::uint64_t(4));
        QVERIFY(panel.vary(QStringLiteral("gpus"), QStringLiteral(" 1,2 , 4"))); // replaced
        QCOMPARE(panel.points(), std::uint64_t(6));
        // Refused values leave the study as it was, and say why.
        QVERIFY(!panel.vary(QStringLiteral("placement"), QStringLiteral("local")));
        QVERIFY2(panel.status().contains(QStringLiteral("needs a synthesised node base")),
                 qPrintable(panel.status()));
        QVERIFY(!panel.vary(QStringLiteral("gpu"), QStringLiteral("NoSuchGPU")));
        QVERIFY2(panel.status().startsWith(QStringLiteral("Not varied"))
                     && panel.status().contains(QStringLiteral("unknown GPU \"NoSuchGPU\"")),
                 qPrintable(panel.status()));
        QVERIFY(!panel.vary(QStringLiteral("gpus"), QStringLiteral(" , ")));
        QCOMPARE(panel.points(), std::uint64_t(6));
        // The design again (after an edit): the axes stay.
        panel.studyDesign(design::seedTestbed(), system);
        QCOMPARE(panel.points(), std::uint64_t(6));
        // Saved, it reads back as the same study, the design inside it.
        const QString file = m_dir.filePath(QStringLiteral("mine.clabstudy"));
        QVERIFY(panel.saveStudy(file));
        const perf::Study back = perf::readStudy(readTextFile(file.toStdString()),
                                                 file.toStdString(), catalog::Catalog::builtin());
        QCOMPARE(back.points(), std::uint64_t(6));
        QCOMPARE(back.system, system);
        // It runs, and the dock asks the Chart dock for its charts.
        panel.setStorePath(m_dir.filePath(QStringLiteral("design.sqlite")));
        QSignalSpy done(&panel, &views::StudyPanel::finished);
        QVERIFY(click(panel, QStringLiteral("Run")));
        QVERIFY(done.wait(20000));
        QCOMPARE(panel.model()->rowCount(), 6);
        QSignalSpy chart(&panel, &views::StudyPanel::chartRequested);
        QVERIFY(click(panel, QStringLiteral("Scaling")));
        QCOMPARE(chart.size(), 1);
        QCOMPARE(chart.first().first().value<charts::ChartKind>(), charts::ChartKind::Scaling);
    }

    void everyStartingValueOfVaryIsAccepted()
    {
        // What Vary… offers for an axis the study lacks is a study the model can run: each
        // axis, its starting values accepted as they are.
        views::StudyPanel panel;
        panel.openSeedStudy(); // a node base offers every axis
        std::uint64_t points = panel.points();
        for (const std::string &axis : perf::studyAxisNames()) {
            if (axis == "host")
                continue; // starts empty: the user names a host
            // The dialog is accepted; a complaint that follows (and the dialog again) closes.
            int shown = 0;
            QTimer answer;
            answer.setInterval(10);
            connect(&answer, &QTimer::timeout, this, [&shown] {
                if (auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget()))
                    ++shown == 1 ? dialog->accept() : dialog->reject();
            });
            answer.start();
            panel.askVary(QString::fromStdString(axis));
            answer.stop();
            QVERIFY2(
                !panel.status().startsWith(QStringLiteral("Not varied")),
                qPrintable(QString::fromStdString(axis) + QStringLiteral(": ") + panel.status()));
            // An axis the seed study lacks multiplies its points by its starting values (one
            // for global_batch, the "fastest batch" 0; two or more for the others).
            const bool added = axis == "gpu" || axis == "nvlink" || axis == "pcie_gen"
                               || axis == "nodes" || axis == "precision" || axis == "software";
            QVERIFY2(added ? panel.points() >= 2 * points : panel.points() == points, axis.c_str());
            points = panel.points();
        }
        QVERIFY(points >= 64 * 64); // 64 seed points, six axes of two or more values
    }

    void badStudyIsNamed()
    {
        const std::string file = m_dir.path().toStdString() + "/bad.clabstudy";
        writeFileAtomically(file, "{\"format\": \"composelab-study\", \"version\": 1}");
        views::StudyPanel panel;
        QVERIFY(!panel.openStudy(QString::fromStdString(file)));
        QVERIFY2(panel.status().contains(QStringLiteral("bad.clabstudy"))
                     && panel.status().contains(QStringLiteral("name")),
                 qPrintable(panel.status()));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestStudyPanel)
#include "tst_studypanel.moc"
