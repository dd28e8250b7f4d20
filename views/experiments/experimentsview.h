#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableView;
class QTimer;
class QUndoStack;

namespace clab::views {

class RunTableModel;

// The runs of an experiment store: filters, a lazily loaded table sorted in SQL, the provenance of
// the selected run, and deleting runs with undo. The store is read-only except inside a delete or
// its undo; a missing, corrupt or newer store shows its error and an empty table.
class ExperimentsView : public QWidget
{
    Q_OBJECT

public:
    explicit ExperimentsView(QWidget *parent = nullptr);
    ~ExperimentsView() override;

    void setStorePath(const QString &path);
    QString storePath() const { return m_storePath; }
    // Reopens the store and queries it again, keeping the filters.
    void reload();
    // Deletes are pushed here (the document's stack); without one the view keeps its own.
    // The store's own undo stack (deleted runs), apart from any design's: the window joins it
    // to a QUndoGroup, so that undoing a deletion never touches the design.
    QUndoStack *undoStack() const { return m_undoStack; }

    // Empty when the store was read.
    QString errorText() const;
    QTableView *table() const { return m_table; }
    RunTableModel *model() const { return m_model; }
    std::vector<std::int64_t> selectedRunIds() const;
    // Applies the text filters now instead of after the typing pause.
    void applyFilters();
    // Deletes the selected runs (one undoable command).
    void deleteSelected();

Q_SIGNALS:
    void selectionChanged(std::vector<std::int64_t> runIds);

private:
    void showError(const QString &message);
    void fillBenchmarks();
    void onSelectionChanged();
    void updateProvenance();
    void showProvenance(std::int64_t id);
    void storeChanged(const QString &error);

    QString m_storePath;
    QUndoStack *m_undoStack;
    RunTableModel *m_model = nullptr;
    QComboBox *m_benchmark = nullptr;
    QLineEdit *m_system = nullptr;
    QSpinBox *m_gpus = nullptr;
    QLineEdit *m_source = nullptr;
    QComboBox *m_kind = nullptr;
    QLineEdit *m_search = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_error = nullptr;
    QPlainTextEdit *m_provenance = nullptr;
    QTimer *m_typing = nullptr;
};

} // namespace clab::views
