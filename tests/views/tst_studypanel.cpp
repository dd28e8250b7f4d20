// The Study dock: the seed study run in the background into a store, its points in a sortable
// table, dropped points summed up, Cancel storing nothing, a bad study named.
#include "views/study/studypanel.h"

#include "store/store.h"
#include "util/fileio.h"

#include <QPushButton>
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
