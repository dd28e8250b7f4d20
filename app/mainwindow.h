#pragma once

#include "document.h"
#include "fabric/analysis.h"
#include "fabric/analyzer.h"
#include "store/store.h"
#include "predictions.h"
#include "importrunner.h"
#include "design/examples.h"

#include <QMainWindow>
#include <QPointer>

#include <optional>

class QMenu;
class QLabel;
class QThread;
class QUndoGroup;

namespace clab {

class Autosave;
class CanvasController;
struct Recovery;

namespace views {
class CanvasScene;
class CanvasView;
class ChartsPanel;
class ClusterView;
class ScheduleView;
class StudyPanel;
class PlansView;
class ExperimentsView;
class FindingsPanel;
class InspectorWidget;
class PaletteWidget;
class SystemsView;
} // namespace views

// The main window: the composition canvas in the middle, the palette on the left, the inspector
// and findings on the right, results, experiments and charts below, all over one Document. After
// every change of the document but a move on the canvas, the analysis and predictions re-run
// (reusing what the change could not affect) and every view refreshes.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    Document *document() { return &m_document; }
    const fabric::Analysis &analysis() const { return m_analysis; } // of the last refresh
    views::SystemsView *systemsView() const { return m_view; }
    views::CanvasScene *canvasScene() const { return m_scene; }
    views::CanvasView *canvasView() const { return m_canvas; }
    views::PaletteWidget *palette() const { return m_palette; }
    views::InspectorWidget *inspector() const { return m_inspector; }
    views::FindingsPanel *findingsPanel() const { return m_findings; }
    CanvasController *controller() const { return m_controller; }
    Autosave *autosave() const { return m_autosave; }

    // Opens a design; on a bad file shows the error and keeps the current document.
    bool openFile(const QString &path);
    bool openExample(const QString &fileName);
    // Takes the design of a recovery file as unsaved work; false (with the error shown) if it
    // cannot be read. The recovery file is deleted once taken.
    bool recover(const Recovery &recovery);
    // Asks whether to recover designs a crashed session left behind (at start-up).
    void offerRecovery();
    // Imports recorded results into the experiment store on a worker thread, with a progress
    // dialog whose Cancel rolls the import back.
    // On a first start (no store file at storePath()), creates the experiment store with the
    // shipped recorded results in the background and reloads the docks; store::seedingDisabled()
    // (COMPOSELAB_EMPTY_STORE=1) leaves it empty. Emits storeSeeded when done.
    void seedStoreIfNew();
    // `system`: the machine tool outputs among them were taken on (import --system), or none.
    void importResults(const QStringList &paths, const QString &system = {});
    QString storePath() const;
    void setStorePath(const QString &path);
    ImportRunner *importRunner() const { return m_import; }
    views::ExperimentsView *experimentsView() const { return m_experiments; }
    views::ChartsPanel *chartsPanel() const { return m_charts; }
    views::ClusterView *clusterView() const { return m_cluster; }
    views::ScheduleView *scheduleView() const { return m_schedule; }
    views::StudyPanel *studyPanel() const { return m_study; }
    views::PlansView *plansView() const { return m_plans; }
    // Keeps the results' figures of every composed system as predicted runs in the experiment
    // store; returns how many runs were added (0 when they are already there).
    int savePredictionsToStore();
    // The benchmarks predicted for every system (workload ids), remembered in the settings.
    std::vector<std::string> benchmarks() const;
    void setBenchmarks(const std::vector<std::string> &ids);
    bool exportCanvas(const QString &path, int dpi);
    // "Duplicate and Edit…" of a palette part: the form, then the new part under My Parts.
    void duplicatePart(const QString &id);
    // Writes a user part file (one part) into the user's catalog folder and adds it to the
    // catalog; false, with the error shown, when it cannot.
    bool addUserPart(const std::string &id, const std::string &fileText);
    // File > New from Machine…: a new, unsaved design built from what a machine printed
    // (`nvidia-smi topo -m` with `nvidia-smi -L`, or an MLPerf systems/*.json). `gpu` names the
    // GPU model when the files do not; when neither does, asks for it. False, with the error
    // shown, when the files cannot be built; the current design is then kept.
    bool newFromMachine(const QStringList &paths, const QString &gpu = {});

Q_SIGNALS:
    void analysisUpdated();
    void errorShown(const QString &message);
    void storeSeeded(const QString &message);
    void importDone(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createDocks();
    void createMenus();
    void createFileMenu();
    void createExportActions(QMenu *file);
    void createModelMenu();
    void refresh(const Change &change = {});
    // Reads the measurements the store holds for named systems (import --system), shown beside
    // the model for design systems of the same name, and refreshes.
    void reloadStoredMeasurements();
    void readStoredMeasurements();
    void updateTitle();
    void newDesign();
    void open();
    void chooseMachineFiles();
    bool save();
    bool saveAs();
    bool maybeSave();
    void addRecent(const QString &path);
    void fillRecentMenu();
    void showError(const QString &title, const QString &message);
    // After an import in which some files failed: each file with its reason, the others landed.
    void showImportReport(int failed, const QString &summary);

    void fitAfterLoad();
    void followSelection();
    // The composed system the canvas selection belongs to, or the first; "" without systems.
    std::string selectedSystem() const;
    // Edit > Vary in Study: a study of the selected system, an axis chosen by what is selected.
    void varySelection();

    Document m_document;
    fabric::Analyzer m_analyzer; // reuses the tables of the systems an edit did not change
    fabric::Analysis m_analysis; // of the last refresh
    std::vector<store::BandwidthRecord> m_storedMeasurements; // the store's, of named systems
    std::vector<std::vector<SystemPrediction>> m_predictions; // per system, of the last refresh
    std::vector<std::string> m_benchmarks;
    perf::PredictionMemo m_predictionMemo; // so an edit re-predicts only the systems it changed
    views::CanvasScene *m_scene;
    views::CanvasView *m_canvas;
    views::PaletteWidget *m_palette;
    views::InspectorWidget *m_inspector;
    views::FindingsPanel *m_findings;
    views::SystemsView *m_view;
    ImportRunner *m_import;
    QPointer<QThread> m_seedThread; // seedStoreIfNew() at work
    views::ExperimentsView *m_experiments;
    views::ChartsPanel *m_charts;
    views::ClusterView *m_cluster;
    views::ScheduleView *m_schedule;
    views::StudyPanel *m_study;
    views::PlansView *m_plans;
    QUndoGroup *m_undoGroup;                       // the design's undo stack and the store's
    std::optional<design::Cluster> m_shownCluster; // the design's cluster the Cluster view shows
    CanvasController *m_controller;
    Autosave *m_autosave;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_findingsLabel = nullptr;
};

} // namespace clab
