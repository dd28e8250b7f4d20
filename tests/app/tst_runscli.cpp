// `composelab runs`: the store's runs, filtered, as a table or as JSON, headless.
#include "cli/importcommand.h"
#include "cli/runscommand.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QtTest>

#include <sstream>

using namespace clab;

namespace {

struct Outcome
{
    int status = 0;
    std::string out, err;
};

Outcome runs(const std::vector<std::string> &args)
{
    CLI::App app;
    app.require_subcommand(1);
    cli::RunsOptions options;
    cli::addRunsSubcommand(app, options);
    std::vector<const char *> argv{"composelab", "runs"};
    for (const auto &a : args)
        argv.push_back(a.c_str());
    try {
        app.parse(int(argv.size()), argv.data());
    } catch (const CLI::ParseError &) {
        return {2, {}, {}};
    }
    std::ostringstream o, e;
    const int status = cli::runsCommand(options, o, e);
    return {status, o.str(), e.str()};
}

// A store with the fixture CSV's runs (one of them predicted) and an MLPerf result.
std::string filledStore(const QTemporaryDir &dir)
{
    const std::string db = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    cli::ImportOptions options;
    options.db = db;
    options.paths = {std::string(CLAB_TEST_DATA) + "/import/generic_runs.csv",
                     std::string(CLAB_TEST_DATA) + "/import/mlperf"};
    std::ostringstream o, e;
    if (cli::importCommand(options, o, e) != 0)
        throw std::runtime_error(e.str());
    return db;
}

} // namespace

class TestRunsCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonListsEveryRunWithItsSource()
    {
        QTemporaryDir dir;
        const std::string db = filledStore(dir);
        const Outcome all = runs({"--db", db, "--json"});
        QCOMPARE(all.status, 0);
        const auto j = nlohmann::json::parse(all.out);
        QVERIFY(j["total"].get<int>() > 0);
        QCOMPARE(j["total"].get<std::size_t>(), j["runs"].size());
        for (const auto &r : j["runs"]) {
            for (const char *key :
                 {"system", "benchmark", "metric", "value", "unit", "measured", "source"})
                QVERIFY2(r.contains(key), r.dump().c_str());
            QVERIFY(!r["source"].get<std::string>().empty());
        }
        QCOMPARE(std::count_if(j["runs"].begin(), j["runs"].end(),
                               [](const auto &r) { return !r["measured"].template get<bool>(); }),
                 1);
    }

    void filtersNarrowTheList()
    {
        QTemporaryDir dir;
        const std::string db = filledStore(dir);
        const auto total = nlohmann::json::parse(runs({"--db", db, "--json"}).out)["total"];
        const auto resnet
            = nlohmann::json::parse(runs({"--db", db, "--json", "--benchmark", "resnet"}).out);
        QVERIFY(resnet["total"].get<int>() > 0);
        QVERIFY(resnet["total"].get<int>() < total.get<int>());
        for (const auto &r : resnet["runs"])
            QCOMPARE(r["benchmark"].get<std::string>(), std::string("resnet"));
        const auto predicted
            = nlohmann::json::parse(runs({"--db", db, "--json", "--predicted"}).out);
        QCOMPARE(predicted["total"].get<int>(), 1);
        QCOMPARE(predicted["runs"][0]["system"].get<std::string>(), std::string("rack B"));
        QCOMPARE(predicted["runs"][0]["benchmark"].get<std::string>(), std::string("bert"));
        const auto measured = nlohmann::json::parse(runs({"--db", db, "--json", "--measured"}).out);
        QCOMPARE(measured["total"].get<int>() + 1, total.get<int>());
        const auto none
            = nlohmann::json::parse(runs({"--db", db, "--json", "--system", "no such box"}).out);
        QCOMPARE(none["total"].get<int>(), 0);
        // The table names each run's system and benchmark.
        const Outcome table = runs({"--db", db, "--benchmark", "resnet"});
        QCOMPARE(table.status, 0);
        QVERIFY2(table.out.find("resnet") != std::string::npos, table.out.c_str());
    }

    void missingStoreIsAnErrorAndNotCreated()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("none.sqlite")).toStdString();
        const Outcome r = runs({"--db", db});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.find("none.sqlite") != std::string::npos, r.err.c_str());
        QVERIFY(!QFileInfo::exists(QString::fromStdString(db)));
        QCOMPARE(runs({"--db", db, "--measured", "--predicted"}).status, 2);
    }
};

QTEST_GUILESS_MAIN(TestRunsCli)
#include "tst_runscli.moc"
