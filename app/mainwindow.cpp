#include "mainwindow.h"

#include "catalog/catalog.h"
#include "fabric/analysis.h"
#include "perf/model.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "charts/chartdata.h"
#include "views/charts/chartspanel.h"
#include "views/charts/chartwidget.h"
#include "views/experiments/experimentsview.h"
#include "views/systems/systemsview.h"

#include "store/store.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QInputDialog>
#include <QProgressDialog>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

namespace clab {

namespace {

const char *kRecentKey = "recentFiles";
constexpr int kMaxRecent = 8;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_view(new views::SystemsView)
    , m_import(new ImportRunner(this))
    , m_experiments(new views::ExperimentsView)
    , m_charts(new views::ChartsPanel)
{
    setCentralWidget(m_view);
    // Recorded results live beside the design, in a dock the user can move or close.
    auto *dock = new QDockWidget(tr("Experiments"), this);
    dock->setObjectName(QStringLiteral("experimentsDock"));
    dock->setWidget(m_experiments);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    resizeDocks({dock}, {300}, Qt::Vertical);
    auto *chartDock = new QDockWidget(tr("Chart"), this);
    chartDock->setObjectName(QStringLiteral("chartDock"));
    chartDock->setWidget(m_charts);
    addDockWidget(Qt::BottomDockWidgetArea, chartDock);
    tabifyDockWidget(dock, chartDock);
    dock->raise();
    m_charts->setStorePath(storePath());
    connect(m_experiments, &views::ExperimentsView::selectionChanged, m_charts,
            &views::ChartsPanel::setRunIds);
    connect(m_import, &ImportRunner::finished, m_charts, &views::ChartsPanel::reload);
    m_experiments->setUndoStack(m_document.undoStack());
    m_experiments->setStorePath(storePath());
    connect(m_import, &ImportRunner::finished, m_experiments, &views::ExperimentsView::reload);
    createMenus();
    connect(&m_document, &Document::changed, this, &MainWindow::refresh);
    connect(&m_document, &Document::fileChanged, this, &MainWindow::updateTitle);
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray()))
        resize(1200, 820);
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    updateTitle();
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::open);
    QMenu *examples = file->addMenu(tr("&Examples"));
    for (const design::Example &e : design::bundledExamples()) {
        const QString name = QString::fromStdString(e.fileName);
        examples->addAction(name, this, [this, name] {
            if (maybeSave())
                openExample(name);
        });
    }
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    fillRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Import Results..."), QKeySequence(tr("Ctrl+I")), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Import recorded results"), QString(),
            tr("Results (*.csv *.txt *.log *.json);;All files (*)"));
        if (!files.isEmpty())
            importResults(files);
    });
    file->addAction(tr("Import Results &Folder..."), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Import a folder of results (e.g. an MLPerf results tree)"));
        if (!dir.isEmpty())
            importResults({dir});
    });
    file->addAction(tr("&Export Chart..."), QKeySequence(tr("Ctrl+E")), this, [this] {
        QString path = QFileDialog::getSaveFileName(
            this, tr("Export chart"), QStringLiteral("chart.png"),
            tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"));
        if (path.isEmpty())
            return;
        int dpi = 300;
        if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
            bool ok = false;
            dpi = QInputDialog::getInt(this, tr("Export chart"), tr("Resolution (dots per inch):"),
                                       QSettings().value(QStringLiteral("exportDpi"), 300).toInt(),
                                       72, 1200, 1, &ok);
            if (!ok)
                return;
            QSettings().setValue(QStringLiteral("exportDpi"), dpi);
        }
        QString error;
        if (!m_charts->exportTo(path, dpi, &error))
            showError(tr("Cannot export the chart"), error);
        else
            statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    });
    file->addAction(tr("Export Chart &Data (CSV)..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export chart data"), QStringLiteral("chart.csv"), tr("CSV table (*.csv)"));
        if (path.isEmpty())
            return;
        try {
            writeFileAtomically(path.toStdString(), charts::toCsv(m_charts->chart()->chart()));
            statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
        } catch (const std::exception &e) {
            showError(tr("Cannot export the chart data"), QString::fromStdString(e.what()));
        }
    });
    file->addAction(tr("Save &Predictions to Store"), this, [this] {
        const int added = savePredictionsToStore();
        statusBar()->showMessage(
            added > 0 ? tr("Saved %1 predicted run(s) to %2").arg(added).arg(storePath())
                      : tr("These predictions are already in the store."),
            8000);
    });
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As..."), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ComposeLab"), this, [this] {
        QMessageBox::about(this, tr("About ComposeLab"),
                           tr("<b>ComposeLab %1</b><p>Design composable GPU systems and see how "
                              "fast data moves between their devices.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

bool MainWindow::openFile(const QString &path)
{
    try {
        m_document.load(path);
    } catch (const InputError &e) {
        showError(tr("Cannot open design"), QString::fromStdString(e.what()));
        return false;
    }
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
}

void MainWindow::importResults(const QStringList &paths)
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
            [finish](int imported, int skipped, const QString &) {
                finish(tr("Imported %1 item(s), skipped %2 file(s).").arg(imported).arg(skipped));
            });
    connect(m_import, &ImportRunner::cancelled, dialog,
            [finish] { finish(tr("Import cancelled; the store is as it was.")); });
    connect(m_import, &ImportRunner::failed, dialog, [this, finish](const QString &message) {
        finish(tr("Import failed; the store is as it was."));
        showError(tr("Cannot import"), message);
    });
    m_import->start(paths, storePath());
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

void MainWindow::refresh()
{
    m_analysis = fabric::analyze(m_document.design(), catalog::Catalog::builtin());
    m_predictions = defaultPredictions(m_document.design(), m_analysis);
    std::vector<std::vector<views::PredictionRow>> rows;
    for (const auto &system : m_predictions) {
        std::vector<views::PredictionRow> shown;
        for (const SystemPrediction &p : system)
            shown.push_back({p.workload->name, p.prediction});
        rows.push_back(std::move(shown));
    }
    m_view->setAnalysis(m_analysis, rows);
    Q_EMIT analysisUpdated();
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] - ComposeLab").arg(m_document.displayName()));
    setWindowModified(m_document.isModified());
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

void MainWindow::showError(const QString &title, const QString &message)
{
    Q_EMIT errorShown(message);
    statusBar()->showMessage(message, 10000);
    // Offscreen test runs have no one to press OK.
    if (QApplication::platformName() != QLatin1String("offscreen"))
        QMessageBox::warning(this, title, message);
}

} // namespace clab
