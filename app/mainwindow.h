#pragma once

#include "document.h"
#include "fabric/analysis.h"
#include "predictions.h"
#include "importrunner.h"
#include "design/examples.h"

#include <QMainWindow>

class QMenu;

namespace clab {

namespace views {
class SystemsView;
class ExperimentsView;
class ChartsPanel;
} // namespace views

// The main window: menus and the systems view over one Document. After every change of the
// document the analysis re-runs and the view refreshes.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    Document *document() { return &m_document; }
    views::SystemsView *systemsView() const { return m_view; }

    // Opens a design; on a bad file shows the error and keeps the current document.
    bool openFile(const QString &path);
    bool openExample(const QString &fileName);
    // Imports recorded results into the experiment store on a worker thread, with a progress
    // dialog whose Cancel rolls the import back.
    void importResults(const QStringList &paths);
    QString storePath() const;
    void setStorePath(const QString &path);
    ImportRunner *importRunner() const { return m_import; }
    views::ExperimentsView *experimentsView() const { return m_experiments; }
    views::ChartsPanel *chartsPanel() const { return m_charts; }
    // Keeps the Predictions tab's figures of every composed system as predicted runs in the
    // experiment store; returns how many runs were added (0 when they are already there).
    int savePredictionsToStore();

Q_SIGNALS:
    void analysisUpdated();
    void errorShown(const QString &message);
    void importDone(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void refresh();
    void updateTitle();
    void open();
    bool save();
    bool saveAs();
    bool maybeSave();
    void addRecent(const QString &path);
    void fillRecentMenu();
    void showError(const QString &title, const QString &message);

    Document m_document;
    fabric::Analysis m_analysis;                              // of the last refresh
    std::vector<std::vector<SystemPrediction>> m_predictions; // per system, of the last refresh
    views::SystemsView *m_view;
    ImportRunner *m_import;
    views::ExperimentsView *m_experiments;
    views::ChartsPanel *m_charts;
    QMenu *m_recentMenu = nullptr;
};

} // namespace clab
