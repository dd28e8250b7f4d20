#pragma once

#include "charts/chartdata.h"
#include "util/jsonreader.h"

#include <QPointer>
#include <QWidget>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <memory>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QThread;

namespace clab::perf {
struct Study;
struct StudyResult;
class StudyRunner;
} // namespace clab::perf

namespace clab::design {
struct Design;
}

namespace clab::views {

// The Study dock: open a study (or the bundled seed study) or start one from a system of the
// open design, add axes with Vary…, run it in the background with a progress bar and Cancel, see
// every predicted point in a sortable table, save the study. The points are kept in the
// experiment store (setStorePath) as `composelab study --db` keeps them; the dock's chart
// buttons ask for the compare, pareto and scaling charts of them.
class StudyPanel : public QWidget
{
    Q_OBJECT

public:
    explicit StudyPanel(QWidget *parent = nullptr);
    ~StudyPanel() override;

    // Reads a study; false (and the message shown) when it is bad.
    bool openStudy(const QString &path);
    void openSeedStudy();
    // A study of one system of the design, the design written into it, no axes yet (one point).
    void studyDesign(const design::Design &design, const std::string &system);
    // Sets the axis (added, or its values replaced) to the values: comma-separated numbers,
    // true/false or names. False, with the study's complaint in the status, when the study
    // refuses them; the study is unchanged then.
    bool vary(const QString &axis, const QString &values);
    // Asks for an axis and its values (VaryDialog), `axis` chosen first.
    void askVary(const QString &axis = {});
    bool saveStudy(const QString &path);
    std::uint64_t points() const;
    void setStorePath(const QString &path)
    {
        m_storePath = path;
        updateButtons();
    }
    void run();
    void cancel();
    bool running() const { return m_thread != nullptr; }
    QStandardItemModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString status() const;

Q_SIGNALS:
    void finished(bool stored);  // the table is filled; stored: the points went into the store
    void designStudyRequested(); // "From Design": the window answers with studyDesign
    void chartRequested(charts::ChartKind kind);

private:
    bool load(const std::string &text, const std::string &file);
    void save();
    void updateButtons();
    void showResults(bool cancelled, const QString &message);
    QLabel *m_title;
    QLabel *m_status;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QPushButton *m_vary;
    QPushButton *m_save;
    std::vector<QPushButton *> m_chartButtons;
    QProgressBar *m_progress;
    QStandardItemModel *m_model;
    QSortFilterProxyModel *m_sorted;
    QTableView *m_table;
    QString m_storePath;
    std::unique_ptr<perf::Study> m_study;
    OrderedJson m_json; // the study as its file says it: what Vary edits and Save writes
    std::unique_ptr<perf::StudyRunner> m_runner;
    // Filled by the worker, read after it ends.
    std::vector<perf::StudyResult> m_results;
    std::map<std::string, std::uint64_t> m_dropped;
    std::uint64_t m_predicted = 0;
    QPointer<QThread> m_thread;
    std::atomic<bool> m_stop{false};
};

} // namespace clab::views
