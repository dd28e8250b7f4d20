#include "views/schedule/scheduleview.h"

#include "catalog/catalog.h"
#include "charts/schedulecharts.h"
#include "design/design.h"
#include "schedule/simulate.h"
#include "schedule/stretch.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartwidget.h"
#include "views/common/qtext.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

#include <iterator>
#include <memory>

namespace clab::views {

// What a worker hands back: both ways' outcomes and charts, or why the trace did not run.
struct ScheduleView::Result
{
    int generation = 0;
    QString error;
    // What was run, for the message: the fields may have changed while it ran.
    QString trace, design, policy;
    int servers = 0, recomposeS = 0;
    int jobs = 0;
    std::optional<schedule::PaiImport> pai; // its counts of jobs left out (jobs moved out)
    schedule::Outcome fixed, pool;
    charts::ChartData busyChart, waitChart;
};

namespace {

const char *const kTraceKey = "schedule/trace";
const char *const kFolderKey = "schedule/traceFolder";

// The table's columns, as `composelab schedule` prints them.
struct Column
{
    const char *name;
    const char *toolTip;
    double (*value)(const schedule::Outcome &);
    int decimals;
};
const Column kColumns[] = {
    {QT_TR_NOOP("Utilisation (%)"),
     QT_TR_NOOP("GPU-seconds the jobs asked for and ran, over all the design's GPUs from the "
                "first submission to the last end"),
     [](const schedule::Outcome &o) { return 100 * o.utilisation; }, 1},
    {QT_TR_NOOP("Mean wait (s)"),
     QT_TR_NOOP("Submission to the start of the run, a recomposition included"),
     [](const schedule::Outcome &o) { return o.meanWaitS; }, 1},
    {QT_TR_NOOP("P95 wait (s)"), QT_TR_NOOP("95 % of the jobs that ran waited at most this long"),
     [](const schedule::Outcome &o) { return o.p95WaitS; }, 1},
    {QT_TR_NOOP("Mean JCT (s)"), QT_TR_NOOP("Job completion time: submission to end"),
     [](const schedule::Outcome &o) { return o.meanJctS; }, 1},
    {QT_TR_NOOP("Never fit"),
     QT_TR_NOOP("Jobs that could not run even on an empty system of this kind"),
     [](const schedule::Outcome &o) { return double(o.neverFit); }, 0},
    {QT_TR_NOOP("Fragmentation (%)"),
     QT_TR_NOOP("GPU-seconds left free while jobs waited, over all the design's GPUs from the "
                "first submission to the last end"),
     [](const schedule::Outcome &o) { return 100 * o.fragmentation; }, 1},
    {QT_TR_NOOP("Recompositions"),
     QT_TR_NOOP("Jobs that waited for GPUs to be composed to their host"),
     [](const schedule::Outcome &o) { return double(o.recompositions); }, 0},
    {QT_TR_NOOP("Mean stretch"),
     QT_TR_NOOP("Run time over the trace's duration, mean over the jobs that ran: the performance "
                "model's step time where a job's GPUs ended up over where the trace measured it "
                "(jobs naming a benchmark; 1 for the others)"),
     [](const schedule::Outcome &o) { return o.meanStretch; }, 3},
};

bool sameResources(const std::optional<schedule::Resources> &a,
                   const std::optional<schedule::Resources> &b)
{
    if (!a || !b)
        return !a && !b;
    return a->hosts == b->hosts && a->chassis == b->chassis && a->localGpus == b->localGpus
           && a->pooledGpus == b->pooledGpus && a->composed == b->composed
           && a->reachable == b->reachable;
}

} // namespace

ScheduleView::ScheduleView(QWidget *parent)
    : QWidget(parent)
    , m_traceButton(new QPushButton(tr("Trace...")))
    , m_traceLabel(new QLabel)
    , m_format(new QComboBox)
    , m_policy(new QComboBox)
    , m_recompose(new QSpinBox)
    , m_run(new QPushButton(tr("Run")))
    , m_export(new QPushButton(tr("Export...")))
    , m_progress(new QProgressBar)
    , m_message(new QLabel)
    , m_tabs(new QTabWidget)
    , m_table(new QTableWidget(2, int(std::size(kColumns))))
    , m_busyChart(new ChartWidget)
    , m_waitChart(new ChartWidget)
{
    // Names the tests find the fields by.
    m_traceButton->setObjectName(QStringLiteral("trace"));
    m_format->setObjectName(QStringLiteral("format"));
    m_policy->setObjectName(QStringLiteral("policy"));
    m_recompose->setObjectName(QStringLiteral("recompose"));
    m_run->setObjectName(QStringLiteral("run"));
    m_export->setObjectName(QStringLiteral("export"));
    m_export->setToolTip(tr("Save the tab shown: a chart as PNG, PDF, SVG or CSV, the comparison "
                            "as CSV"));
    m_export->setEnabled(false);
    m_traceButton->setToolTip(tr("A job trace: CSV with submit_s,gpus,duration_s, or Alibaba "
                                 "PAI's pai_task_table.csv"));
    m_format->addItem(tr("CSV (submit_s,gpus,duration_s)"));
    m_format->addItem(tr("Alibaba PAI task table"));
    m_format->setToolTip(tr("Alibaba PAI: cluster-trace-gpu-v2020's pai_task_table.csv, with or "
                            "without its header"));
    m_policy->addItem(tr("FIFO"));
    m_policy->addItem(tr("EASY backfill"));
    m_policy->setToolTip(tr("FIFO starts jobs in submission order; backfill also starts later "
                            "jobs that do not delay the first waiting one"));
    m_recompose->setRange(0, 86'400);
    m_recompose->setValue(30);
    m_recompose->setSuffix(tr(" s"));
    m_recompose->setKeyboardTracking(false); // typing 120 is one run, not three
    m_recompose->setToolTip(tr("Seconds to compose GPUs to another host: the pool holds a job "
                               "this long when it takes GPUs composed elsewhere"));
    m_run->setEnabled(false);
    m_progress->setRange(0, 0); // busy, without a measure of how far
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(100);
    QSizePolicy keepRoom = m_progress->sizePolicy(); // the fields stay put while it comes and goes
    keepRoom.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(keepRoom);
    m_progress->hide();
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QStringList headers;
    for (const Column &c : kColumns)
        headers << tr(c.name);
    m_table->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < m_table->columnCount(); ++c)
        m_table->horizontalHeaderItem(c)->setToolTip(tr(kColumns[c].toolTip));
    m_table->setVerticalHeaderLabels({tr("Static servers"), tr("Composable pool")});
    m_table->verticalHeaderItem(0)->setToolTip(
        tr("Each host a server with the GPUs composed to it now"));
    m_table->verticalHeaderItem(1)->setToolTip(
        tr("Any GPU a host reaches, composed to it when a job needs it"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tabs->addTab(m_table, tr("Comparison"));
    m_tabs->addTab(m_busyChart, tr("Utilisation over time"));
    m_tabs->addTab(m_waitChart, tr("Queueing delay"));

    auto *options = new QHBoxLayout;
    options->addWidget(m_traceButton);
    options->addWidget(m_traceLabel, 1);
    options->addWidget(new QLabel(tr("Format")));
    options->addWidget(m_format);
    options->addWidget(new QLabel(tr("Policy")));
    options->addWidget(m_policy);
    options->addWidget(new QLabel(tr("Recomposition")));
    options->addWidget(m_recompose);
    options->addWidget(m_run);
    options->addWidget(m_export);
    options->addWidget(m_progress);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(options);
    layout->addWidget(m_message);
    layout->addWidget(m_tabs, 1);

    m_rerun.setSingleShot(true);
    m_rerun.setInterval(kRerunDelayMs);
    connect(&m_rerun, &QTimer::timeout, this, &ScheduleView::run);
    connect(m_traceButton, &QPushButton::clicked, this, &ScheduleView::chooseTrace);
    connect(m_run, &QPushButton::clicked, this, &ScheduleView::run);
    connect(m_export, &QPushButton::clicked, this, &ScheduleView::exportWithDialog);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ScheduleView::rerunLater);
    connect(m_policy, &QComboBox::currentIndexChanged, this, &ScheduleView::rerunLater);
    connect(m_recompose, &QSpinBox::valueChanged, this, &ScheduleView::rerunLater);

    clearResults();
    const QString last = QSettings().value(QLatin1String(kTraceKey)).toString();
    if (!last.isEmpty() && QFileInfo::exists(last))
        setTrace(last);
    else
        showHint();
}

ScheduleView::~ScheduleView() = default;

void ScheduleView::setDesign(const design::Design &design, const QString &source)
{
    std::optional<schedule::Resources> resources;
    QString error;
    try {
        resources
            = schedule::resourcesOf(design, catalog::Catalog::builtin(), source.toStdString());
    } catch (const std::exception &e) {
        error = toQString(e.what());
    }
    const bool same = design.name == m_designName && error == m_designError
                      && sameResources(resources, m_resources);
    m_designName = design.name;
    m_design = std::make_shared<const design::Design>(design);
    m_resources = std::move(resources);
    m_designError = error;
    if (!same)
        rerunLater();
}

void ScheduleView::setTrace(const QString &path)
{
    m_tracePath = path;
    m_active = false;
    ++m_generation; // a run of the previous trace still under way shows nothing
    QSettings().setValue(QLatin1String(kTraceKey), path);
    const QFileInfo file(path);
    m_traceLabel->setText(file.fileName());
    m_traceLabel->setToolTip(QDir::toNativeSeparators(file.absoluteFilePath()));
    m_format->setCurrentIndex(
        int(file.fileName().contains(QLatin1String("pai"), Qt::CaseInsensitive) ? Format::Pai
                                                                                : Format::Csv));
    m_run->setEnabled(true);
    clearResults();
    showHint();
}

ScheduleView::Format ScheduleView::format() const
{
    return Format(m_format->currentIndex());
}

QString ScheduleView::message() const
{
    return m_message->text();
}

void ScheduleView::chooseTrace()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open job trace"),
        settings.value(QLatin1String(kFolderKey), QFileInfo(m_tracePath).absolutePath()).toString(),
        tr("Job traces (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QLatin1String(kFolderKey), QFileInfo(path).absolutePath());
    setTrace(path);
    run();
}

void ScheduleView::rerunLater()
{
    if (m_active)
        m_rerun.start();
    else
        showHint();
}

void ScheduleView::run()
{
    m_rerun.stop();
    if (m_tracePath.isEmpty()) {
        showHint();
        return;
    }
    m_active = true;
    const int generation = ++m_generation;
    if (!m_resources) {
        clearResults();
        showError(m_designError.isEmpty() ? tr("Open a design to run the trace on.")
                                          : m_designError);
        Q_EMIT updated();
        return;
    }
    const QString path = m_tracePath;
    const bool pai = format() == Format::Pai;
    schedule::Options options;
    options.policy
        = m_policy->currentIndex() == 1 ? schedule::Policy::Backfill : schedule::Policy::Fifo;
    options.recomposeS = m_recompose->value();
    const schedule::Resources resources = *m_resources;
    const std::shared_ptr<const design::Design> design = m_design;
    auto asked = std::make_shared<Result>();
    asked->generation = generation;
    asked->trace = QFileInfo(path).fileName();
    asked->design = toQString(m_designName);
    asked->policy = m_policy->currentText();
    asked->recomposeS = m_recompose->value();
    for (int n : m_resources->serverGpus())
        asked->servers += n > 0;
    const std::string title = tr(" on %1, %2").arg(asked->design, asked->policy).toStdString();
    const std::string busyTitle = tr("GPU utilisation").toStdString() + title;
    const std::string waitTitle = tr("Queueing delay").toStdString() + title;

    m_message->setStyleSheet(QString());
    m_message->setText(tr("Scheduling %1 on %2...").arg(asked->trace, asked->design));
    ++m_pending;
    m_progress->show();
    QPointer<ScheduleView> self(this);
    // Jobs, resources and outcomes are plain values and the model's functions pure: the worker
    // shares nothing with the GUI thread but the copies it was given.
    QThreadPool::globalInstance()->start([self, r = asked, path, pai, options, resources, design,
                                          busyTitle, waitTitle] {
        try {
            const std::string file = QFileInfo(path).fileName().toStdString();
            const std::string text = readTextFile(path.toStdString());
            std::vector<schedule::Job> jobs;
            if (pai) {
                r->pai = schedule::readPaiTaskTable(text, file, resources.totalGpus());
                jobs = std::move(r->pai->jobs);
            } else {
                jobs = schedule::readTrace(text, file, resources.totalGpus());
            }
            r->jobs = int(jobs.size());
            // As composelab schedule: jobs naming a benchmark run for the model's time
            // where their GPUs end up.
            auto ways = schedule::runBothWays(jobs, *design, resources, options, true, {}, file);
            r->fixed = std::move(ways.fixed);
            r->pool = std::move(ways.pool);
            r->busyChart = charts::scheduleBusyChart(r->fixed, r->pool, busyTitle);
            r->waitChart = charts::waitCdfChart(r->fixed, r->pool, waitTitle);
        } catch (const std::exception &e) {
            r->error = toQString(e.what());
        }
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, r] {
            if (self) {
                --self->m_pending;
                self->apply(*r);
            }
        });
    });
}

void ScheduleView::apply(const Result &r)
{
    m_progress->setVisible(m_pending > 0);
    if (r.generation != m_generation)
        return; // a newer run, or another trace, was asked for since
    if (!r.error.isEmpty()) {
        clearResults();
        showError(r.error);
        Q_EMIT updated();
        return;
    }
    const QLocale english(QLocale::English);
    const schedule::Outcome *ways[] = {&r.fixed, &r.pool};
    for (int row = 0; row < 2; ++row) {
        for (int column = 0; column < m_table->columnCount(); ++column) {
            const double v = kColumns[column].value(*ways[row]);
            auto *item = new QTableWidgetItem(english.toString(v, 'f', kColumns[column].decimals));
            item->setData(Qt::UserRole, v);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
    }
    m_busyChart->setChart(r.busyChart);
    m_waitChart->setChart(r.waitChart);
    for (ChartWidget *chart : {m_busyChart, m_waitChart})
        m_tabs->setTabEnabled(m_tabs->indexOf(chart), true);
    m_export->setEnabled(true);

    QString text
        = tr("%1 job(s) of %2 on %3: %4 GPUs as %5 static servers, or as a pool that "
             "composes GPUs to another host in %6 s; %7.")
              // One pass: a % in a file or design name stays as it is.
              .arg(english.toString(r.jobs), r.trace, r.design, QString::number(r.fixed.gpus),
                   QString::number(r.servers), QString::number(r.recomposeS), r.policy);
    if (r.pai)
        text += QLatin1Char(' ')
                + tr("Left out of the trace: %1 jobs larger than the design's %2 GPUs, %3 that "
                     "did not finish (a task not Terminated), %4 without GPUs.")
                      .arg(r.pai->tooLarge)
                      .arg(r.fixed.gpus)
                      .arg(r.pai->notFinished)
                      .arg(r.pai->withoutGpus);
    if (r.fixed.stretched + r.pool.stretched > 0)
        text += QLatin1Char(' ')
                + tr("Run times stretched by the model for where the GPUs ended up: static "
                     "%1-%2, pool %3-%4 of the trace's.")
                      .arg(english.toString(r.fixed.minStretch, 'f', 2),
                           english.toString(r.fixed.maxStretch, 'f', 2),
                           english.toString(r.pool.minStretch, 'f', 2),
                           english.toString(r.pool.maxStretch, 'f', 2));
    m_message->setStyleSheet(QString());
    m_message->setText(text);
    Q_EMIT updated();
}

void ScheduleView::clearResults()
{
    m_table->clearContents();
    m_export->setEnabled(false);
    // Empty axes would look like a run in which nothing happened: the chart tabs wait for one.
    for (ChartWidget *chart : {m_busyChart, m_waitChart}) {
        chart->setChart(charts::ChartData{});
        m_tabs->setTabEnabled(m_tabs->indexOf(chart), false);
    }
}

std::string ScheduleView::tableCsv() const
{
    std::string csv = "way";
    for (const Column &c : kColumns)
        csv += std::string(",") + c.name;
    csv += "\n";
    for (int row = 0; row < m_table->rowCount(); ++row) {
        csv += row == 0 ? "static servers" : "composable pool";
        for (int column = 0; column < m_table->columnCount(); ++column) {
            const QTableWidgetItem *item = m_table->item(row, column);
            csv += ',';
            if (item) // full precision: the table rounds for reading, not for a report
                csv += QByteArray::number(item->data(Qt::UserRole).toDouble(), 'g', 17)
                           .toStdString();
        }
        csv += "\n";
    }
    return csv;
}

bool ScheduleView::exportTo(const QString &path, int dpi, QString *error)
{
    auto *chart = qobject_cast<ChartWidget *>(m_tabs->currentWidget());
    const bool csv
        = QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
    if (!chart && !csv) {
        if (error)
            *error = tr("%1: the comparison is a table: export it as .csv, or show a chart tab")
                         .arg(QDir::toNativeSeparators(path));
        return false;
    }
    if (!csv) // laid out at the export's default size, not the dock's strip
        return exportChartData(chart->chart(), {}, path, dpi, error);
    try {
        writeFileAtomically(path.toStdString(), chart ? charts::toCsv(chart->chart()) : tableCsv());
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
}

void ScheduleView::exportWithDialog()
{
    const bool chart = qobject_cast<ChartWidget *>(m_tabs->currentWidget()) != nullptr;
    const QString filters
        = chart ? tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV table "
                     "(*.csv)")
                : tr("CSV table (*.csv)");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export"), chart ? QStringLiteral("schedule.png") : QStringLiteral("schedule.csv"),
        filters);
    if (path.isEmpty())
        return;
    QString error;
    // The resolution File > Export Chart last asked for.
    if (!exportTo(path, QSettings().value(QStringLiteral("exportDpi"), 300).toInt(), &error))
        showError(error);
}

void ScheduleView::showHint()
{
    m_message->setStyleSheet(QString());
    if (m_tracePath.isEmpty())
        m_message->setText(tr("Load a job trace (CSV: submit_s,gpus,duration_s) to compare "
                              "static servers with the composable pool."));
    else
        m_message->setText(
            tr("Press Run to schedule %1 on %2, as static servers and as a composable pool.")
                .arg(QFileInfo(m_tracePath).fileName(),
                     m_designName.empty() ? tr("the design") : toQString(m_designName)));
}

void ScheduleView::showError(const QString &error)
{
    m_message->setStyleSheet(QStringLiteral("color: #b00020"));
    m_message->setText(error);
}

} // namespace clab::views
