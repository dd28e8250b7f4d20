#pragma once

#include "llm/plan.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace clab::design {
struct Design;
}
namespace clab::fabric {
struct Analysis;
}

namespace clab::views {

// The Plans panel: the parallel plans of a large model (model/llm) on one composed system of the
// design, as the fabric analysis finds it, ranked by step time; the same search as
// `composelab plans DESIGN --system S`. The model, the copies of the system (nodes), the global
// batch and fused attention are the user's; the ranking runs again whenever one changes (when
// the panel is hidden, once it is shown).
class PlansView : public QWidget
{
    Q_OBJECT

public:
    explicit PlansView(QWidget *parent = nullptr);

    // Both must outlive the next call (the main window's document and analysis).
    void setDesign(const design::Design &design, const fabric::Analysis &analysis);
    void selectSystem(int index); // of analysis.systems
    void setBenchmark(const QString &presetId);
    void setGlobalBatch(int batch); // 0: the preset's

    QTableWidget *table() const { return m_table; }
    QLabel *summary() const { return m_summary; }
    const std::vector<llm::Evaluated> &shown() const { return m_shown; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void rank(); // says in the summary what went wrong instead of throwing
    void rankOrThrow();

    const design::Design *m_design = nullptr;
    const fabric::Analysis *m_analysis = nullptr;
    QComboBox *m_system;
    QComboBox *m_benchmark;
    QSpinBox *m_nodes;
    QSpinBox *m_batch;
    QCheckBox *m_fused;
    QLabel *m_summary;
    QTableWidget *m_table;
    std::vector<llm::Evaluated> m_shown;
    bool m_stale = false; // changed while hidden
};

} // namespace clab::views
