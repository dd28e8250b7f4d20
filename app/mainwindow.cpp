#include "mainwindow.h"

#include "autosave.h"
#include "canvascontroller.h"
#include "catalog/catalog.h"
#include "fabric/analysis.h"
#include "machine/measurements.h"
#include "perf/model.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "views/canvas/canvasexport.h"
#include "views/canvas/canvasscene.h"
#include "views/canvas/canvasview.h"
#include "views/charts/chartspanel.h"
#include "views/cluster/clusterview.h"
#include "views/schedule/scheduleview.h"
#include "views/plans/plansview.h"
#include "views/study/studypanel.h"
#include "views/experiments/experimentsview.h"
#include "views/findings/findingspanel.h"
#include "views/inspector/inspectorwidget.h"
#include "views/palette/partdialog.h"
#include "views/palette/palettewidget.h"
#include "views/systems/systemsview.h"

#include "store/seed.h"
#include "store/store.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QUndoGroup>
#include <QFileDialog>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

namespace clab {

namespace {

const char *kRecentKey = "recentFiles";
constexpr int kMaxRecent = 8;

QDockWidget *dock(QMainWindow *window, const QString &title, const char *name, QWidget *content)
{
    auto *d = new QDockWidget(title, window);
    d->setObjectName(QLatin1String(name));
    d->setWidget(content);
    return d;
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_benchmarks(kDefaultBenchmarks)
    , m_scene(new views::CanvasScene(this))
    , m_canvas(new views::CanvasView(m_scene))
    , m_palette(new views::PaletteWidget)
    , m_inspector(new views::InspectorWidget)
    , m_findings(new views::FindingsPanel)
    , m_view(new views::SystemsView)
    , m_import(new ImportRunner(this))
    , m_experiments(new views::ExperimentsView)
    , m_charts(new views::ChartsPanel)
    , m_cluster(new views::ClusterView)
    , m_schedule(new views::ScheduleView)
    , m_study(new views::StudyPanel)
    , m_plans(new views::PlansView)
    , m_undoGroup(new QUndoGroup(this))
    , m_controller(
          new CanvasController(&m_document, m_scene, m_canvas, m_inspector, m_palette, this))
    , m_autosave(new Autosave(&m_document, this))
{
    const QVariant saved = QSettings().value(QStringLiteral("results/benchmarks"));
    if (saved.isValid()) {
        m_benchmarks.clear();
        for (const QString &id : saved.toStringList())
            m_benchmarks.push_back(id.toStdString());
    }
    setCentralWidget(m_canvas);
    createDocks();
    m_charts->setStorePath(storePath());
    m_study->setStorePath(storePath());
    // A study's points land in the store: the chart shows them side by side.
    connect(m_study, &views::StudyPanel::finished, this, [this](bool stored) {
        if (!stored)
            return;
        m_experiments->reload();
        m_charts->setKind(charts::ChartKind::Compare);
        m_charts->reload();
    });
    connect(m_study, &views::StudyPanel::designStudyRequested, this, [this] {
        const std::string system = selectedSystem();
        if (system.empty())
            statusBar()->showMessage(
                tr("Compose a system first: a study varies a composed system."), 8000);
        else
            m_study->studyDesign(m_document.design(), system);
    });
    connect(m_study, &views::StudyPanel::chartRequested, this, [this](charts::ChartKind kind) {
        m_charts->setKind(kind);
        m_charts->reload();
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("chartDock"))) {
            dock->show();
            dock->raise();
        }
    });
    connect(m_experiments, &views::ExperimentsView::selectionChanged, m_charts,
            &views::ChartsPanel::setRunIds);
    connect(m_import, &ImportRunner::finished, m_charts, &views::ChartsPanel::reload);
    // Undo follows the focus: the Experiments dock undoes deleted runs, everything else the
    // design's edits. Deleting runs never marks the design modified, and opening another design
    // keeps the store's undo.
    m_undoGroup->addStack(m_document.undoStack());
    m_undoGroup->addStack(m_experiments->undoStack());
    m_undoGroup->setActiveStack(m_document.undoStack());
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget *, QWidget *now) {
        // The Experiments dock may float in a window of its own.
        if (now && m_experiments->isAncestorOf(now))
            m_undoGroup->setActiveStack(m_experiments->undoStack());
        else if (now && now->window() == window())
            m_undoGroup->setActiveStack(m_document.undoStack());
    });
    m_experiments->setStorePath(storePath());
    connect(m_import, &ImportRunner::finished, m_experiments, &views::ExperimentsView::reload);
    connect(m_import, &ImportRunner::finished, this, &MainWindow::reloadStoredMeasurements);
    connect(this, &MainWindow::storeSeeded, this, &MainWindow::reloadStoredMeasurements);
    createMenus();
    m_findingsLabel = new QLabel;
    statusBar()->addPermanentWidget(m_findingsLabel);
    connect(m_findings, &views::FindingsPanel::countsChanged, this,
            [this](int errors, int warnings) {
                m_findingsLabel->setText(
                    errors + warnings == 0
                        ? tr("No findings")
                        : tr("%1 error(s), %2 warning(s)").arg(errors).arg(warnings));
            });
    connect(m_findings, &views::FindingsPanel::itemsActivated, this,
            [this](const std::vector<std::string> &ids) {
                m_scene->selectIds(ids);
                if (!ids.empty())
                    if (QGraphicsItem *item = m_scene->node(ids.front()))
                        m_canvas->ensureVisible(item);
            });
    connect(m_controller, &CanvasController::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &MainWindow::followSelection);
    connect(m_palette, &views::PaletteWidget::duplicateRequested, this, &MainWindow::duplicatePart);
    connect(&m_document, &Document::changed, this, &MainWindow::refresh);
    connect(&m_document, &Document::fileChanged, this, &MainWindow::updateTitle);
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray()))
        resize(1400, 900);
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    updateTitle();
    readStoredMeasurements();
}

MainWindow::~MainWindow()
{
    // The document is a member and goes before the child objects: stop the scene (whose items
    // are cleared as it is destroyed) and the controller from reaching for it.
    disconnect(m_scene, nullptr, nullptr, nullptr);
    disconnect(&m_document, nullptr, this, nullptr);
    delete m_controller;
    delete m_autosave;
    if (m_seedThread)
        m_seedThread->wait(); // a window closed during its first 0.1 s: let the seeding finish
}

void MainWindow::createDocks()
{
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    QDockWidget *palette = dock(this, tr("Parts"), "paletteDock", m_palette);
    addDockWidget(Qt::LeftDockWidgetArea, palette);
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_inspector);
    scroll->setWidgetResizable(true);
    QDockWidget *inspector = dock(this, tr("Inspector"), "inspectorDock", scroll);
    addDockWidget(Qt::RightDockWidgetArea, inspector);
    QDockWidget *findings = dock(this, tr("Findings"), "findingsDock", m_findings);
    addDockWidget(Qt::RightDockWidgetArea, findings);
    splitDockWidget(inspector, findings, Qt::Vertical);

    QDockWidget *results = dock(this, tr("Results"), "resultsDock", m_view);
    addDockWidget(Qt::BottomDockWidgetArea, results);
    // Recorded results and charts share the bottom area with the predictions.
    QDockWidget *experiments = dock(this, tr("Experiments"), "experimentsDock", m_experiments);
    addDockWidget(Qt::BottomDockWidgetArea, experiments);
    QDockWidget *chart = dock(this, tr("Chart"), "chartDock", m_charts);
    addDockWidget(Qt::BottomDockWidgetArea, chart);
    // Scale-out: the topology explorer, showing the design's cluster when it has one.
    QDockWidget *cluster = dock(this, tr("Cluster"), "clusterDock", m_cluster);
    addDockWidget(Qt::BottomDockWidgetArea, cluster);
    tabifyDockWidget(results, experiments);
    tabifyDockWidget(experiments, chart);
    tabifyDockWidget(chart, cluster);
    // Beside it: a job trace run on the design's GPUs as static servers and as a composable pool.
    QDockWidget *scheduling = dock(this, tr("Scheduling"), "schedulingDock", m_schedule);
    addDockWidget(Qt::BottomDockWidgetArea, scheduling);
    tabifyDockWidget(cluster, scheduling);
    // Many compositions at once: a study's points in a table, kept in the store for the chart.
    QDockWidget *study = dock(this, tr("Study"), "studyDock", m_study);
    addDockWidget(Qt::BottomDockWidgetArea, study);
    tabifyDockWidget(scheduling, study);
    // Large models: the parallel plans of a transformer on the selected system.
    QDockWidget *plans = dock(this, tr("Plans"), "plansDock", m_plans);
    addDockWidget(Qt::BottomDockWidgetArea, plans);
    tabifyDockWidget(study, plans);
    results->raise();
    resizeDocks({palette, inspector}, {260, 320}, Qt::Horizontal);
    resizeDocks({results}, {300}, Qt::Vertical);
}

void MainWindow::refresh(const Change &change)
{
    const design::Design &design = m_document.design();
    if (change.only(Change::Layout)) {
        // A move on the canvas: nothing the analysis or the predictions read has changed.
        m_scene->setLayout(design.layout);
        return;
    }
    if (change.only(Change::DesignInfo)) {
        // The design's name and description: only the scheduling results show its name.
        m_scene->setDesignInfo(design.name, design.description);
        m_schedule->setDesign(design, m_document.displayName());
        return;
    }
    // The analyzer keeps the fabric, and the memo the predictions, of what the change left alone
    // (a rename keeps them all: they go by id).
    const std::vector<design::Finding> findingsBefore = std::move(m_analysis.findings);
    m_analysis = m_analyzer.analyze(design, catalog::Catalog::builtin());
    if (!m_storedMeasurements.empty())
        fabric::attachMeasurements(
            m_analysis,
            machine::storedMeasurements(m_storedMeasurements, design, catalog::Catalog::builtin()));
    m_predictions = defaultPredictions(design, m_analysis, m_benchmarks, &m_predictionMemo);
    std::vector<std::vector<views::PredictionRow>> rows;
    for (const auto &system : m_predictions) {
        std::vector<views::PredictionRow> shown;
        for (const SystemPrediction &p : system)
            shown.push_back({p.workload->name, p.prediction});
        rows.push_back(std::move(shown));
    }
    m_view->setAnalysis(m_analysis, rows);
    m_findings->setFindings(m_analysis.findings);
    if (change.only(Change::Names) && m_analysis.findings == findingsBefore)
        m_scene->setNames(design, change.ids);
    else
        m_scene->setDesign(design, m_analysis.findings);
    if (design.cluster && design.cluster != m_shownCluster)
        m_cluster->showDesignCluster(design, m_analysis); // only when it changed: it rebuilds
    m_shownCluster = design.cluster;
    m_schedule->setDesign(design, m_document.displayName()); // runs again only when GPUs change
    m_plans->setDesign(design, m_analysis);
    Q_EMIT analysisUpdated();
}

void MainWindow::duplicatePart(const QString &id)
{
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    const std::string section = catalog.sectionOf(id.toStdString());
    if (section.empty() || section == "routing")
        return;
    views::PartDialog dialog(section, catalog.entryJson(id.toStdString()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const std::string entry = dialog.entry();
    addUserPart(nlohmann::json::parse(entry).value("id", std::string()), dialog.file());
}

bool MainWindow::addUserPart(const std::string &id, const std::string &fileText)
{
    const std::string folder = catalog::Catalog::userFolder();
    const std::string path = folder + "/" + id + ".json";
    try {
        catalog::Catalog::checkUserParts(fileText, path);
        QDir().mkpath(QString::fromStdString(folder));
        writeFileAtomically(path, fileText);
        catalog::Catalog::addUserParts(fileText, path);
    } catch (const std::exception &e) {
        showError(tr("Cannot add the part"), QString::fromStdString(e.what()));
        return false;
    }
    m_palette->reload();
    refresh(); // the model combo boxes and the canvas read the catalog as it is now
    statusBar()->showMessage(tr("Added %1 to My Parts (%2)")
                                 .arg(QString::fromStdString(id), QString::fromStdString(path)),
                             8000);
    return true;
}

void MainWindow::fitAfterLoad()
{
    // After the window has its final size.
    QTimer::singleShot(0, m_canvas, [this] { m_canvas->fitAll(); });
}

std::vector<std::string> MainWindow::benchmarks() const
{
    return m_benchmarks;
}

void MainWindow::setBenchmarks(const std::vector<std::string> &ids)
{
    m_benchmarks = ids;
    QStringList list;
    for (const std::string &id : ids)
        list << QString::fromStdString(id);
    QSettings().setValue(QStringLiteral("results/benchmarks"), list);
    refresh();
}

bool MainWindow::exportCanvas(const QString &path, int dpi)
{
    QString error;
    if (!views::exportScene(m_scene, path, dpi, &error)) {
        showError(tr("Cannot export the canvas"), error);
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    return true;
}

bool MainWindow::recover(const Recovery &recovery)
{
    try {
        m_document.loadRecovered(recovery.design.toStdString(), recovery.origin,
                                 recovery.name.isEmpty() ? tr("Recovered") : recovery.name);
    } catch (const InputError &e) {
        showError(tr("Cannot recover"), QString::fromStdString(e.what()));
        return false;
    }
    QFile::remove(recovery.path);
    m_autosave->saveNow(); // our own recovery file now holds it
    fitAfterLoad();
    statusBar()->showMessage(
        tr("Recovered %1 from %2. Save it to keep it.")
            .arg(m_document.displayName(), QLocale().toString(recovery.savedAt.toLocalTime())),
        10000);
    return true;
}

void MainWindow::offerRecovery()
{
    QStringList problems;
    const QList<Recovery> found = Autosave::pending(&problems);
    for (const QString &p : problems)
        statusBar()->showMessage(tr("Skipped a recovery file: %1").arg(p), 10000);
    for (const Recovery &r : found) {
        const auto answer = QMessageBox::question(
            this, tr("Recover unsaved work?"),
            tr("ComposeLab did not close normally. Unsaved changes to %1 from %2 were kept.\n\n"
               "Recover them? (Discard deletes them.)")
                .arg(r.name.isEmpty() ? tr("an untitled design") : r.name,
                     QLocale().toString(r.savedAt.toLocalTime())),
            QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Ignore, QMessageBox::Yes);
        if (answer == QMessageBox::Yes) {
            recover(r);
            return; // one document per window; others stay for the next start
        }
        if (answer == QMessageBox::Discard)
            QFile::remove(r.path);
    }
}

bool MainWindow::openFile(const QString &path)
{
    try {
        m_document.load(path);
    } catch (const InputError &e) {
        showError(tr("Cannot open design"), QString::fromStdString(e.what()));
        return false;
    }
    fitAfterLoad();
    addRecent(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
    return true;
}

bool MainWindow::openExample(const QString &fileName)
{
    for (const design::Example &e : design::bundledExamples()) {
        if (QString::fromStdString(e.fileName) != fileName)
            continue;
        try {
            m_document.loadText(e.text, fileName);
        } catch (const InputError &err) {
            showError(tr("Cannot open example"), QString::fromStdString(err.what()));
            return false;
        }
        fitAfterLoad();
        return true;
    }
    showError(tr("Cannot open example"), tr("There is no bundled example %1.").arg(fileName));
    return false;
}

QString MainWindow::storePath() const
{
    return QSettings()
        .value(QStringLiteral("storePath"), QString::fromStdString(store::defaultStorePath()))
        .toString();
}

void MainWindow::setStorePath(const QString &path)
{
    QSettings().setValue(QStringLiteral("storePath"), path);
    m_experiments->setStorePath(path);
    m_charts->setStorePath(path);
    m_study->setStorePath(path);
    reloadStoredMeasurements();
}

void MainWindow::reloadStoredMeasurements()
{
    readStoredMeasurements();
    refresh();
}

void MainWindow::readStoredMeasurements()
{
    m_storedMeasurements.clear();
    const QString path = storePath();
    if (QFileInfo::exists(path) && !m_seedThread) {
        try {
            store::Store db(path.toStdString());
            m_storedMeasurements = db.bandwidthOfSystems();
        } catch (const std::exception &e) {
            // The Experiments dock says what is wrong with the store; the design still shows.
            statusBar()->showMessage(
                tr("Measurements in the store not shown: %1").arg(QString::fromStdString(e.what())),
                10000);
        }
    }
}

void MainWindow::importResults(const QStringList &paths, const QString &system)
{
    if (m_import->isRunning())
        return;
    QDir().mkpath(QFileInfo(storePath()).absolutePath());
    auto *dialog = new QProgressDialog(tr("Importing..."), tr("Cancel"), 0, 0, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(300);
    connect(dialog, &QProgressDialog::canceled, m_import, &ImportRunner::cancel);
    connect(m_import, &ImportRunner::progress, dialog,
            [dialog](int done, int total, const QString &file) {
                dialog->setMaximum(total);
                dialog->setValue(done);
                dialog->setLabelText(tr("Importing %1").arg(QFileInfo(file).fileName()));
            });
    auto finish = [this, dialog](const QString &message) {
        disconnect(m_import, nullptr, dialog, nullptr);
        dialog->close();
        statusBar()->showMessage(message, 10000);
        Q_EMIT importDone(message);
    };
    connect(m_import, &ImportRunner::finished, dialog,
            [this, finish](int imported, int skipped, int failed, const QString &summary) {
                if (failed == 0) {
                    finish(
                        tr("Imported %1 item(s), skipped %2 file(s).").arg(imported).arg(skipped));
                    return;
                }
                finish(tr("Imported %1 item(s); %2 file(s) failed and were left out.")
                           .arg(imported)
                           .arg(failed));
                showImportReport(failed, summary);
            });
    connect(m_import, &ImportRunner::cancelled, dialog,
            [finish] { finish(tr("Import cancelled; the store is as it was.")); });
    connect(m_import, &ImportRunner::failed, dialog, [this, finish](const QString &message) {
        finish(tr("Import failed; the store is as it was."));
        showError(tr("Cannot import"), message);
    });
    m_import->start(paths, storePath(), system);
}

int MainWindow::savePredictionsToStore()
{
    // The Predictions tab's numbers, as the last refresh computed them, kept as predicted runs
    // beside the measurements.
    const std::string designText = design::writeDesign(m_document.design());
    const std::string path = m_document.filePath().isEmpty()
                                 ? m_document.displayName().toStdString()
                                 : m_document.filePath().toStdString();
    int added = 0;
    try {
        QDir().mkpath(QFileInfo(storePath()).absolutePath());
        store::Store db(storePath().toStdString());
        for (std::size_t i = 0; i < m_analysis.systems.size(); ++i) {
            const fabric::SystemReport &system = m_analysis.systems[i];
            std::vector<store::PredictedRun> runs;
            for (const SystemPrediction &p : m_predictions[i])
                runs.push_back(predictedRun(system.name, p));
            if (!runs.empty())
                added += store::savePredictions(
                    db, path, {system.name, systemDescription(system), designText}, runs);
        }
    } catch (const std::exception &e) {
        showError(tr("Cannot save the predictions"), QString::fromStdString(e.what()));
        return 0;
    }
    m_experiments->reload();
    m_charts->reload();
    return added;
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] - ComposeLab").arg(m_document.displayName()));
    setWindowModified(m_document.isModified());
}

void MainWindow::newDesign()
{
    if (!maybeSave())
        return;
    m_document.loadText(design::writeDesign(design::Design{}), tr("Untitled"));
    statusBar()->showMessage(tr("Drag parts from the palette onto the canvas to start."), 8000);
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open design"), dir, tr("ComposeLab designs (*.clab);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    openFile(path);
}

bool MainWindow::save()
{
    if (m_document.filePath().isEmpty())
        return saveAs();
    try {
        m_document.save(m_document.filePath());
    } catch (const std::exception &e) {
        showError(tr("Cannot save"), QString::fromStdString(e.what()));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(m_document.filePath()), 5000);
    return true;
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save design"), m_document.displayName(),
                                                tr("ComposeLab designs (*.clab)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".clab")))
        path += QLatin1String(".clab");
    try {
        m_document.save(path);
    } catch (const std::exception &e) {
        showError(tr("Cannot save"), QString::fromStdString(e.what()));
        return false;
    }
    addRecent(QFileInfo(path).absoluteFilePath());
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_document.isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"), tr("%1 has changes. Save them?").arg(m_document.displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    QSettings().setValue(QStringLiteral("geometry"), saveGeometry());
    QSettings().setValue(QStringLiteral("windowState"), saveState());
    event->accept();
}

void MainWindow::addRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QLatin1String(kRecentKey), recent);
    fillRecentMenu();
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString &path : recent) {
        m_recentMenu->addAction(path, this, [this, path] {
            if (maybeSave())
                openFile(path);
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::seedStoreIfNew()
{
    const QString path = storePath();
    if (store::seedingDisabled() || QFileInfo::exists(path) || m_seedThread)
        return;
    // About 0.1 s of SQLite inserts: off the GUI thread, so the window is up at once.
    const std::string db = path.toStdString();
    auto *thread = QThread::create([db, this] {
        QString message;
        try {
            if (store::seedIfNew(db))
                message = tr("Your experiment store was created with the recorded results "
                             "ComposeLab ships (MLPerf Training, training throughput, link "
                             "bandwidths).");
        } catch (const std::exception &e) {
            message = tr("Could not create the experiment store: %1")
                          .arg(QString::fromStdString(e.what()));
        }
        QMetaObject::invokeMethod(this, [this, message] {
            m_experiments->reload();
            m_charts->reload();
            if (!message.isEmpty())
                statusBar()->showMessage(message, 10000);
            Q_EMIT storeSeeded(message);
        });
    });
    m_seedThread = thread;
    thread->setParent(this);
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void MainWindow::showImportReport(int failed, const QString &summary)
{
    Q_EMIT errorShown(summary);
    if (QApplication::platformName() == QLatin1String("offscreen"))
        return;
    // Not modal: the report is read while the imported runs are already on show.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Some files were not imported"),
                                tr("%n file(s) could not be read and were left out; every other "
                                   "file was imported. Show Details for each file and the place "
                                   "of its problem.",
                                   nullptr, failed),
                                QMessageBox::Ok, this);
    box->setDetailedText(summary);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showError(const QString &title, const QString &message)
{
    Q_EMIT errorShown(message);
    statusBar()->showMessage(message, 10000);
    // Offscreen test runs have no one to press OK.
    if (QApplication::platformName() != QLatin1String("offscreen"))
        QMessageBox::warning(this, title, message);
}

} // namespace clab
