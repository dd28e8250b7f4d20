#include "fabric/sharing.h"

#include <QtTest>

using namespace clab::fabric;

// Max-min fairness, worked by hand.
class TestSharing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void equalSplit()
    {
        // Eight transfers through one 25 GB/s link: an eighth each.
        std::vector<Flow> flows(8, Flow{{0}});
        const auto r = maxMinFair(flows, {25.0});
        for (const auto &f : r) {
            QCOMPARE(f.rate, 25.0 / 8);
            QCOMPARE(f.bottleneck, 0L);
        }
    }
    void leftoverGoesToOthers()
    {
        // Link 0 (10) carries A and B; link 1 (100) carries B and C.
        // A and B get 5 each on link 0; C takes the rest of link 1: 95.
        std::vector<Flow> flows = {Flow{{0}}, Flow{{0, 1}}, Flow{{1}}};
        const auto r = maxMinFair(flows, {10.0, 100.0});
        QCOMPARE(r[0].rate, 5.0);
        QCOMPARE(r[1].rate, 5.0);
        QCOMPARE(r[2].rate, 95.0);
        QCOMPARE(r[2].bottleneck, 1L);
    }
    void ownLimit()
    {
        // A drive that reads at 3 GB/s leaves the rest of a 25 GB/s link to the other.
        Flow drive{{0}, 3.0};
        Flow gpu{{0}};
        const auto r = maxMinFair({drive, gpu}, {25.0});
        QCOMPARE(r[0].rate, 3.0);
        QCOMPARE(r[0].bottleneck, -1L);
        QCOMPARE(r[1].rate, 22.0);
    }
    void noPath()
    {
        Flow none{{}, 0};
        const auto r = maxMinFair({none, Flow{{0}}}, {4.0});
        QCOMPARE(r[0].rate, 0.0);
        QCOMPARE(r[1].rate, 4.0);
    }
};

QTEST_APPLESS_MAIN(TestSharing)
#include "tst_sharing.moc"
