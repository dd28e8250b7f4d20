#include "mainwindow.h"

#include "canvascontroller.h"
#include "charts/chartdata.h"
#include "util/fileio.h"
#include "views/charts/chartspanel.h"
#include "views/charts/chartwidget.h"
#include "views/charts/exportdialog.h"
#include "workload/workload.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

// The main window's menus: File (designs, results, exports), Edit, View, Model and Help.

namespace clab {

void MainWindow::createMenus()
{
    createFileMenu();
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    m_controller->addEditActions(edit);
    edit->addSeparator();
    edit->addAction(tr("&Vary in Study..."), QKeySequence(tr("Ctrl+Shift+Y")), this,
                    &MainWindow::varySelection);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_controller->addViewActions(view);
    view->addSeparator();
    for (QDockWidget *d : findChildren<QDockWidget *>())
        view->addAction(d->toggleViewAction());
    createModelMenu();

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ComposeLab"), this, [this] {
        QMessageBox::about(this, tr("About ComposeLab"),
                           tr("<b>ComposeLab %1</b><p>Design composable GPU systems and see how "
                              "fast data moves between their devices and how fast they "
                              "train.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newDesign);
    file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::open);
    file->addAction(tr("New from &Machine..."), QKeySequence(tr("Ctrl+Shift+N")), this,
                    &MainWindow::chooseMachineFiles);
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
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As..."), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("&Import Results..."), QKeySequence(tr("Ctrl+I")), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Import recorded results"), QString(),
            tr("Results (*.csv *.txt *.log *.json);;All files (*)"));
        if (!files.isEmpty())
            importResults(files);
    });
    file->addAction(tr("Import &Measurements of a System..."), this, [this] {
        // Tool outputs of one machine, kept as that system's: shown beside the model for it.
        const QStringList files = QFileDialog::getOpenFileNames(
            this,
            tr("Import measurements (nccl-tests, bandwidthTest, p2pBandwidthLatencyTest, "
               "nvbandwidth)"),
            QString(), tr("Tool outputs (*.txt *.log *.json *.csv);;All files (*)"));
        if (files.isEmpty())
            return;
        QStringList systems;
        for (const auto &s : m_document.design().systems)
            systems << QString::fromStdString(s.name);
        bool ok = false;
        const QString system = QInputDialog::getItem(
            this, tr("Import Measurements"),
            tr("The machine these were measured on (a system of the design, or another name):"),
            systems, 0, true, &ok);
        if (ok && !system.trimmed().isEmpty())
            importResults(files, system.trimmed());
    });
    file->addAction(tr("Import Results &Folder..."), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Import a folder of results (e.g. an MLPerf results tree)"));
        if (!dir.isEmpty())
            importResults({dir});
    });
    createExportActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createExportActions(QMenu *file)
{
    file->addAction(tr("Export &Canvas..."), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export canvas"), QStringLiteral("canvas.png"),
            tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
        if (!path.isEmpty())
            exportCanvas(path, QSettings().value(QStringLiteral("exportDpi"), 300).toInt());
    });
    file->addAction(tr("&Export Chart..."), QKeySequence(tr("Ctrl+E")), this, [this] {
        if (m_charts->chart()->chart().empty()) {
            showError(tr("Nothing to export"),
                      tr("The chart is empty: import results (File > Import Results) or pick "
                         "another kind of chart in the Chart dock."));
            return;
        }
        QString path = QFileDialog::getSaveFileName(
            this, tr("Export chart"), QStringLiteral("chart.png"),
            tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"));
        if (path.isEmpty())
            return;
        views::ChartExportDialog options(path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive),
                                         m_charts->chart()->size(), this);
        if (options.exec() != QDialog::Accepted)
            return;
        options.remember();
        QString error;
        if (!m_charts->exportTo(path, options.dpi(), options.layout(), &error))
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
}

void MainWindow::createModelMenu()
{
    QMenu *model = menuBar()->addMenu(tr("&Model"));
    QMenu *benchmarks = model->addMenu(tr("&Benchmarks"));
    // Checkable: the Results panel predicts every checked benchmark for every system.
    for (const auto &[id, w] : workload::Library::builtin().all()) {
        QAction *a = benchmarks->addAction(QString::fromStdString(w.name));
        a->setCheckable(true);
        a->setChecked(std::find(m_benchmarks.begin(), m_benchmarks.end(), id)
                      != m_benchmarks.end());
        connect(a, &QAction::toggled, this, [this, id = id](bool on) {
            std::vector<std::string> ids = m_benchmarks;
            ids.erase(std::remove(ids.begin(), ids.end(), id), ids.end());
            if (on)
                ids.push_back(id);
            setBenchmarks(ids);
        });
    }
}

} // namespace clab
