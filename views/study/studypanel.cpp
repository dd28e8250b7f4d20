#include "views/study/studypanel.h"

#include "catalog/catalog.h"
#include "perf/studyrun.h"
#include "store/store.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <filesystem>
#include <map>
#include <optional>
#include <thread>

namespace clab::views {

namespace {

// The table holds at most this many points; a larger study is in the store in full.
constexpr std::size_t kMaxRows = 100'000;

QStandardItem *number(double value, int decimals)
{
    auto *item = new QStandardItem(QString::number(value, 'f', decimals));
    item->setData(value, Qt::UserRole); // sorted by value, not by text
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

StudyPanel::StudyPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("No study open")))
    , m_status(new QLabel)
    , m_run(new QPushButton(tr("&Run")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_progress(new QProgressBar)
    , m_model(new QStandardItemModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_table(new QTableView)
{
    auto *open = new QPushButton(tr("Open Study…"));
    auto *seed = new QPushButton(tr("Seed Study"));
    seed->setToolTip(tr("The composable-system paper's study: local against pooled GPUs, 1 to 8 "
                        "GPUs, one or two chassis uplinks, four benchmarks"));
    m_run->setEnabled(false);
    m_cancel->setEnabled(false);
    m_progress->setVisible(false);
    // A long message wraps instead of widening the dock.
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_title, 1);
    buttons->addWidget(open);
    buttons->addWidget(seed);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    m_model->setHorizontalHeaderLabels(
        {tr("System"), tr("Benchmark"), tr("Global batch"), tr("Precision"), tr("Samples/s"),
         tr("Step (ms)"), tr("Time to train (min)"), tr("Energy (kWh)"),
         tr("Cost (%1)").arg(QString::fromStdString(perf::partPrices().currency))});
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(Qt::UserRole);
    m_table->setModel(m_sorted);
    m_table->setSortingEnabled(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->setVisible(false);

    connect(open, &QPushButton::clicked, this, [this] {
        QSettings settings;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Study"), settings.value(QStringLiteral("studyFolder")).toString(),
            tr("Studies (*.clabstudy);;All files (*)"));
        if (path.isEmpty())
            return;
        settings.setValue(QStringLiteral("studyFolder"), QFileInfo(path).absolutePath());
        openStudy(path);
    });
    connect(seed, &QPushButton::clicked, this, &StudyPanel::openSeedStudy);
    connect(m_run, &QPushButton::clicked, this, &StudyPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &StudyPanel::cancel);
}

StudyPanel::~StudyPanel()
{
    if (m_thread) {
        m_stop = true;
        m_thread->wait();
    }
}

QString StudyPanel::status() const
{
    return m_status->text();
}

void StudyPanel::load(const std::string &text, const std::string &file)
{
    if (m_thread)
        return;
    try {
        auto study = std::make_unique<perf::Study>(
            perf::readStudy(text, file, catalog::Catalog::builtin()));
        m_study = std::move(study);
    } catch (const InputError &e) {
        m_status->setText(tr("Not opened: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    m_runner.reset();
    m_title->setText(tr("<b>%1</b>: %2 points")
                         .arg(QString::fromStdString(m_study->name).toHtmlEscaped())
                         .arg(m_study->points()));
    m_title->setToolTip(QString::fromStdString(m_study->description));
    m_status->setText(tr("Run it to predict every point."));
    m_run->setEnabled(true);
}

bool StudyPanel::openStudy(const QString &path)
{
    try {
        load(readTextFile(path.toStdString()), path.toStdString());
    } catch (const InputError &e) {
        m_status->setText(tr("Not opened: %1").arg(QString::fromStdString(e.what())));
    }
    return m_study && m_study->file == path.toStdString();
}

void StudyPanel::openSeedStudy()
{
    load(std::string(perf::seedStudyText()), "seed.clabstudy");
}

void StudyPanel::run()
{
    if (!m_study || m_thread)
        return;
    try {
        m_runner = std::make_unique<perf::StudyRunner>(*m_study, catalog::Catalog::builtin(),
                                                       perf::Calibration::builtin());
    } catch (const InputError &e) {
        m_status->setText(tr("Cannot run: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    m_stop = false;
    m_results.clear();
    m_dropped.clear();
    m_predicted = 0;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setVisible(true);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status->setText(tr("Predicting…"));
    const std::string db = m_storePath.toStdString();
    m_thread = QThread::create([this, db] {
        perf::StudyRunOptions options;
        options.jobs = int(std::max(1u, std::thread::hardware_concurrency()));
        options.progress = [this](std::uint64_t done, std::uint64_t total) {
            const int permille = total ? int(done * 1000 / total) : 1000;
            QMetaObject::invokeMethod(m_progress, "setValue", Qt::QueuedConnection,
                                      Q_ARG(int, permille));
            return !m_stop.load();
        };
        // The worker keeps what the table shows: the first kMaxRows predicted points, and the
        // dropped ones counted by reason.
        options.each = [this](const perf::StudyResult &r) {
            if (!r.dropped.empty())
                ++m_dropped[r.dropped];
            else if (++m_predicted <= kMaxRows)
                m_results.push_back(r);
        };
        QString message;
        bool cancelled = false;
        // A store that cannot be opened costs the keeping, not the predictions.
        std::optional<store::Store> store;
        if (!db.empty()) {
            try {
                std::error_code ec;
                std::filesystem::create_directories(std::filesystem::path(db).parent_path(), ec);
                store.emplace(db);
            } catch (const std::exception &e) {
                message = tr("not stored: %1").arg(QString::fromStdString(e.what()));
            }
        }
        try {
            const perf::StudyRunCounts c
                = perf::runStudy(*m_runner, store ? &*store : nullptr, options);
            cancelled = c.cancelled;
            if (!cancelled && store)
                message = c.alreadyStored
                              ? tr("already in the experiment store")
                              : tr("%1 predicted runs kept in the experiment store").arg(c.stored);
        } catch (const std::exception &e) {
            message = tr("not stored: %1").arg(QString::fromStdString(e.what()));
        }
        store.reset(); // closed before anyone hears that the run ended
        QMetaObject::invokeMethod(
            this, [this, cancelled, message] { showResults(cancelled, message); },
            Qt::QueuedConnection);
    });
    m_thread->start();
}

void StudyPanel::cancel()
{
    m_stop = true;
}

void StudyPanel::showResults(bool cancelled, const QString &message)
{
    m_thread->wait();
    delete m_thread;
    m_progress->setVisible(false);
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_model->removeRows(0, m_model->rowCount());
    if (cancelled) {
        m_results.clear();
        m_status->setText(tr("Cancelled; nothing was stored."));
        Q_EMIT finished(false);
        return;
    }
    m_table->setSortingEnabled(false);
    for (const perf::StudyResult &r : m_results) {
        const perf::Prediction &p = r.prediction;
        auto *system = new QStandardItem(
            QString::fromStdString(m_runner->compositions()[r.composition].name));
        system->setData(system->text(), Qt::UserRole);
        auto *bench = new QStandardItem(QString::fromStdString(r.benchmark));
        bench->setData(bench->text(), Qt::UserRole);
        auto *precision = new QStandardItem(QString::fromLatin1(perf::precisionName(p.precision)));
        precision->setData(precision->text(), Qt::UserRole);
        auto *ttt = p.timeToTrainMin ? number(*p.timeToTrainMin, 1) : new QStandardItem(tr("–"));
        if (p.timeToTrainMin)
            ttt->setToolTip(tr("80 % interval %1–%2 min")
                                .arg(p.intervalMin[0], 0, 'f', 1)
                                .arg(p.intervalMin[1], 0, 'f', 1));
        QList<QStandardItem *> row{system,
                                   bench,
                                   number(p.globalBatch, 0),
                                   precision,
                                   number(p.throughput, 0),
                                   number(p.stepS * 1e3, 1),
                                   ttt};
        if (p.energy) {
            const QString basis
                = p.energy->basis == "epoch" ? tr("one epoch") : tr("the run to the target");
            row << number(p.energy->kwh, 2) << number(p.energy->usd(), 2);
            row[7]->setToolTip(tr("Energy of %1, facility included").arg(basis));
            row[8]->setToolTip(tr("Hardware share %1 + electricity %2, at the assumed prices")
                                   .arg(p.energy->hardwareUsd, 0, 'f', 2)
                                   .arg(p.energy->energyUsd, 0, 'f', 2));
        }
        m_model->appendRow(row);
    }
    m_table->setSortingEnabled(true);
    QStringList parts;
    parts << tr("%1 points predicted").arg(m_predicted);
    for (const auto &[reason, n] : m_dropped)
        parts << tr("%1 dropped: %2").arg(n).arg(QString::fromStdString(reason));
    if (m_predicted > kMaxRows)
        parts << tr("the table shows the first %1").arg(kMaxRows);
    if (!message.isEmpty())
        parts << message;
    m_status->setText(parts.join(QStringLiteral("; ")));
    m_results.clear();
    Q_EMIT finished(!message.isEmpty() && !message.startsWith(tr("not stored")));
}

} // namespace clab::views
