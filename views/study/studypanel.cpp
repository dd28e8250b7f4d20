#include "views/study/studypanel.h"
#include "views/study/varydialog.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "perf/studyrun.h"
#include "store/store.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "workload/workload.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
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

QString joined(const std::vector<std::string> &names)
{
    QStringList list;
    for (const std::string &n : names)
        list << QString::fromStdString(n);
    return list.join(QStringLiteral(", "));
}

template<typename Map>
std::vector<std::string> keysOf(const Map &map)
{
    std::vector<std::string> keys;
    for (const auto &entry : map)
        keys.push_back(entry.first);
    return keys;
}

// What Vary… offers for an axis the study does not vary yet, and what the axis accepts.
VaryDialog::AxisChoice startingChoice(const std::string &axis)
{
    struct Start
    {
        const char *axis;
        const char *values;
        const char *hint;
    };
    static const Start fixed[] = {
        {"gpus", "1, 2, 4, 8", QT_TRANSLATE_NOOP("VaryDialog", "GPUs per system, 1 to 1024")},
        {"nodes", "1, 2, 4, 8",
         QT_TRANSLATE_NOOP("VaryDialog", "copies of the system joined by a network, 1 to 100,000")},
        {"placement", "local, pooled",
         QT_TRANSLATE_NOOP("VaryDialog",
                           "local (the host's root ports) or pooled (a PCIe chassis)")},
        {"uplinks", "1, 2", QT_TRANSLATE_NOOP("VaryDialog", "host cables into each chassis, 1-16")},
        {"nvlink", "false, true", QT_TRANSLATE_NOOP("VaryDialog", "NVLink bridges: true or false")},
        {"pcie_gen", "4, 5", QT_TRANSLATE_NOOP("VaryDialog", "PCIe generation, 3 to 6")},
        {"global_batch", "0",
         QT_TRANSLATE_NOOP("VaryDialog", "global batch sizes; 0: the batch that trains fastest")},
        {"precision", "fp16, fp32",
         QT_TRANSLATE_NOOP("VaryDialog", "fp32, tf32, fp16, bf16 or fp8")},
    };
    const QString name = QString::fromStdString(axis);
    for (const Start &f : fixed)
        if (axis == f.axis)
            return {name, QString::fromLatin1(f.values), VaryDialog::tr(f.hint)};
    // The others list what the catalog, the workload library or the calibration holds.
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    if (axis == "gpu") {
        std::vector<std::string> start;
        for (const char *id : {"A100-PCIe-40GB", "H100-PCIe-80GB", "L40S"})
            if (catalog.gpu(id))
                start.push_back(id);
        return {
            name, joined(start),
            VaryDialog::tr("GPU models of the catalog: %1").arg(joined(keysOf(catalog.gpus())))};
    }
    if (axis == "host")
        return {
            name, QString(),
            VaryDialog::tr("host models of the catalog: %1").arg(joined(keysOf(catalog.hosts())))};
    if (axis == "benchmark")
        return {name, QStringLiteral("resnet50, bert_large, mobilenet_v2, yolov5s"),
                VaryDialog::tr("workloads: %1")
                    .arg(joined(keysOf(workload::Library::builtin().all())))};
    if (axis == "software")
        return {name, QStringLiteral("mlperf-3.1, mlperf-4.1"),
                VaryDialog::tr("calibrated software stacks: %1")
                    .arg(joined(keysOf(perf::Calibration::builtin().software)))};
    return {name, QString(), QString()};
}

// A study of the open design is named by the system and the time it was made or last varied:
// a study's points are told apart by its name in the store and the charts.
std::string stampedName(const std::string &system)
{
    return system + ", "
           + QDateTime::currentDateTime()
                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                 .toStdString();
}

// "1, 2, fp16, true" as JSON values: whole numbers, true or false, or text.
Json axisValues(const QString &text)
{
    Json values = Json::array();
    for (QString part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        part = part.trimmed();
        bool whole = false;
        const qlonglong n = part.toLongLong(&whole);
        if (whole)
            values.push_back(n);
        else if (part == QLatin1String("true") || part == QLatin1String("false"))
            values.push_back(part == QLatin1String("true"));
        else if (!part.isEmpty())
            values.push_back(part.toStdString());
    }
    return values;
}

QString valuesText(const Json &values)
{
    QStringList parts;
    for (const Json &v : values)
        parts << QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
    return parts.join(QStringLiteral(", "));
}

} // namespace

StudyPanel::StudyPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("No study open")))
    , m_status(new QLabel)
    , m_run(new QPushButton(tr("&Run")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_vary(new QPushButton(tr("&Vary…")))
    , m_save(new QPushButton(tr("Save…")))
    , m_progress(new QProgressBar)
    , m_model(new QStandardItemModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_table(new QTableView)
{
    auto *open = new QPushButton(tr("Open Study…"));
    auto *seed = new QPushButton(tr("Seed Study"));
    seed->setToolTip(tr("The composable-system paper's study: local against pooled GPUs, 1 to 8 "
                        "GPUs, one or two chassis uplinks, four benchmarks"));
    auto *fromDesign = new QPushButton(tr("From Design"));
    fromDesign->setToolTip(tr("A study of the selected system of the open design (or its first)"));
    m_vary->setToolTip(tr("Add an axis to the study, or change the values of one"));
    m_save->setToolTip(tr("Save the study as a .clabstudy file"));
    m_run->setEnabled(false);
    m_cancel->setEnabled(false);
    m_vary->setEnabled(false);
    m_save->setEnabled(false);
    m_progress->setVisible(false);
    // A long message wraps instead of widening the dock.
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_title, 1);
    buttons->addWidget(open);
    buttons->addWidget(seed);
    buttons->addWidget(fromDesign);
    buttons->addWidget(m_vary);
    buttons->addWidget(m_save);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    // The charts of the stored points, drawn by the Chart dock.
    auto *chartRow = new QHBoxLayout;
    chartRow->addWidget(m_status, 1);
    chartRow->addWidget(new QLabel(tr("Chart:")));
    const std::pair<QString, charts::ChartKind> kinds[]
        = {{tr("Compare"), charts::ChartKind::Compare},
           {tr("Pareto"), charts::ChartKind::Pareto},
           {tr("Scaling"), charts::ChartKind::Scaling}};
    for (const auto &[label, kind] : kinds) {
        auto *b = new QPushButton(label);
        b->setEnabled(false);
        connect(b, &QPushButton::clicked, this,
                [this, kind = kind] { Q_EMIT chartRequested(kind); });
        chartRow->addWidget(b);
        m_chartButtons.push_back(b);
    }
    m_chartButtons[0]->setToolTip(
        tr("The variants side by side, each split into where its time goes"));
    m_chartButtons[1]->setToolTip(tr("Time to train against cost, with the front drawn"));
    m_chartButtons[2]->setToolTip(tr("Time to train against the GPU count, a curve per variant"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addLayout(chartRow);
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
    connect(fromDesign, &QPushButton::clicked, this, &StudyPanel::designStudyRequested);
    connect(m_vary, &QPushButton::clicked, this, [this] { askVary(); });
    connect(m_save, &QPushButton::clicked, this, &StudyPanel::save);
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

bool StudyPanel::load(const std::string &text, const std::string &file)
{
    if (m_thread)
        return false;
    try {
        auto study = std::make_unique<perf::Study>(
            perf::readStudy(text, file, catalog::Catalog::builtin()));
        OrderedJson json = OrderedJson::parse(text);
        // Saved elsewhere, the study still finds its design.
        if (!study->designPath.empty())
            json["base"]["design"] = study->designPath;
        m_study = std::move(study);
        m_json = std::move(json);
    } catch (const InputError &e) {
        m_status->setText(tr("Not opened: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    m_runner.reset();
    QStringList axes;
    for (const perf::StudyAxis &a : m_study->axes)
        axes << QStringLiteral("%1 (%2)").arg(QString::fromStdString(a.name)).arg(a.values.size());
    m_title->setText(
        tr("<b>%1</b>: %n point(s)", nullptr, int(m_study->points()))
            .arg(QString::fromStdString(m_study->name).toHtmlEscaped())
        + (axes.isEmpty() ? QString() : QStringLiteral(" — ") + axes.join(QStringLiteral(" × "))));
    m_title->setToolTip(QString::fromStdString(m_study->description));
    m_status->setText(m_study->axes.empty() ? tr("Vary… adds an axis; Run predicts every point.")
                                            : tr("Run it to predict every point."));
    updateButtons();
    return true;
}

void StudyPanel::updateButtons()
{
    const bool idle = !m_thread;
    m_run->setEnabled(idle && m_study);
    m_vary->setEnabled(idle && m_study);
    m_save->setEnabled(idle && m_study);
    m_cancel->setEnabled(!idle);
    for (QPushButton *b : m_chartButtons)
        b->setEnabled(idle && !m_storePath.isEmpty());
}

std::uint64_t StudyPanel::points() const
{
    return m_study ? m_study->points() : 0;
}

void StudyPanel::studyDesign(const design::Design &design, const std::string &system)
{
    const std::string text = perf::designStudyText(design, system, stampedName(system));
    // The same system again (after an edit of the design): the design is the new one, the axes
    // stay.
    if (m_study && m_study->baseDesign && m_study->designPath.empty() && m_study->system == system
        && m_json.contains("axes")) {
        OrderedJson json = OrderedJson::parse(text);
        json["axes"] = m_json["axes"];
        if (load(json.dump(2) + "\n", "untitled.clabstudy"))
            return;
    }
    load(text, "untitled.clabstudy");
}

bool StudyPanel::vary(const QString &axis, const QString &values)
{
    if (!m_study || m_thread)
        return false;
    const Json parsed = axisValues(values);
    if (parsed.empty()) {
        m_status->setText(tr("Not varied: %1 needs at least one value.").arg(axis));
        return false;
    }
    OrderedJson json = m_json;
    // A study of the open design is its own study after each change, so that its points are
    // not mixed with the earlier ones.
    if (m_study->designPath.empty() && m_study->baseDesign)
        json["name"] = stampedName(m_study->system);
    OrderedJson &axes = json["axes"];
    bool replaced = false;
    for (OrderedJson &a : axes)
        if (a.value("name", std::string()) == axis.toStdString()) {
            a["values"] = parsed;
            replaced = true;
        }
    if (!replaced)
        axes.push_back(OrderedJson{{"name", axis.toStdString()}, {"values", parsed}});
    if (!load(json.dump(2) + "\n", m_study->file)) {
        m_status->setText(m_status->text().replace(tr("Not opened: "), tr("Not varied: ")));
        return false;
    }
    return true;
}

void StudyPanel::askVary(const QString &axis)
{
    if (!m_study || m_thread)
        return;
    std::vector<VaryDialog::AxisChoice> choices;
    for (const std::string &name : perf::studyAxisNames()) {
        if (m_study->baseDesign && perf::isNodeOnlyAxis(name))
            continue; // a design already has them
        VaryDialog::AxisChoice choice = startingChoice(name);
        for (const perf::StudyAxis &a : m_study->axes)
            if (a.name == name)
                choice.values = valuesText(Json(a.values));
        choices.push_back(choice);
    }
    VaryDialog dialog(choices, axis, this);
    while (dialog.exec() == QDialog::Accepted) {
        if (vary(dialog.axis(), dialog.values()))
            return;
        QMessageBox::warning(this, tr("Vary"), m_status->text());
    }
}

bool StudyPanel::saveStudy(const QString &path)
{
    if (!m_study)
        return false;
    try {
        writeFileAtomically(path.toStdString(), m_json.dump(2) + "\n");
    } catch (const std::exception &e) {
        m_status->setText(tr("Not saved: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    m_status->setText(tr("Saved to %1.").arg(path));
    return true;
}

void StudyPanel::save()
{
    QSettings settings;
    // The study's name as a file name: letters, digits, '.', '-' and '_' only.
    QString name = QString::fromStdString(m_study ? m_study->name : "study");
    for (QChar &c : name)
        if (!c.isLetterOrNumber() && c != QLatin1Char('.') && c != QLatin1Char('-'))
            c = QLatin1Char('_');
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save Study"),
        QDir(settings.value(QStringLiteral("studyFolder")).toString())
            .filePath(name + QStringLiteral(".clabstudy")),
        tr("Studies (*.clabstudy)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".clabstudy")))
        path += QLatin1String(".clabstudy");
    settings.setValue(QStringLiteral("studyFolder"), QFileInfo(path).absolutePath());
    saveStudy(path);
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
    updateButtons();
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
    updateButtons();
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
