#include "store/import.h"
#include "store/runquery.h"
#include "store/store.h"

#include <QtTest>

#include <sqlite3.h>

#include <fstream>

using namespace clab;
using namespace clab::store;

namespace {

// Line 1 is the header, so the run on CSV line N has place "line N".
const char *const csv
    = "system,submitter,benchmark,metric,value,unit,global_batch_size,precision,framework,round,"
      "date,kind,tags,gpus\n"
      "A100 x8,acme,resnet,time_to_train,30.5,,256,fp16,PyTorch,3.0,2023-06-01,measured,"
      "nightly;big,8\n"                                                            // line 2
      "H100 x8,acme,bert,time_to_train,12.25,,512,bf16,JAX,3.1,,measured,,8\n"     // line 3
      "A100 x4,zeta,resnet,time_to_train,55,,128,fp16,TensorFlow,,,predicted,,4\n" // line 4
      "50%_off,zeta,bert,throughput,900,seq/s,,fp32,PyTorch,,2024-01-02,,,\n"      // line 5
      ",,ssd,score,7,,,,,,,predicted,,\n";                                         // line 6

std::vector<std::string> systemsOf(RunQuery &q, const std::vector<std::int64_t> &ids)
{
    std::vector<std::string> out;
    for (const StoredRun &r : q.rows(ids))
        out.push_back(r.system);
    return out;
}

using Names = std::vector<std::string>;

} // namespace

class TestRunQuery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void filters_data();
    void filters();
    void metricsAndIds();
    void gpuCountIsStrict();
    void sorts_data();
    void sorts();
    void rowsKeepOrder();
    void provenance();
    void deleteThenRestoreIsExact();
    void restoreOfTakenIdChangesNothing();
    void refusesBadStores_data();
    void refusesBadStores();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string m_db;
    std::string m_csv;
};

void TestRunQuery::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_csv = m_dir->filePath(QStringLiteral("runs.csv")).toStdString();
    m_db = m_dir->filePath(QStringLiteral("store.sqlite")).toStdString();
    std::ofstream(m_csv) << csv;
    Store store(m_db);
    importPaths(store, {m_csv});
    QCOMPARE(store.count(Table::Runs), std::int64_t(5));
}

void TestRunQuery::filters_data()
{
    QTest::addColumn<QString>("benchmark");
    QTest::addColumn<QString>("system");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("search");
    QTest::addColumn<int>("expected"); // bit i: the run of CSV line i + 2

    QTest::newRow("all") << ""
                         << "" << -1 << "" << int(RunKind::All) << "" << 0b11111;
    QTest::newRow("benchmark") << "bert"
                               << "" << -1 << "" << int(RunKind::All) << "" << 0b01010;
    QTest::newRow("benchmark is exact") << "ber"
                                        << "" << -1 << "" << int(RunKind::All) << "" << 0;
    QTest::newRow("system substring, any case")
        << ""
        << "a100" << -1 << "" << int(RunKind::All) << "" << 0b00101;
    QTest::newRow("8 GPUs") << ""
                            << "" << 8 << "" << int(RunKind::All) << "" << 0b00011;
    QTest::newRow("4 GPUs") << ""
                            << "" << 4 << "" << int(RunKind::All) << "" << 0b00100;
    QTest::newRow("source") << ""
                            << "" << -1 << "RUNS.csv" << int(RunKind::All) << "" << 0b11111;
    QTest::newRow("other source") << ""
                                  << "" << -1 << "other.csv" << int(RunKind::All) << "" << 0;
    QTest::newRow("predicted") << ""
                               << "" << -1 << "" << int(RunKind::Predicted) << "" << 0b10100;
    QTest::newRow("measured") << ""
                              << "" << -1 << "" << int(RunKind::Measured) << "" << 0b01011;
    QTest::newRow("search framework")
        << ""
        << "" << -1 << "" << int(RunKind::All) << "pytorch" << 0b01001;
    QTest::newRow("search tag") << ""
                                << "" << -1 << "" << int(RunKind::All) << "nightly" << 0b00001;
    QTest::newRow("search benchmark") << ""
                                      << "" << -1 << "" << int(RunKind::All) << "SSD" << 0b10000;
    // % and _ are plain characters, not LIKE wildcards.
    QTest::newRow("search %") << ""
                              << "" << -1 << "" << int(RunKind::All) << "%" << 0b01000;
    QTest::newRow("system _") << ""
                              << "_" << -1 << "" << int(RunKind::All) << "" << 0b01000;
    QTest::newRow("quote is a value") << ""
                                      << "' OR 1=1 --" << -1 << "" << int(RunKind::All) << "" << 0;
    QTest::newRow("combined") << "resnet"
                              << "" << 8 << "runs" << int(RunKind::Measured) << "pytorch"
                              << 0b00001;
}

void TestRunQuery::filters()
{
    QFETCH(QString, benchmark);
    QFETCH(QString, system);
    QFETCH(int, gpus);
    QFETCH(QString, source);
    QFETCH(int, kind);
    QFETCH(QString, search);
    QFETCH(int, expected);
    RunQuery q(m_db);
    const std::vector<std::int64_t> all = q.ids({});
    QCOMPARE(all.size(), std::size_t(5));
    RunFilter f;
    f.benchmark = benchmark.toStdString();
    f.system = system.toStdString();
    f.gpus = gpus;
    f.source = source.toStdString();
    f.kind = RunKind(kind);
    f.search = search.toStdString();
    std::vector<std::int64_t> want;
    for (int i = 0; i < 5; ++i)
        if (expected & (1 << i))
            want.push_back(all[std::size_t(i)]);
    QCOMPARE(q.ids(f), want);
}

void TestRunQuery::metricsAndIds()
{
    RunQuery q(m_db);
    const std::vector<std::int64_t> all = q.ids({});
    RunFilter f;
    f.metrics = {"throughput", "score"};
    QCOMPARE(q.ids(f), (std::vector<std::int64_t>{all[3], all[4]}));
    f = {};
    f.ids = std::vector<std::int64_t>{all[4], all[1], 999};
    QCOMPARE(q.ids(f), (std::vector<std::int64_t>{all[1], all[4]})); // in the sort's order
    f.benchmark = "bert";
    QCOMPARE(q.ids(f), std::vector<std::int64_t>{all[1]}); // and the other fields too
    f = {};
    f.ids = std::vector<std::int64_t>{}; // an empty selection is none, not all
    QVERIFY(q.ids(f).empty());
    QVERIFY(q.rows({}).empty());
    QVERIFY(q.stored({}).empty());
}

void TestRunQuery::gpuCountIsStrict()
{
    std::vector<std::optional<int>> got;
    {
        Store store(m_db);
        const std::int64_t source = store.addSource({"gpus.csv", std::string(64, 'a'), "test"});
        const std::int64_t system = store.addSystem(
            {"node", "", R"({"number_of_nodes": 1, "accelerators_per_node": 8})", ""}, source);
        const std::int64_t vague = store.addSystem(
            {"vague", "", R"({"number_of_nodes": "2 nodes", "accelerators_per_node": 4})", ""},
            source);
        for (const auto &[on, details] : std::vector<std::pair<std::int64_t, std::string>>{
                 {0, R"({"gpus": "8 GPUs"})"},
                 {0, R"({"gpu_count": "1,024"})"},
                 {system, R"({"gpus": "2x4"})"},
                 {0, R"({"gpus": true})"},
                 {vague, ""},
                 {0, R"({"gpus": "1e999", "gpu_count": 8})"},
                 {0, R"({"gpus": "16"})"}}) {
            RunRecord r;
            r.systemId = on;
            r.benchmark = "gpus";
            r.unit = "min";
            r.details = details;
            store.addRun(r, source);
        }
    }
    RunQuery q(m_db);
    RunFilter f;
    f.benchmark = "gpus";
    for (const StoredRun &r : q.rows(q.ids(f)))
        got.push_back(r.gpus);
    QCOMPARE(got, (std::vector<std::optional<int>>{std::nullopt, std::nullopt, 8, std::nullopt,
                                                   std::nullopt, 8, 16}));
    f.gpus = 8; // the browser filters on the same count
    QCOMPARE(q.ids(f).size(), std::size_t(2));
}

void TestRunQuery::sorts_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<bool>("descending");
    QTest::addColumn<Names>("systems");
    const Names importOrder{"A100 x8", "H100 x8", "A100 x4", "50%_off", ""};
    QTest::newRow("id") << int(RunColumn::Id) << false << importOrder;
    QTest::newRow("system") << int(RunColumn::System) << false
                            << Names{"", "50%_off", "A100 x4", "A100 x8", "H100 x8"};
    QTest::newRow("value desc") << int(RunColumn::Value) << true
                                << Names{"50%_off", "A100 x4", "A100 x8", "H100 x8", ""};
    // NULL batches first ascending (SQLite), ties by import order.
    QTest::newRow("batch") << int(RunColumn::GlobalBatch) << false
                           << Names{"50%_off", "", "A100 x4", "A100 x8", "H100 x8"};
    QTest::newRow("framework") << int(RunColumn::Framework) << false
                               << Names{"", "H100 x8", "A100 x8", "50%_off", "A100 x4"};
    QTest::newRow("kind") << int(RunColumn::Kind) << false
                          << Names{"A100 x4", "", "A100 x8", "H100 x8", "50%_off"};
    QTest::newRow("round desc") << int(RunColumn::Round) << true
                                << Names{"H100 x8", "A100 x8", "50%_off", "A100 x4", ""};
}

void TestRunQuery::sorts()
{
    QFETCH(int, column);
    QFETCH(bool, descending);
    QFETCH(Names, systems);
    RunQuery q(m_db);
    QCOMPARE(systemsOf(q, q.ids({}, {RunColumn(column), descending})), systems);
}

void TestRunQuery::rowsKeepOrder()
{
    RunQuery q(m_db);
    std::vector<std::int64_t> ids = q.ids({});
    std::reverse(ids.begin(), ids.end());
    ids.push_back(999); // not in the store: left out
    const std::vector<StoredRun> rows = q.rows(ids);
    QCOMPARE(rows.size(), std::size_t(5));
    QCOMPARE(rows.front().system, std::string());
    QCOMPARE(rows.front().row.benchmark, std::string("ssd"));
    QCOMPARE(rows.front().row.unit, std::string("min"));
    QVERIFY(!rows.front().row.measured);
    QCOMPARE(rows.back().system, std::string("A100 x8"));
    QCOMPARE(rows.back().gpus, std::optional<int>(8)); // "8", a CSV's text
    QVERIFY(!rows.front().gpus);
    const RunRecord a = rows.back().run();
    QCOMPARE(a.value, 30.5);
    QCOMPARE(a.globalBatch, std::optional<std::int64_t>(256));
    QCOMPARE(a.precision, std::string("fp16"));
    QCOMPARE(a.framework, std::string("PyTorch"));
    QCOMPARE(a.round, std::string("3.0"));
    QCOMPARE(a.date, std::string("2023-06-01"));
    QVERIFY(a.measured);
    QCOMPARE(q.benchmarks(), (Names{"bert", "resnet", "ssd"}));
}

void TestRunQuery::provenance()
{
    RunQuery q(m_db);
    const auto p = q.run(q.ids({})[1]);
    QVERIFY(p);
    QCOMPARE(p->sourcePath, m_csv);
    QCOMPARE(p->row.place, std::optional<std::string>("line 3"));
    QCOMPARE(p->sourceKind, std::string("generic_csv"));
    QCOMPARE(p->sourceSha256.size(), std::size_t(64));
    QVERIFY(!p->importedAt.empty());
    QCOMPARE(p->row.details, std::optional<std::string>(R"({"gpus":"8"})"));
    QVERIFY(!q.run(999));
}

void TestRunQuery::deleteThenRestoreIsExact()
{
    RunQuery q(m_db);
    const std::vector<std::int64_t> all = q.ids({});
    const std::vector<StoredRunRow> before = q.stored(all);
    QCOMPARE(before.size(), std::size_t(5));
    QVERIFY(!before[4].systemId); // the run without a system
    QVERIFY(!before[1].date);     // NULL, not ''
    QVERIFY(before[0].tags.has_value());

    const std::vector<std::int64_t> gone{all[4], all[1], all[0]};
    const std::vector<StoredRunRow> deleted = deleteRuns(m_db, gone);
    QCOMPARE(deleted.size(), std::size_t(3));
    QCOMPARE(deleted[0], before[0]);
    QCOMPARE(deleted[1], before[1]);
    QCOMPARE(deleted[2], before[4]);
    QCOMPARE(q.count(), std::int64_t(2));
    QCOMPARE(q.ids({}), (std::vector<std::int64_t>{all[2], all[3]}));

    restoreRuns(m_db, deleted);
    QCOMPARE(q.count(), std::int64_t(5));
    QCOMPARE(q.stored(q.ids({})), before);

    // Again, as redo after undo does.
    QCOMPARE(deleteRuns(m_db, gone), deleted);
    restoreRuns(m_db, deleted);
    QCOMPARE(q.stored(q.ids({})), before);
}

void TestRunQuery::restoreOfTakenIdChangesNothing()
{
    RunQuery q(m_db);
    const std::vector<std::int64_t> all = q.ids({});
    const std::vector<StoredRunRow> deleted = deleteRuns(m_db, {all[0], all[4]});
    {
        // SQLite hands the largest free id to the next insert: the deleted last run's id.
        Store store(m_db);
        RunRecord r;
        r.benchmark = "late";
        r.unit = "min";
        store.addRun(r, deleted.front().sourceId);
    }
    QCOMPARE(q.count(), std::int64_t(4));
    QCOMPARE(q.ids({}).back(), all[4]);
    QVERIFY_THROWS_EXCEPTION(StoreError, restoreRuns(m_db, deleted));
    // The first row, whose id was free, was rolled back with the one that failed.
    QCOMPARE(q.count(), std::int64_t(4));
    QVERIFY(q.stored({all[0]}).empty());
}

void TestRunQuery::refusesBadStores_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "missing"
                             << "no such experiment store";
    QTest::newRow("not SQLite") << "garbage"
                                << "not an SQLite database";
    QTest::newRow("truncated") << "truncated"
                               << "truncated";
    QTest::newRow("newer") << "newer"
                           << "schema version 99";
}

void TestRunQuery::refusesBadStores()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    const std::string path = m_dir->filePath(QStringLiteral("bad.sqlite")).toStdString();
    if (kind == QLatin1String("garbage")) {
        std::ofstream(path) << "hello, this is not a database\n";
    } else if (kind == QLatin1String("truncated")) {
        std::ifstream in(m_db, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream(path, std::ios::binary) << bytes.substr(0, 1000);
    } else if (kind == QLatin1String("newer")) {
        {
            Store store(path);
        }
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
    }
    try {
        RunQuery q(path);
        QFAIL("opened");
    } catch (const StoreError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(StoreError, deleteRuns(path, {1}));
}

QTEST_APPLESS_MAIN(TestRunQuery)
#include "tst_runquery.moc"
