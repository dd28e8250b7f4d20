#pragma once

#include "schedule/resources.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace clab::design {
struct Design;
}

namespace clab::views {

class ChartWidget;

// The Scheduling view (issue 17): a job trace run on the design's GPUs twice, as static servers
// (each host with the GPUs composed to it now) and as a composable pool, side by side in a
// table and two charts (GPU utilisation over time, the CDF of queueing delay). Every number is
// model/schedule's, as `composelab schedule` prints it. The trace is read and run on a worker
// thread (a 100k-job trace takes about a second); `updated` says when the table, charts and
// message show the latest request. Once a trace has run, a change of the options or of the GPUs
// the design gives the scheduler runs it again after a pause.
class ScheduleView : public QWidget
{
    Q_OBJECT

public:
    enum class Format { Csv, Pai };
    // A burst of edits (a drag, typing a delay) runs the trace once, this long after the last.
    static constexpr int kRerunDelayMs = 300;

    explicit ScheduleView(QWidget *parent = nullptr);
    ~ScheduleView() override;

    // The design whose hosts and pool run the trace; `source` (its file) names it in messages.
    // Only a change of what the scheduler sees (hosts, chassis, GPUs, links, systems, the
    // design's name) runs the trace again: moving an item does not.
    void setDesign(const design::Design &design, const QString &source);
    // Chooses the trace (remembered for the next start) and guesses its format: Alibaba PAI's
    // task table when the file name says "pai". Nothing runs until run() or Run.
    void setTrace(const QString &path);
    QString tracePath() const { return m_tracePath; }
    Format format() const;
    void run();

    bool busy() const { return m_pending > 0; }
    bool rerunPending() const { return m_rerun.isActive(); }
    QString message() const;
    // Rows: static servers, composable pool; each cell keeps its number in Qt::UserRole.
    QTableWidget *table() const { return m_table; }
    ChartWidget *busyChart() const { return m_busyChart; }
    ChartWidget *waitChart() const { return m_waitChart; }
    // Writes the tab shown: a chart as .png (at `dpi`), .pdf or .svg, or its data as .csv; the
    // comparison as .csv (one row per way, the numbers unrounded). The file appears whole or not
    // at all; on failure returns false with a message naming the file.
    bool exportTo(const QString &path, int dpi, QString *error);

Q_SIGNALS:
    // The table, charts and message now show the latest run (or why it could not run).
    void updated();

private:
    struct Result;
    void chooseTrace();
    void rerunLater();
    void clearResults();
    void showHint();
    void showError(const QString &error);
    void apply(const Result &result);
    void exportWithDialog();
    std::string tableCsv() const;

    QPushButton *m_traceButton;
    QLabel *m_traceLabel;
    QComboBox *m_format;
    QComboBox *m_policy;
    QSpinBox *m_recompose;
    QPushButton *m_run;
    QPushButton *m_export;
    QProgressBar *m_progress;
    QLabel *m_message;
    QTabWidget *m_tabs;
    QTableWidget *m_table;
    ChartWidget *m_busyChart;
    ChartWidget *m_waitChart;
    QTimer m_rerun;

    QString m_tracePath;
    std::string m_designName;
    std::shared_ptr<const design::Design> m_design; // for the stretch, shared with the worker
    std::optional<schedule::Resources> m_resources; // of the design, when it has a pool
    QString m_designError;                          // why it has none
    bool m_active = false;                          // a run was asked for this trace
    int m_generation = 0;                           // results of older requests are dropped
    int m_pending = 0;
};

} // namespace clab::views
