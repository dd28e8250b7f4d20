// The recorded results ComposeLab ships (datasets/*.csv) and the first-start store made of them.
#include "store/seed.h"
#include "store/store.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cstdlib>

using namespace clab;
using namespace clab::store;

class TestSeed : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyDatasetImportsWithItsSources()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        const ImportReport report = importDatasets(s);
        QVERIFY2(report.failed.empty(), report.toJson().dump().c_str());
        std::set<std::string> kinds;
        for (const auto &e : report.imported)
            kinds.insert(e["kind"].get<std::string>());
        QVERIFY(kinds.count("mlperf_csv") && kinds.count("throughput_csv")
                && kinds.count("link_bandwidth_csv"));
        // The MLPerf table has 700 scores and more; the throughput tables 300 rows and more.
        QVERIFY(s.runs("resnet").size() > 50);
        QVERIFY(s.count(Table::Runs) > 1000);
        QVERIFY(s.count(Table::Bandwidth) > 50);
        // Every row says where it comes from.
        for (const StoredRun &r : s.runs()) {
            const auto details
                = nlohmann::json::parse(r.run().details.empty() ? "{}" : r.run().details);
            QVERIFY2(details.contains("source_url"), r.run().place.c_str());
        }
        for (const BandwidthRecord &b : s.bandwidth()) {
            const auto details = nlohmann::json::parse(b.details);
            QVERIFY2(details.contains("source_url") && !b.tool.empty(), b.place.c_str());
        }
        // Again: nothing new.
        QCOMPARE(importDatasets(s).imported.size(), std::size_t(0));
    }

    void linkRowsAreClassified()
    {
        QTemporaryDir dir;
        Store s(dir.filePath(QStringLiteral("s.sqlite")).toStdString());
        importDatasets(s);
        std::map<std::string, int> links;
        for (const BandwidthRecord &b : s.bandwidth())
            ++links[b.link];
        for (const char *kind : {"p2p", "h2d", "collective"})
            QVERIFY2(links[kind] > 0, kind);
        QCOMPARE(links["other"], 0);
    }

    void seedsOnlyANewStoreUnlessAskedNotTo()
    {
        QTemporaryDir dir;
        const std::string path
            = dir.filePath(QStringLiteral("user/experiments.sqlite")).toStdString();
        qputenv("COMPOSELAB_EMPTY_STORE", "1");
        QVERIFY(!seedIfNew(path));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
        qunsetenv("COMPOSELAB_EMPTY_STORE");
        QVERIFY(seedIfNew(path));
        QVERIFY(!seedIfNew(path)); // an existing store is the user's: never touched
        Store s(path);
        QVERIFY(s.count(Table::Runs) > 1000);
    }
};

QTEST_APPLESS_MAIN(TestSeed)
#include "tst_seed.moc"
