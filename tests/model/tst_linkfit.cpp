// calibrate --bandwidth: PCIe links' achieved fractions from the store's host-device measurements,
// checked by hand on a table of our own.
#include "catalog/catalog.h"
#include "store/import.h"
#include "store/linkfit.h"
#include "store/store.h"

#include <QtTest>

using namespace clab;
using namespace clab::store;

class TestLinkFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linkNames()
    {
        const catalog::Catalog &cat = catalog::Catalog::builtin();
        QCOMPARE(pcieLinkId("pcie4_x16", cat), std::string("pcie4x16"));
        QCOMPARE(pcieLinkId("PCIe Gen4 x16", cat), std::string("pcie4x16"));
        QCOMPARE(pcieLinkId("pcie3_x16 (staged through host)", cat), std::string("pcie3x16"));
        QCOMPARE(pcieLinkId("pcie4x1", cat), std::string()); // not a catalog link
        QCOMPARE(pcieLinkId("nvlink3", cat), std::string());
    }

    void fitsTheMedianOverTheRawRate()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        importPaths(s, {std::string(CLAB_TEST_DATA) + "/linkfit/link_bandwidth.csv"});
        const auto fits = fitLinkFractions(s, catalog::Catalog::builtin());
        QCOMPARE(fits.size(), std::size_t(2));
        // Gen3 x16: one bandwidthTest run, 12.6 of 15.75 GB/s.
        QCOMPARE(fits[0].link, std::string("pcie3x16"));
        QCOMPARE(fits[0].measurements, 1);
        QVERIFY(std::abs(fits[0].fittedFraction - 12.6 / 15.75) < 1e-9);
        // Gen4 x16: 24, 25 and 26 GB/s (the pageable run and the staged P2P copy are left out):
        // median 25 of 31.5 GB/s.
        QCOMPARE(fits[1].link, std::string("pcie4x16"));
        QCOMPARE(fits[1].measurements, 3);
        QVERIFY(std::abs(fits[1].fittedFraction - 25.0 / 31.5) < 1e-9);
        QCOMPARE(fits[1].minGBps, 24.0);
        QCOMPARE(fits[1].maxGBps, 26.0);
        QCOMPARE(fits[1].catalogFraction,
                 catalog::Catalog::builtin().link("pcie4x16")->achievedFraction);
    }
};

QTEST_APPLESS_MAIN(TestLinkFit)
#include "tst_linkfit.moc"
