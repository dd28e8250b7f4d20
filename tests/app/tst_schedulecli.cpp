// `composelab schedule TRACE --design DESIGN`: both ways in text and JSON, and bad input named.
#include "app/clirun.h"
#include "store/schedules.h"
#include "store/store.h"
#include "store/studies.h"
#include "util/fileio.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

class TestScheduleCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void seedTestbedBothWays();
    void stretch();
    void keptInTheStore();
    void generatedTrace();
    void badInput();

private:
    std::string path(const char *name) const
    {
        return m_dir.filePath(QString::fromUtf8(name)).toStdString();
    }
    std::string seed()
    {
        const std::string file = path("seed.clab");
        if (QFile::exists(QString::fromStdString(file)))
            return file;
        const auto r = test::run({"example", "seed-testbed", "--out", file});
        if (r.status != 0)
            qFatal("%s", r.err.c_str());
        return file;
    }
    QTemporaryDir m_dir;
};

void TestScheduleCli::seedTestbedBothWays()
{
    // The seed testbed's static servers have 4, 6, 1 and 1 GPUs. An 8-GPU job takes whole
    // servers there (B and A, 10 GPUs); the 2-GPU job after it fits on neither 1-GPU server, so
    // it waits 99 s for the 8-GPU job. The pool gives it two of the four free GPUs at once.
    const std::string trace = path("trace.csv");
    writeFileAtomically(trace, "submit_s,gpus,duration_s\n0,8,100\n1,2,100\n");
    auto r = test::run({"schedule", trace, "--design", seed(), "--json"});
    QVERIFY2(r.status == 0, r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("policy").get<std::string>(), std::string("fifo"));
    for (const char *way : {"static", "pool"}) {
        for (const char *key : {"utilisation", "mean_wait_s", "p95_wait_s", "mean_jct_s",
                                "never_fit", "fragmentation"})
            QVERIFY2(j.at(way).contains(key), key);
        QCOMPARE(j.at(way).at("gpus").get<int>(), 12);
    }
    QCOMPARE(j.at("static").at("mean_wait_s").get<double>(), (0 + 99) / 2.0);
    QVERIFY(j.at("pool").at("mean_wait_s").get<double>() < 31); // at most one recomposition

    r = test::run({"schedule", trace, "--design", seed(), "--policy", "backfill"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY2(r.out.find("2 jobs of") == 0, r.out.c_str());
    QVERIFY2(r.out.find("  static ") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("  pool ") != std::string::npos, r.out.c_str());

    // Both charts, drawn; a chart file of another kind is a usage error.
    const std::string busy = path("busy.png"), waits = path("waits.svg");
    r = test::run({"schedule", trace, "--design", seed(), "--chart", busy, "--wait-chart", waits});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY(QFileInfo(QString::fromStdString(busy)).size() > 10'000);
    QVERIFY(QFileInfo(QString::fromStdString(waits)).size() > 5'000);
    r = test::run({"schedule", trace, "--design", seed(), "--chart", path("busy.jpg")});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find(".png, .pdf or .svg") != std::string::npos, r.err.c_str());

    // Alibaba PAI's task table (a fixture in its layout): the jobs it leaves out are named.
    const std::string pai = path("pai_task_table.csv");
    writeFileAtomically(pai, "a,worker,2.0,Terminated,0.0,100.0,600.0,29.3,100.0,T4\n"
                             "b,worker,1.0,Failed,5.0,,600.0,29.3,100.0,T4\n"
                             "c,worker,20.0,Terminated,9.0,50.0,600.0,29.3,100.0,V100\n");
    r = test::run({"schedule", pai, "--design", seed(), "--format", "pai", "--json"});
    QVERIFY2(r.status == 0, r.err.c_str());
    const auto p = nlohmann::json::parse(r.out);
    QCOMPARE(p.at("static").at("jobs").get<int>(), 1);
    QVERIFY2(p.at("note").get<std::string>().find("1 jobs larger than the design's 12 GPUs, 1 "
                                                  "that did not finish")
                 != std::string::npos,
             r.out.c_str());
}

void TestScheduleCli::stretch()
{
    // Jobs that name a benchmark run for the model's time where their GPUs are; --no-stretch
    // and jobs naming none run as recorded; --benchmark gives the latter one.
    const std::string trace = path("bench.csv");
    writeFileAtomically(trace, "submit_s,gpus,duration_s,benchmark\n0,6,3600,bert_large\n"
                               "0,4,3600,\n");
    auto r = test::run({"schedule", trace, "--design", seed(), "--json"});
    QVERIFY2(r.status == 0, r.err.c_str());
    auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("stretch").get<bool>(), true);
    QCOMPARE(j.at("pool").at("stretched_jobs").get<int>(), 1);
    const double mean = j.at("pool").at("mean_stretch").get<double>();
    QVERIFY2(mean != 1 && mean > 0.5 && mean < 2, r.out.c_str());
    r = test::run({"schedule", trace, "--design", seed(), "--json", "--benchmark", "resnet"});
    QVERIFY2(r.status == 0, r.err.c_str());
    j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("pool").at("stretched_jobs").get<int>(), 2);
    r = test::run({"schedule", trace, "--design", seed(), "--json", "--no-stretch"});
    QVERIFY2(r.status == 0, r.err.c_str());
    j = nlohmann::json::parse(r.out);
    for (const char *way : {"static", "pool"}) {
        QCOMPARE(j.at(way).at("stretched_jobs").get<int>(), 0);
        QCOMPARE(j.at(way).at("mean_stretch").get<double>(), 1.0);
    }
    r = test::run({"schedule", trace, "--design", seed()});
    QVERIFY2(r.out.find("stretch: run time over the trace") != std::string::npos, r.out.c_str());

    // Unknown benchmarks: on the command line a usage error, in the trace its line and column.
    r = test::run({"schedule", trace, "--design", seed(), "--benchmark", "resnet-51"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("--benchmark: unknown benchmark \"resnet-51\" (known: ")
                 != std::string::npos,
             r.err.c_str());
    writeFileAtomically(trace, "submit_s,gpus,duration_s,benchmark\n0,1,10,resnet\n0,1,10,gpt5\n");
    r = test::run({"schedule", trace, "--design", seed()});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("bench.csv: line 3, column benchmark: unknown benchmark \"gpt5\"")
                 != std::string::npos,
             r.err.c_str());
}

void TestScheduleCli::keptInTheStore()
{
    // --db keeps both ways under the trace as a source; the same trace again adds rows under the
    // same source; merging stores carries them over.
    const std::string trace = path("kept.csv"), db = path("kept.sqlite");
    writeFileAtomically(trace, "submit_s,gpus,duration_s\n0,8,100\n1,2,100\n");
    auto r = test::run({"schedule", trace, "--design", seed(), "--db", db, "--json"});
    QVERIFY2(r.status == 0, r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    QVERIFY2(r.err.find("Stored both ways in") != std::string::npos, r.err.c_str());
    r = test::run({"schedule", trace, "--design", seed(), "--db", db, "--policy", "backfill"});
    QVERIFY2(r.status == 0, r.err.c_str());
    {
        store::Store s(db);
        QCOMPARE(s.count(store::Table::Sources), std::int64_t(1));
        const auto rows = store::schedules(s);
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[0].way, std::string("static"));
        QCOMPARE(rows[1].way, std::string("pool"));
        QCOMPARE(rows[2].policy, std::string("backfill"));
        QCOMPARE(rows[0].tracePath, trace);
        QCOMPARE(rows[0].meanWaitS, j.at("static").at("mean_wait_s").get<double>());
        QCOMPARE(rows[1].utilisation, j.at("pool").at("utilisation").get<double>());
        QCOMPARE(rows[0].gpus, std::int64_t(12));
        QVERIFY(!rows[0].ranAt.empty());
        QVERIFY(nlohmann::json::parse(rows[1].details).contains("asked_gpus_over_time"));
    }
    const std::string merged = path("merged.sqlite");
    const auto counts = store::mergeStores(merged, {db});
    QCOMPARE(counts.sources, 1);
    QCOMPARE(counts.schedules, std::int64_t(4));
    // Another store ran the same trace with other options: merged, its rows join those of the
    // trace already there; merged again, nothing is repeated.
    const std::string other = path("other.sqlite");
    r = test::run({"schedule", trace, "--design", seed(), "--db", other, "--recompose", "0"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QCOMPARE(store::mergeStores(merged, {other}).schedules, std::int64_t(2));
    QCOMPARE(store::mergeStores(merged, {other}).schedules, std::int64_t(0));
    store::Store m(merged);
    QCOMPARE(m.count(store::Table::Sources), std::int64_t(1));
    const auto rows = store::schedules(m);
    QCOMPARE(rows.size(), std::size_t(6));
    QCOMPARE(rows.back().recomposeS, 0.0);

    // A file that is not a store is refused and left as it was.
    const std::string notDb = path("notes.sqlite");
    writeFileAtomically(notDb, "my notes");
    r = test::run({"schedule", trace, "--design", seed(), "--db", notDb});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("--db: ") != std::string::npos
                 && r.err.find("not an SQLite") != std::string::npos,
             r.err.c_str());
    QCOMPARE(readTextFile(notDb), std::string("my notes"));
}

void TestScheduleCli::generatedTrace()
{
    // composelab trace draws a trace for the design's 12 GPUs that schedule reads and stretches.
    const std::string trace = path("helios.csv");
    auto r = test::run({"trace", "--design", seed(), "--out", trace, "--jobs", "300",
                        "--benchmarks", "resnet50,bert_large", "--diurnal", "--seed", "3"});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY2(r.out.find("Wrote 300 jobs to") == 0, r.out.c_str());
    const std::string text = readTextFile(trace);
    QVERIFY2(text.find("submit_s,gpus,duration_s,benchmark\n") == 0, text.c_str());
    r = test::run({"schedule", trace, "--design", seed(), "--json", "--policy", "backfill"});
    QVERIFY2(r.status == 0, r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j.at("pool").at("jobs").get<int>(), 300);
    QVERIFY(j.at("pool").at("stretched_jobs").get<int>() > 0);
    // The same seed writes the same file.
    const std::string again = path("again.csv");
    r = test::run({"trace", "--design", seed(), "--out", again, "--jobs", "300", "--benchmarks",
                   "resnet50,bert_large", "--diurnal", "--seed", "3"});
    QCOMPARE(readTextFile(again), text);

    // Usage: the GPUs one way, known benchmarks and clusters.
    r = test::run({"trace", "--out", again});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("--design DESIGN or --gpus N") != std::string::npos, r.err.c_str());
    r = test::run({"trace", "--gpus", "8", "--out", again, "--benchmarks", "resnet50,gpt5"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("unknown benchmark \"gpt5\"") != std::string::npos, r.err.c_str());
    r = test::run({"trace", "--gpus", "8", "--out", again, "--cluster", "philly"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("--cluster") != std::string::npos, r.err.c_str());
    QCOMPARE(readTextFile(again), text); // untouched by the refused runs
}

void TestScheduleCli::badInput()
{
    const std::string design = seed();
    const std::string trace = path("bad.csv");
    writeFileAtomically(trace, "submit_s,gpus,duration_s\n0,1,10\n-5,1,10\n");
    auto r = test::run({"schedule", trace, "--design", design});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("bad.csv: line 3, column 1 (submit_s)") != std::string::npos,
             r.err.c_str());
    writeFileAtomically(trace, "submit_s,gpus,duration_s\n0,1,1e300\n");
    r = test::run({"schedule", trace, "--design", design});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("line 2, column 3 (duration_s): expected a time in seconds from 0 to 1e10")
                 != std::string::npos,
             r.err.c_str());
    writeFileAtomically(trace, "submit_s,gpus,duration_s\n0,13,10\n");
    r = test::run({"schedule", trace, "--design", design});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("from 1 to the design's 12") != std::string::npos, r.err.c_str());

    // A design without a pool says what a pool needs.
    const std::string dgx = path("dgx.clab");
    QCOMPARE(test::run({"example", "dgx-a100-nvswitch", "--out", dgx}).status, 0);
    r = test::run({"schedule", trace, "--design", dgx});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("a pool is a chassis with GPUs in its slots") != std::string::npos,
             r.err.c_str());
    r = test::run({"schedule", trace, "--design", design, "--policy", "lottery"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("--policy") != std::string::npos, r.err.c_str());
    r = test::run({"schedule", path("missing.csv"), "--design", design});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.find("missing.csv") != std::string::npos, r.err.c_str());
}

QTEST_MAIN(TestScheduleCli)

#include "tst_schedulecli.moc"
