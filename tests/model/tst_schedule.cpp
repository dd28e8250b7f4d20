// Scheduling a job trace on static servers and on a composable pool (model/schedule):
// hand-worked traces on a two-host pool, the seed testbed's resources, and bad traces.
#include "catalog/catalog.h"
#include "charts/schedulecharts.h"
#include "design/examples.h"
#include "schedule/allocators.h"
#include "schedule/resources.h"
#include "schedule/simulate.h"
#include "schedule/trace.h"
#include "util/inputerror.h"

#include <QTest>

#include <numeric>

using namespace clab;
using namespace clab::schedule;

namespace {

// Two hosts linked to one chassis of four GPUs, two composed to each.
Resources twoHosts(std::vector<int> composed = {2, 2})
{
    Resources r;
    r.hosts = {"h0", "h1"};
    r.chassis = {"c0"};
    r.localGpus = {0, 0};
    r.pooledGpus = {4};
    r.composed = {composed};
    r.reachable = {{0}, {0}};
    return r;
}

Job job(double submit, int gpus, double duration)
{
    return {submit, gpus, duration, {}, {}, 0};
}

} // namespace

class TestSchedule : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void staticTakesWholeServers();
    void poolRecomposes();
    void neverFitOnStaticServers();
    void backfillDoesNotDelayTheFirst();
    void undoneTakeRecomposesNothing();
    void countPruneChangesNoSchedule();
    void seedTestbedResources();
    void paiTaskTable();
    void charts();
    void badTraces_data();
    void badTraces();
};

void TestSchedule::staticTakesWholeServers()
{
    // Servers of 2 and 2 GPUs. A 3-GPU job is larger than either: it takes both whole (4 GPUs)
    // for 100 s; the 1-GPU job waits until then (FIFO). Utilisation: the work asked for,
    // 3·100 + 1·100 GPU-seconds, over 4 GPUs · 200 s (the fourth GPU held idle is not work).
    const std::vector<Job> jobs = {job(0, 3, 100), job(0, 1, 100)};
    const Outcome o = simulate(jobs, twoHosts(), Mode::Static, {});
    QCOMPARE(o.gpus, 4);
    QCOMPARE(o.waitsS, (std::vector<double>{0, 100}));
    QCOMPARE(o.meanWaitS, 50.0);
    QCOMPARE(o.meanJctS, 150.0);
    QCOMPARE(o.spanS, 200.0);
    QCOMPARE(o.utilisation, 400.0 / 800);
    QCOMPARE(o.recompositions, 0);
    QCOMPARE(o.neverFit, 0);
}

void TestSchedule::poolRecomposes()
{
    // The pool gives the 3-GPU job host 0 with its two GPUs and one of host 1's, composed over
    // in 30 s: it runs 30..130. The 1-GPU job goes to host 1, whose other GPU is composed to it
    // already: 0..100. The same 400 GPU-seconds of work over 4 GPUs · 130 s.
    const std::vector<Job> jobs = {job(0, 3, 100), job(0, 1, 100)};
    Options opt;
    opt.recomposeS = 30;
    const Outcome o = simulate(jobs, twoHosts(), Mode::Pool, opt);
    QCOMPARE(o.waitsS, (std::vector<double>{30, 0}));
    QCOMPARE(o.meanJctS, 115.0);
    QCOMPARE(o.spanS, 130.0);
    QCOMPARE(o.utilisation, 400.0 / 520);
    QCOMPARE(o.busy.front(), std::make_pair(0.0, 4)); // both jobs hold what they asked for
    QCOMPARE(o.recompositions, 1);
    // GPUs stay composed where they ran: the same job again needs no recomposing.
    const Outcome again = simulate({job(0, 3, 100), job(200, 3, 100)}, twoHosts(), Mode::Pool, opt);
    QCOMPARE(again.recompositions, 1);
    QCOMPARE(again.waitsS, (std::vector<double>{30, 0}));
}

void TestSchedule::neverFitOnStaticServers()
{
    // One GPU composed to each host, two uncomposed: the static servers have 2 GPUs in all, so a
    // 3-GPU job never fits there; the pool composes the idle ones and runs it.
    const std::vector<Job> jobs = {job(0, 3, 10), job(0, 1, 10)};
    const Outcome fixed = simulate(jobs, twoHosts({1, 1}), Mode::Static, {});
    QCOMPARE(fixed.neverFit, 1);
    QCOMPARE(fixed.waitsS.size(), std::size_t(1));
    const Outcome pool = simulate(jobs, twoHosts({1, 1}), Mode::Pool, {});
    QCOMPARE(pool.neverFit, 0);
    QCOMPARE(pool.waitsS.size(), std::size_t(2));
}

void TestSchedule::backfillDoesNotDelayTheFirst()
{
    // Static servers of 2 and 2. A (2 GPUs, 0..100) takes one server; B (4 GPUs) needs both
    // whole and waits for A: it can start at 100. C (2 GPUs, 50 s) fits now and ends by 100
    // even with 30 s of composing allowed: backfill runs it at once, FIFO after B.
    const std::vector<Job> jobs = {job(0, 2, 100), job(1, 4, 100), job(2, 2, 50)};
    Options opt;
    const Outcome fifo = simulate(jobs, twoHosts(), Mode::Static, opt);
    QCOMPARE(fifo.waitsS, (std::vector<double>{0, 99, 198}));
    opt.policy = Policy::Backfill;
    const Outcome easy = simulate(jobs, twoHosts(), Mode::Static, opt);
    QCOMPARE(easy.waitsS, (std::vector<double>{0, 99, 0}));
    QVERIFY(easy.utilisation > fifo.utilisation);
    // Static servers never recompose: C may take up to the shadow time itself (80 s + 2 ≤ 100).
    QCOMPARE(
        simulate({job(0, 2, 100), job(1, 4, 100), job(2, 2, 80)}, twoHosts(), Mode::Static, opt)
            .waitsS,
        (std::vector<double>{0, 99, 0}));
    // Servers count, not only GPUs: on two 4-GPU servers with A (3) and B (3) running, H (4)
    // waits for A's server at 100 s. C (1 GPU, long) would go to that server and hold H back a
    // further 100 s: backfill must leave it waiting (the free GPU count alone would allow it).
    Resources two4 = twoHosts({4, 4});
    two4.pooledGpus = {8};
    const std::vector<Job> shapes
        = {job(0, 3, 100), job(0, 3, 200), job(1, 4, 100), job(2, 1, 1000)};
    const Outcome held = simulate(shapes, two4, Mode::Static, opt);
    QCOMPARE(held.waitsS[2], 99.0);
    opt.policy = Policy::Fifo;
    QCOMPARE(simulate(shapes, two4, Mode::Static, opt).waitsS[2], 99.0);
    opt.policy = Policy::Backfill;
    // A long C would delay B: backfill leaves it waiting.
    const Outcome late
        = simulate({job(0, 2, 100), job(1, 4, 100), job(2, 2, 500)}, twoHosts(), Mode::Static, opt);
    QCOMPARE(late.waitsS, (std::vector<double>{0, 99, 198}));
}

void TestSchedule::undoneTakeRecomposesNothing()
{
    // Backfill tries jobs on the pool and puts back those it does not start. Putting back must
    // not leave GPUs composed to the host that only tried them: host 0 tries 3 GPUs (its two and
    // one of host 1's), puts them back; host 1 then gets its own two without recomposing.
    const auto pool = composablePool(twoHosts());
    Holding tried;
    QVERIFY(pool->take(3, tried));
    QVERIFY(tried.recomposed);
    pool->undo(tried);
    QCOMPARE(pool->freeGpus(), 4);
    Holding a, b;
    QVERIFY(pool->take(2, a));
    QVERIFY(pool->take(2, b));
    QVERIFY(!a.recomposed);
    QVERIFY(!b.recomposed);
    // A job that ran and ended leaves its GPUs composed where it ran: the same 3-GPU take,
    // given back, leaves host 0 with three composed and host 1 with one, so a 3-GPU and a 1-GPU
    // job both start without recomposing.
    const auto ran = composablePool(twoHosts());
    Holding done;
    QVERIFY(ran->take(3, done));
    ran->give(done);
    Holding c, d;
    QVERIFY(ran->take(3, c)); // host 0: its three, none recomposed
    QVERIFY(!c.recomposed);
    QVERIFY(ran->take(1, d)); // host 1: its one
    QVERIFY(!d.recomposed);
}

void TestSchedule::countPruneChangesNoSchedule()
{
    // Backfill skips jobs by GPU count only where trying them could not succeed, so the
    // schedule is the same with and without the shortcut.
    // A first job larger than any server takes whole servers (8 + 8 + 1 for 17 GPUs): the GPUs
    // left over at its start are those beyond what it holds, not what it asked for. Hosts of
    // 8, 8, 8, 1; three jobs run 0..100; the 17-GPU job waits for them; the 8-GPU job behind
    // it fits the idle third server now and still leaves the first job its 17 at 100.
    Resources r;
    r.hosts = {"a", "b", "c", "d"};
    r.chassis = {"c0"};
    r.localGpus = {8, 8, 8, 1};
    r.pooledGpus = {0};
    r.composed = {{0, 0, 0, 0}};
    r.reachable = {{0}, {0}, {0}, {0}};
    Options backfill;
    backfill.policy = Policy::Backfill;
    const std::vector<Job> few
        = {job(0, 8, 100), job(0, 8, 100), job(0, 1, 100), job(1, 17, 100), job(1, 8, 1000)};
    QCOMPARE(simulate(few, r, Mode::Static, backfill).waitsS,
             (std::vector<double>{0, 0, 0, 99, 0}));
    // Random traces on random small designs, both ways: identical outcomes.
    std::uint64_t state = 12345;
    auto next = [&state](int n) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return int((state >> 33) % std::uint64_t(n));
    };
    for (int trial = 0; trial < 60; ++trial) {
        Resources d;
        const int hosts = 2 + next(4), chassis = 1 + next(2);
        for (int h = 0; h < hosts; ++h)
            d.hosts.push_back("h" + std::to_string(h));
        d.localGpus.assign(std::size_t(hosts), 0);
        d.composed.assign(std::size_t(chassis), std::vector<int>(std::size_t(hosts), 0));
        d.reachable.assign(std::size_t(hosts), {});
        for (int c = 0; c < chassis; ++c) {
            d.chassis.push_back("c" + std::to_string(c));
            d.pooledGpus.push_back(2 + next(8));
        }
        for (int h = 0; h < hosts; ++h) {
            d.localGpus[std::size_t(h)] = next(3);
            d.reachable[std::size_t(h)].push_back(next(chassis));
        }
        for (int c = 0; c < chassis; ++c) { // compose part of each chassis to hosts reaching it
            for (int g = 0; g < d.pooledGpus[std::size_t(c)]; ++g) {
                const int h = next(hosts);
                if (d.reachable[std::size_t(h)].front() == c && next(2) == 0)
                    ++d.composed[std::size_t(c)][std::size_t(h)];
            }
        }
        std::vector<Job> jobs;
        double t = 0;
        for (int i = 0; i < 150; ++i) {
            t += next(40);
            jobs.push_back(job(t, 1 + next(std::max(1, d.totalGpus() / 2)), 10 + next(400)));
        }
        for (Mode mode : {Mode::Static, Mode::Pool}) {
            Options exact = backfill;
            exact.countPrune = false;
            exact.recomposeS = next(2) ? 30 : 0;
            Options pruned = exact;
            pruned.countPrune = true;
            const Outcome a = simulate(jobs, d, mode, exact), b = simulate(jobs, d, mode, pruned);
            QVERIFY2(a.waitsS == b.waitsS, qPrintable(QStringLiteral("trial %1, %2")
                                                          .arg(trial)
                                                          .arg(QString::fromUtf8(modeName(mode)))));
            QCOMPARE(a.recompositions, b.recompositions);
        }
    }
}

void TestSchedule::seedTestbedResources()
{
    // The seed testbed: four hosts linked to one 16-slot chassis holding 12 GPUs, composed
    // 4 (A), 6 (B), 1 (C) and 1 (D); no local GPUs.
    const Resources r
        = resourcesOf(design::seedTestbed(), catalog::Catalog::builtin(), "seed.clab");
    QCOMPARE(r.hosts.size(), std::size_t(4));
    QCOMPARE(r.totalGpus(), 12);
    QCOMPARE(r.serverGpus(), (std::vector<int>{4, 6, 1, 1}));
    for (const auto &reach : r.reachable)
        QCOMPARE(reach, (std::vector<int>{0}));
    // A design without a chassis has no pool, and says what one needs.
    try {
        design::Design dgx;
        for (const auto &e : design::bundledExamples()) {
            if (e.fileName == "dgx-a100-nvswitch.clab")
                dgx = design::readDesign(e.text, e.fileName);
        }
        QVERIFY(!dgx.devices.empty());
        resourcesOf(dgx, catalog::Catalog::builtin(), "dgx.clab");
        QFAIL("no error");
    } catch (const InputError &e) {
        QCOMPARE(e.file(), std::string("dgx.clab"));
        QVERIFY2(std::string(e.what()).find("a pool is a chassis with GPUs") != std::string::npos,
                 e.what());
    }
}

void TestSchedule::paiTaskTable()
{
    // Rows in the published layout, without a header (a fixture written for this test):
    // job a: a worker task of 2 instances at 50 % of a GPU each and a ps task with none: 1 GPU,
    //        from 100 (first launch) to 400 (last end);
    // job b: 4 × 100 % = 4 GPUs, 160..220; job c failed; job d asked for CPUs only;
    // job e: 16 GPUs, more than the 12 the design has.
    const std::string table = "a,worker,2.0,Terminated,100.0,400.0,600.0,29.3,50.0,T4\n"
                              "a,ps,1.0,Terminated,120.0,390.0,400.0,10.0,,\n"
                              "b,worker,4.0,Terminated,160.0,220.0,600.0,29.3,100.0,V100\n"
                              "c,worker,1.0,Failed,170.0,,600.0,29.3,100.0,V100\n"
                              "d,tensorflow,1.0,Terminated,180.0,200.0,600.0,29.3,0.0,\n"
                              "e,worker,16.0,Terminated,190.0,290.0,600.0,29.3,100.0,V100\n";
    const PaiImport pai = readPaiTaskTable(table, "pai_task_table.csv", 12);
    QCOMPARE(pai.jobs.size(), std::size_t(2));
    QCOMPARE(pai.jobs[0].submitS, 0.0); // times start with the first job
    QCOMPARE(pai.jobs[0].gpus, 1);
    QCOMPARE(pai.jobs[0].durationS, 300.0);
    QCOMPARE(pai.jobs[1].submitS, 60.0);
    QCOMPARE(pai.jobs[1].gpus, 4);
    QCOMPARE(pai.jobs[1].durationS, 60.0);
    QCOMPARE(pai.notFinished, 1);
    QCOMPARE(pai.withoutGpus, 1);
    QCOMPARE(pai.tooLarge, 1);
    // The header line, when present, is taken as it is; a bad number is named with its place.
    const std::string header = "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,"
                               "plan_mem,plan_gpu,gpu_type\n";
    QCOMPARE(readPaiTaskTable(header + table, "t.csv", 12).jobs.size(), std::size_t(2));
    try {
        readPaiTaskTable("a,worker,x,Terminated,100.0,400.0,600.0,29.3,50.0,T4\n", "t.csv", 12);
        QFAIL("no error");
    } catch (const InputError &e) {
        QVERIFY2(std::string(e.what()).find("t.csv: line 1, column 3 (inst_num)")
                     != std::string::npos,
                 e.what());
    }
    // Read row by row: after the header and a blank line, the place is still the file's line.
    try {
        readPaiTaskTable(header + "\n" + "a,worker,1.0,Terminated,-5,400.0,600.0,29.3,50.0,T4\n",
                         "t.csv", 12);
        QFAIL("no error");
    } catch (const InputError &e) {
        QVERIFY2(std::string(e.what()).find("t.csv: line 3, column 5 (start_time)")
                     != std::string::npos,
                 e.what());
    }
}

void TestSchedule::charts()
{
    // Utilisation over time: 3 of 4 GPUs for the first 100 s, 1 for the next 100 (static, the
    // first hand-worked case): the first half of the stretches at 75 %, the second at 25 %, and
    // their mean is the run's utilisation. The waits' CDF ends at 100 %.
    const std::vector<Job> jobs = {job(0, 3, 100), job(0, 1, 100)};
    const Outcome fixed = simulate(jobs, twoHosts(), Mode::Static, {});
    const Outcome pool = simulate(jobs, twoHosts(), Mode::Pool, {});
    const charts::ChartData busy = charts::scheduleBusyChart(fixed, pool, "t");
    QCOMPARE(busy.series.size(), std::size_t(2));
    const auto &v = busy.series[0].values;
    QCOMPARE(v.size(), std::size_t(200));
    QCOMPARE(v.front(), 75.0);
    QCOMPARE(v.back(), 25.0);
    QCOMPARE(std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()), 100 * fixed.utilisation);
    // A span that does not divide evenly: 4 of 4 GPUs busy throughout is 100 % in every bin.
    Outcome full;
    full.gpus = 4;
    full.busy = {{0, 4}, {12345.678, 0}};
    const charts::ChartData always = charts::scheduleBusyChart(full, full, "t");
    for (double u : always.series[0].values)
        QVERIFY2(std::abs(u - 100) < 1e-6, qPrintable(QString::number(u)));
    const charts::ChartData cdf = charts::waitCdfChart(fixed, pool, "t");
    QCOMPARE(cdf.series[0].values.back(), 100.0);
    QCOMPARE(cdf.series[0].x.back(), 100.0); // the longest wait, 100 s
    QVERIFY(cdf.x.log);
}

void TestSchedule::badTraces_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expect");
    QTest::newRow("negative time") << "submit_s,gpus,duration_s\n0,1,10\n-5,1,10\n"
                                   << "t.csv: line 3, column 1 (submit_s): expected a time";
    QTest::newRow("not a number") << "gpus,submit_s,duration_s\n1,0,ten\n"
                                  << "line 2, column 3 (duration_s): expected a time in seconds";
    QTest::newRow("zero gpus") << "submit_s,gpus,duration_s\n0,0,10\n"
                               << "line 2, column 2 (gpus): expected a whole number of GPUs "
                                  "from 1 to the design's 12, got \"0\"";
    QTest::newRow("too many gpus") << "submit_s,gpus,duration_s\n0,13,10\n"
                                   << "got \"13\"";
    QTest::newRow("fraction of a gpu") << "submit_s,gpus,duration_s\n0,1.5,10\n"
                                       << "got \"1.5\"";
    QTest::newRow("missing column") << "submit,gpus,duration_s\n0,1,10\n"
                                    << "t.csv: line 1: no column \"submit_s\"";
}

void TestSchedule::badTraces()
{
    QFETCH(QString, text);
    QFETCH(QString, expect);
    try {
        readTrace(text.toStdString(), "t.csv", 12);
        QFAIL("no error");
    } catch (const InputError &e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(expect), e.what());
    }
    // A good one comes back sorted by submission, with its optional columns.
    const auto jobs
        = readTrace("submit_s,gpus,duration_s,benchmark\n50,2,10,bert\n5,1,20,\n", "t.csv", 12);
    QCOMPARE(jobs.size(), std::size_t(2));
    QCOMPARE(jobs[0].submitS, 5.0);
    QCOMPARE(jobs[1].benchmark, std::string("bert"));
    QCOMPARE(jobs[1].line, 2);
}

QTEST_APPLESS_MAIN(TestSchedule)

#include "tst_schedule.moc"
