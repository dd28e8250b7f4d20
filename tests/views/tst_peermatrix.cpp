// The peer-to-peer matrix model: which pair each cell shows, its shading, and a system of a
// thousand GPUs shown without building a million cells.
#include "views/systems/peermatrixmodel.h"
#include "views/systems/systemsview.h"

#include <QColor>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using namespace clab;

namespace {

// n GPUs; the pair (i, j) runs at 100 * i + j GB/s, listed row by row without the diagonal, as
// fabric::analyze lists them.
fabric::SystemReport system(int n)
{
    fabric::SystemReport s;
    s.name = "pool";
    for (int i = 0; i < n; ++i)
        s.gpus.push_back("g" + std::to_string(i));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j)
                s.p2p.push_back({s.gpus[std::size_t(i)],
                                 s.gpus[std::size_t(j)],
                                 fabric::RouteKind::None,
                                 100.0 * i + j,
                                 1.5,
                                 {},
                                 std::nullopt,
                                 {}});
    return s;
}

} // namespace

class TestPeerMatrix : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cellsShowTheirPair()
    {
        const fabric::SystemReport s = system(3);
        views::PeerMatrixModel model;
        QCOMPARE(model.rowCount(), 0);
        model.setSystem(&s);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 3);
        const auto cell = [&](int r, int c, int role = Qt::DisplayRole) {
            return model.data(model.index(r, c), role);
        };
        QCOMPARE(cell(0, 0).toString(), QStringLiteral("-"));
        QCOMPARE(cell(0, 1).toString(), QStringLiteral("1.0"));
        QCOMPARE(cell(1, 0).toString(), QStringLiteral("100.0"));
        QCOMPARE(cell(1, 2).toString(), QStringLiteral("102.0"));
        QCOMPARE(cell(2, 0).toString(), QStringLiteral("200.0"));
        QCOMPARE(cell(2, 1).toString(), QStringLiteral("201.0"));
        QVERIFY(cell(2, 1, Qt::ToolTipRole).toString().startsWith(QStringLiteral("g2 to g1:")));
        QCOMPARE(model.headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("g2"));
        // The fastest pair is the darkest, the diagonal unshaded.
        const QColor fast = cell(2, 1, Qt::BackgroundRole).value<QColor>();
        const QColor slow = cell(0, 1, Qt::BackgroundRole).value<QColor>();
        QVERIFY(fast.lightnessF() < slow.lightnessF());
        QVERIFY(!cell(1, 1, Qt::BackgroundRole).isValid());
        model.setSystem(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // 1,000 GPUs (999,000 pairs, the most a design may hold in one system): the Results panel
    // shows the matrix at once; its table of a million items used to hang past the test's
    // five-minute timeout.
    void thousandGpus()
    {
        fabric::Analysis analysis;
        analysis.systems.push_back(system(1000));
        views::SystemsView view;
        view.resize(900, 600);
        view.show();
        view.setAnalysis(analysis);
        QCOMPARE(view.peerTable()->model()->rowCount(), 1000);
        QCOMPARE(view.peerTable()->model()->index(999, 998).data().toString(),
                 QStringLiteral("100898.0"));
        // Shown, replaced by a smaller system, then by the large one again, and destroyed at
        // once: the model once pointed into the view's freed analysis at that moment, and the
        // closing view read it (std::bad_alloc).
        view.findChild<QTabWidget *>()->setCurrentWidget(view.peerTable());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.grab().isNull());
        fabric::Analysis small;
        small.systems.push_back(system(4));
        view.setAnalysis(small);
        QCOMPARE(view.peerTable()->model()->rowCount(), 4);
        QTest::qWait(100);
        view.setAnalysis(analysis);
    }
};

QTEST_MAIN(TestPeerMatrix)
#include "tst_peermatrix.moc"
