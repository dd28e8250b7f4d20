#pragma once

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

namespace clab::views {

// The Study dock: open a study (or the bundled seed study), run it in the background with a
// progress bar and Cancel, see every predicted point in a sortable table. The points are kept in
// the experiment store (setStorePath) as `composelab study --db` keeps them, so the Chart dock's
// "Study variants compared" draws them.
class StudyPanel : public QWidget
{
    Q_OBJECT

public:
    explicit StudyPanel(QWidget *parent = nullptr);
    ~StudyPanel() override;

    // Reads a study; false (and the message shown) when it is bad.
    bool openStudy(const QString &path);
    void openSeedStudy();
    void setStorePath(const QString &path) { m_storePath = path; }
    void run();
    void cancel();
    bool running() const { return m_thread != nullptr; }
    QStandardItemModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString status() const;

Q_SIGNALS:
    void finished(bool stored); // the table is filled; stored: the points went into the store

private:
    void load(const std::string &text, const std::string &file);
    void showResults(bool cancelled, const QString &message);
    QLabel *m_title;
    QLabel *m_status;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QStandardItemModel *m_model;
    QSortFilterProxyModel *m_sorted;
    QTableView *m_table;
    QString m_storePath;
    std::unique_ptr<perf::Study> m_study;
    std::unique_ptr<perf::StudyRunner> m_runner;
    // Filled by the worker, read after it ends.
    std::vector<perf::StudyResult> m_results;
    std::map<std::string, std::uint64_t> m_dropped;
    std::uint64_t m_predicted = 0;
    QPointer<QThread> m_thread;
    std::atomic<bool> m_stop{false};
};

} // namespace clab::views
