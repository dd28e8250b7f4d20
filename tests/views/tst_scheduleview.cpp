// The Scheduling view (issue 17): a job trace run on the design's GPUs as static servers and as a
// composable pool, driven through its fields and buttons as a person would; the table's numbers
// are checked against model/schedule and against hand-worked runs of a small trace.
#include "catalog/catalog.h"
#include "charts/chartdata.h"
#include "design/examples.h"
#include "schedule/simulate.h"
#include "schedule/stretch.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "views/charts/chartwidget.h"
#include "views/schedule/scheduleview.h"

#include <QComboBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;
using views::ScheduleView;

namespace {

// On the seed testbed (12 GPUs in one chassis; static servers A, B, C, D of 4, 6, 1 and 1 GPUs),
// FIFO, 100 s jobs but the last:
//  - three 3-GPU jobs at 0, 0 and 2 s: static A, B, B; the pool gives each the host with the
//    most GPUs composed to it already (B, A, B), so no recomposition;
//  - a 2-GPU job at 3 s: static servers have 1 GPU free each (A, C, D), so it waits until A's
//    job ends at 100 s (97 s); the pool composes A's free GPU and C's to one host (a
//    recomposition);
//  - a 1-GPU job at 4 s: static FIFO holds it behind the 2-GPU job (96 s); the pool runs it on
//    D's GPU at once;
//  - a 12-GPU job at 300 s, 50 s: every static server is idle then; the pool composes all 12
//    to one host (the second recomposition).
const char *const kTrace = "submit_s,gpus,duration_s\n"
                           "0,3,100\n"
                           "0,3,100\n"
                           "2,3,100\n"
                           "3,2,100\n"
                           "4,1,100\n"
                           "300,12,50\n";

enum Column {
    Utilisation,
    MeanWait,
    P95Wait,
    MeanJct,
    NeverFit,
    Fragmentation,
    Recomposed,
    Stretch
};
enum Row { Static, Pool };

QString text(const ScheduleView &v, Row row, Column column)
{
    const QTableWidgetItem *item = v.table()->item(row, column);
    return item ? item->text() : QString();
}

double number(const ScheduleView &v, Row row, Column column)
{
    const QTableWidgetItem *item = v.table()->item(row, column);
    return item ? item->data(Qt::UserRole).toDouble() : -1;
}

// Whether the two chart tabs can be chosen (they wait for a run).
bool chartsEnabled(const ScheduleView &v)
{
    const auto *tabs = v.findChild<QTabWidget *>();
    return tabs && tabs->isTabEnabled(tabs->indexOf(v.busyChart()))
           && tabs->isTabEnabled(tabs->indexOf(v.waitChart()));
}

// Does `action` and waits until the view shows the run it leads to (on a worker thread, after
// the re-run pause for a change of the fields or the design).
template<typename Action>
bool settle(ScheduleView &v, Action action)
{
    QSignalSpy spy(&v, &ScheduleView::updated);
    action();
    return QTest::qWaitFor([&] { return spy.count() > 0 && !v.busy() && !v.rerunPending(); },
                           60'000);
}

void typeInto(QSpinBox *spin, const QString &value)
{
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, value);
    QTest::keyClick(spin, Qt::Key_Return);
}

} // namespace

class TestScheduleView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void emptyStateSaysWhatToLoad();
    void poolRunsWhatStaticServersQueue();
    void followsTheDesignsGpus();
    void badTraceNamesTheLine();
    void paiTaskTable();
    void stretchesJobsNamingABenchmark();
    void exportsTheTabShown();

private:
    QString write(const char *name, const std::string &contents)
    {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        writeFileAtomically(path.toStdString(), contents);
        return path;
    }
    // A view on the seed testbed, shown, with `trace` chosen; nothing run yet.
    std::unique_ptr<ScheduleView> seedView(const QString &trace)
    {
        auto v = std::make_unique<ScheduleView>();
        v->setDesign(design::seedTestbed(), QStringLiteral("seed-testbed.clab"));
        v->setTrace(trace);
        v->resize(1000, 500);
        v->show();
        if (!QTest::qWaitForWindowExposed(v.get()))
            return nullptr;
        return v;
    }
    QTemporaryDir m_settings;
    QTemporaryDir m_dir;
};

void TestScheduleView::initTestCase()
{
    // Keep the user's real settings out of the tests (the view remembers its trace).
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QSettings().clear();
}

void TestScheduleView::emptyStateSaysWhatToLoad()
{
    ScheduleView v;
    v.setDesign(design::seedTestbed(), QStringLiteral("seed-testbed.clab"));
    QVERIFY2(
        v.message().contains(QLatin1String("Load a job trace (CSV: submit_s,gpus,duration_s)")),
        qPrintable(v.message()));
    auto *run = v.findChild<QPushButton *>(QStringLiteral("run"));
    QVERIFY(run);
    QVERIFY(!run->isEnabled());
    QVERIFY(!v.table()->item(Static, MeanWait));
    QVERIFY(!v.rerunPending()); // without a trace a design change runs nothing
    QVERIFY(!v.busy());
}

void TestScheduleView::poolRunsWhatStaticServersQueue()
{
    const QString trace = write("trace.csv", kTrace);
    const auto v = seedView(trace);
    QVERIFY(v);
    QCOMPARE(v->format(), ScheduleView::Format::Csv);
    QVERIFY2(v->message().contains(QLatin1String("Press Run to schedule trace.csv")),
             qPrintable(v->message()));
    auto *recompose = v->findChild<QSpinBox *>(QStringLiteral("recompose"));
    auto *policy = v->findChild<QComboBox *>(QStringLiteral("policy"));
    auto *run = v->findChild<QPushButton *>(QStringLiteral("run"));
    QVERIFY(recompose && policy && run);
    QCOMPARE(recompose->value(), 30);
    // Instant recomposition first: then the pool never makes a job wait.
    typeInto(recompose, QStringLiteral("0"));
    QCOMPARE(recompose->value(), 0);
    QVERIFY(!v->rerunPending()); // nothing has run yet: Run runs it
    QVERIFY(!chartsEnabled(*v));
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));

    // The model's own numbers, cell by cell.
    const design::Design seed = design::seedTestbed();
    const schedule::Resources resources
        = schedule::resourcesOf(seed, catalog::Catalog::builtin(), "seed-testbed.clab");
    const auto jobs = schedule::readTrace(kTrace, "trace.csv", resources.totalGpus());
    schedule::Options options;
    options.recomposeS = 0;
    const schedule::Outcome ways[]
        = {schedule::simulate(jobs, resources, schedule::Mode::Static, options),
           schedule::simulate(jobs, resources, schedule::Mode::Pool, options)};
    for (Row row : {Static, Pool}) {
        const schedule::Outcome &o = ways[row];
        QCOMPARE(number(*v, row, Utilisation), 100 * o.utilisation);
        QCOMPARE(number(*v, row, MeanWait), o.meanWaitS);
        QCOMPARE(number(*v, row, P95Wait), o.p95WaitS);
        QCOMPARE(number(*v, row, MeanJct), o.meanJctS);
        QCOMPARE(number(*v, row, NeverFit), double(o.neverFit));
        QCOMPARE(number(*v, row, Fragmentation), 100 * o.fragmentation);
        QCOMPARE(number(*v, row, Recomposed), double(o.recompositions));
        QCOMPARE(number(*v, row, Stretch), 1.0); // no job names a benchmark
    }
    // And by hand. Static waits 0, 0, 0, 97, 96, 0: mean 193/6; P95 between the 5th and 6th
    // of six sorted, 96 + 0.75 × (97 − 96).
    QCOMPARE(text(*v, Static, MeanWait), QStringLiteral("32.2"));
    QCOMPARE(text(*v, Static, P95Wait), QStringLiteral("96.8"));
    QCOMPARE(text(*v, Static, MeanJct), QStringLiteral("123.8")); // (3×100 + 197 + 196 + 50)/6
    QCOMPARE(text(*v, Pool, MeanWait), QStringLiteral("0.0"));
    QCOMPARE(text(*v, Pool, P95Wait), QStringLiteral("0.0"));
    QCOMPARE(text(*v, Pool, MeanJct), QStringLiteral("91.7")); // (5×100 + 50)/6
    // 1,800 GPU-seconds over 12 GPUs × 350 s both ways.
    QCOMPARE(text(*v, Static, Utilisation), QStringLiteral("42.9"));
    QCOMPARE(text(*v, Pool, Utilisation), QStringLiteral("42.9"));
    // Static: 3 GPUs free while jobs waited from 3 s to 100 s: 291 / 4,200 GPU-seconds.
    QCOMPARE(text(*v, Static, Fragmentation), QStringLiteral("6.9"));
    QCOMPARE(text(*v, Pool, Fragmentation), QStringLiteral("0.0"));
    QCOMPARE(text(*v, Static, Recomposed), QStringLiteral("0"));
    QCOMPARE(text(*v, Pool, Recomposed), QStringLiteral("2"));
    QCOMPARE(text(*v, Static, NeverFit), QStringLiteral("0"));
    QVERIFY2(v->message().startsWith(QLatin1String("6 job(s) of trace.csv on Seed composable "
                                                   "testbed: 12 GPUs as 4 static servers")),
             qPrintable(v->message()));

    // The two charts, both ways each.
    QVERIFY(chartsEnabled(*v));
    QCOMPARE(v->busyChart()->chart().series.size(), std::size_t(2));
    QCOMPARE(v->busyChart()->chart().series[0].name, std::string("static servers"));
    QCOMPARE(v->waitChart()->chart().series[1].name, std::string("composable pool"));
    QCOMPARE(v->busyChart()->chart().title,
             std::string("GPU utilisation on Seed composable testbed, FIFO"));
    // Every pool job waited at most the 1 s the chart draws zero waits at.
    QCOMPARE(v->waitChart()->chart().series[1].x.back(), 1.0);

    // A 30 s recomposition runs again by itself: the pool's two recomposed jobs wait 30 s each.
    QVERIFY(settle(*v, [&] { typeInto(recompose, QStringLiteral("30")); }));
    QCOMPARE(text(*v, Pool, MeanWait), QStringLiteral("10.0"));
    QCOMPARE(text(*v, Pool, P95Wait), QStringLiteral("30.0"));
    QCOMPARE(text(*v, Static, MeanWait), QStringLiteral("32.2")); // static servers never recompose

    // EASY backfill lets the 1-GPU job past the waiting 2-GPU one (A frees 4 GPUs at 100 s, when
    // the 2-GPU job can start anyway): static waits 0, 0, 0, 97, 0, 0.
    QVERIFY(settle(*v, [&] { QTest::keyClick(policy, Qt::Key_Down); }));
    QCOMPARE(policy->currentText(), QStringLiteral("EASY backfill"));
    QCOMPARE(text(*v, Static, MeanWait), QStringLiteral("16.2"));
    QVERIFY(QString::fromStdString(v->waitChart()->chart().title)
                .endsWith(QLatin1String(", EASY backfill")));

    // The trace is remembered for the next start.
    QCOMPARE(ScheduleView().tracePath(), trace);
}

void TestScheduleView::followsTheDesignsGpus()
{
    const auto v = seedView(write("follow.csv", kTrace));
    QVERIFY(v);
    auto *run = v->findChild<QPushButton *>(QStringLiteral("run"));
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));
    QCOMPARE(text(*v, Static, MeanWait), QStringLiteral("32.2"));

    // Moving items or editing the description changes nothing the scheduler sees: no run.
    design::Design d = design::seedTestbed();
    d.description += " (edited)";
    d.layout.clear();
    v->setDesign(d, QStringLiteral("seed-testbed.clab"));
    QVERIFY(!v->rerunPending());
    QVERIFY(!v->busy());

    // Host C's GPU taken out of its system: three static servers now, and the view runs the
    // trace again by itself.
    for (auto &s : d.systems)
        std::erase(s.devices, std::string("gpu11"));
    bool pending = false;
    QVERIFY(settle(*v, [&] {
        v->setDesign(d, QStringLiteral("seed-testbed.clab"));
        pending = v->rerunPending();
    }));
    QVERIFY(pending);
    QVERIFY2(v->message().contains(QLatin1String("as 3 static servers")), qPrintable(v->message()));

    // A design without a pool says what a pool needs, and shows no stale numbers.
    design::Design dgx;
    for (const design::Example &e : design::bundledExamples()) {
        if (e.fileName == "dgx-a100-nvswitch.clab")
            dgx = design::readDesign(e.text, e.fileName);
    }
    QVERIFY(!dgx.hosts.empty());
    QVERIFY(settle(*v, [&] { v->setDesign(dgx, QStringLiteral("dgx-a100-nvswitch.clab")); }));
    QVERIFY2(v->message().contains(QLatin1String("dgx-a100-nvswitch.clab: no pool to schedule on: "
                                                 "a pool is a chassis with GPUs in its slots")),
             qPrintable(v->message()));
    QVERIFY(!v->table()->item(Static, MeanWait));
    QVERIFY(v->busyChart()->chart().series.empty());
    QVERIFY(!chartsEnabled(*v));
}

void TestScheduleView::badTraceNamesTheLine()
{
    const QString bad = write("bad.csv", "submit_s,gpus,duration_s\n0,1,10\n-5,1,10\n");
    const auto v = seedView(bad);
    QVERIFY(v);
    auto *run = v->findChild<QPushButton *>(QStringLiteral("run"));
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));
    QVERIFY2(v->message().contains(QLatin1String("bad.csv: line 3, column 1 (submit_s): expected "
                                                 "a time in seconds from 0 to 1e10")),
             qPrintable(v->message()));
    QVERIFY(!v->table()->item(Static, MeanWait));
    QVERIFY(!chartsEnabled(*v));

    // More GPUs than the design has.
    write("bad.csv", "submit_s,gpus,duration_s\n0,13,10\n");
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));
    QVERIFY2(v->message().contains(QLatin1String("line 2, column 2 (gpus)")),
             qPrintable(v->message()));
    QVERIFY2(v->message().contains(QLatin1String("from 1 to the design's 12")),
             qPrintable(v->message()));

    // Mended, Run reads it again.
    write("bad.csv", "submit_s,gpus,duration_s\n0,12,10\n");
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));
    QCOMPARE(text(*v, Static, MeanWait), QStringLiteral("0.0"));
    QCOMPARE(text(*v, Static, Utilisation), QStringLiteral("100.0"));
    QVERIFY(chartsEnabled(*v));

    // A trace gone from the disk.
    QVERIFY(QFile::remove(bad));
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));
    QVERIFY2(v->message().contains(QLatin1String("bad.csv")), qPrintable(v->message()));
    QVERIFY(!v->table()->item(Static, MeanWait));
}

void TestScheduleView::paiTaskTable()
{
    // Alibaba PAI's task table, without its header: job a (2 GPUs, 100 s) runs; b did not finish
    // and c asks for 20 GPUs, more than the seed testbed's 12.
    const QString pai
        = write("pai_task_table.csv", "a,worker,2.0,Terminated,0.0,100.0,600.0,29.3,100.0,T4\n"
                                      "b,worker,1.0,Failed,5.0,,600.0,29.3,100.0,T4\n"
                                      "c,worker,20.0,Terminated,9.0,50.0,600.0,29.3,100.0,V100\n");
    const auto v = seedView(pai);
    QVERIFY(v);
    QCOMPARE(v->format(), ScheduleView::Format::Pai); // guessed from the file name
    auto *run = v->findChild<QPushButton *>(QStringLiteral("run"));
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));
    QVERIFY2(v->message().startsWith(QLatin1String("1 job(s) of pai_task_table.csv")),
             qPrintable(v->message()));
    QVERIFY2(v->message().contains(QLatin1String("1 jobs larger than the design's 12 GPUs, 1 that "
                                                 "did not finish")),
             qPrintable(v->message()));
    // 2 GPUs for 100 s of 12 × 100 s; the 2 GPUs composed to B already, no wait either way.
    QCOMPARE(text(*v, Static, Utilisation), QStringLiteral("16.7"));
    QCOMPARE(text(*v, Pool, MeanWait), QStringLiteral("0.0"));

    // Read as a plain CSV trace it has no header to find.
    auto *format = v->findChild<QComboBox *>(QStringLiteral("format"));
    QVERIFY(settle(*v, [&] { QTest::keyClick(format, Qt::Key_Up); }));
    QCOMPARE(v->format(), ScheduleView::Format::Csv);
    QVERIFY2(v->message().contains(QLatin1String("no column \"submit_s\"")),
             qPrintable(v->message()));
}

void TestScheduleView::stretchesJobsNamingABenchmark()
{
    // The hand-worked trace with BERT-Large named for the three 3-GPU jobs: their run times
    // stretch by the model as composelab schedule stretches them, the others run as recorded.
    const std::string trace = "submit_s,gpus,duration_s,benchmark\n"
                              "0,3,100,bert_large\n"
                              "0,3,100,bert_large\n"
                              "2,3,100,bert_large\n"
                              "3,2,100,\n"
                              "4,1,100,\n"
                              "300,12,50,\n";
    const auto v = seedView(write("bert.csv", trace));
    QVERIFY(v);
    auto *run = v->findChild<QPushButton *>(QStringLiteral("run"));
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));

    const design::Design seed = design::seedTestbed();
    const schedule::Resources resources
        = schedule::resourcesOf(seed, catalog::Catalog::builtin(), "seed-testbed.clab");
    const auto jobs = schedule::readTrace(trace, "bert.csv", resources.totalGpus());
    const auto ways = schedule::runBothWays(jobs, seed, resources, {}, true, {}, "bert.csv");
    const schedule::Outcome *expected[] = {&ways.fixed, &ways.pool};
    for (Row row : {Static, Pool}) {
        QCOMPARE(number(*v, row, Stretch), expected[row]->meanStretch);
        QCOMPARE(number(*v, row, MeanJct), expected[row]->meanJctS);
        // Three of six jobs stretched, by a factor away from 1: the mean moved.
        QCOMPARE(expected[row]->stretched, 3);
        QVERIFY(std::abs(number(*v, row, Stretch) - 1) > 1e-3);
    }
    QVERIFY2(v->message().contains(QLatin1String("Run times stretched by the model")),
             qPrintable(v->message()));
}

void TestScheduleView::exportsTheTabShown()
{
    const auto v = seedView(write("export.csv", kTrace));
    QVERIFY(v);
    auto *run = v->findChild<QPushButton *>(QStringLiteral("run"));
    auto *exportButton = v->findChild<QPushButton *>(QStringLiteral("export"));
    QVERIFY(run && exportButton);
    QVERIFY(!exportButton->isEnabled()); // nothing to export before a run
    QVERIFY(settle(*v, [&] { QTest::mouseClick(run, Qt::LeftButton); }));
    QVERIFY(exportButton->isEnabled());

    // The comparison as CSV, the numbers unrounded: static mean wait 193/6 s (hand-worked above).
    QString error;
    const QString table = m_dir.filePath(QStringLiteral("comparison.csv"));
    QVERIFY2(v->exportTo(table, 96, &error), qPrintable(error));
    const CsvTable csv = CsvTable::parse(readTextFile(table.toStdString()), "comparison.csv");
    QCOMPARE(csv.rowCount(), std::size_t(2));
    QCOMPARE(csv.field(0, "way"), std::string("static servers"));
    QCOMPARE(std::stod(csv.field(0, "Mean wait (s)")), 193.0 / 6);
    QCOMPARE(std::stod(csv.field(1, "Recompositions")), 2.0);
    QCOMPARE(std::stod(csv.field(1, "Mean stretch")), 1.0);
    // A table is not an image: the message says what to do.
    QVERIFY(!v->exportTo(m_dir.filePath(QStringLiteral("comparison.png")), 96, &error));
    QVERIFY2(error.contains(QLatin1String("export it as .csv")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("comparison.png"))));

    // The chart tab shown, as a drawing and as its data.
    auto *tabs = v->findChild<QTabWidget *>();
    tabs->setCurrentWidget(v->busyChart());
    const QString svg = m_dir.filePath(QStringLiteral("busy.svg"));
    QVERIFY2(v->exportTo(svg, 96, &error), qPrintable(error));
    QVERIFY(readTextFile(svg.toStdString()).find("<svg") != std::string::npos);
    const QString data = m_dir.filePath(QStringLiteral("busy.csv"));
    QVERIFY2(v->exportTo(data, 96, &error), qPrintable(error));
    QCOMPARE(readTextFile(data.toStdString()), charts::toCsv(v->busyChart()->chart()));
    // A folder that does not exist: an error naming the file, nothing written.
    QVERIFY(!v->exportTo(m_dir.filePath(QStringLiteral("no/such/busy.png")), 96, &error));
    QVERIFY2(error.contains(QLatin1String("busy.png")), qPrintable(error));
}

QTEST_MAIN(TestScheduleView)
#include "tst_scheduleview.moc"
