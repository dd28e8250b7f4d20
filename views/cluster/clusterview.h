#pragma once

#include "cluster/comparison.h"

#include <QWidget>

#include <map>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
class QTableWidget;

namespace clab::design {
struct Design;
}
namespace clab::fabric {
struct Analysis;
}

namespace clab::views {

class ChartWidget;

// The Cluster view: a scale-out topology chosen by kind and parameters, its metrics beside the
// other families' at a comparable size (the HammingMesh paper's ~1k or ~16k), and two charts:
// all-reduce bandwidth against message size, and cost against all-reduce bandwidth. Every number
// comes from model/cluster; the networks are built and measured on a worker thread (a 16k
// comparison takes about a second), and `updated` says when the table and charts show the fields'
// topology.
class ClusterView : public QWidget
{
    Q_OBJECT

public:
    // Larger networks are refused with a message: HyperX and torus graphs grow with the square
    // of their side, and the HammingMesh paper's largest scale is ~16k.
    static constexpr long long kMaxAccelerators = 20'000;

    explicit ClusterView(QWidget *parent = nullptr);
    ~ClusterView() override;

    // Fills the fields (without a recomputation per field) and recomputes once.
    void setSpec(const cluster::TopologySpec &spec);
    cluster::TopologySpec spec() const; // what the fields say
    // Shows a design's cluster: its topology over nodes × the system's GPUs. False, with the
    // reason in message(), when the design has none or it cannot be shown.
    bool showDesignCluster(const design::Design &design, const fabric::Analysis &analysis);

    bool busy() const { return m_pending > 0; }
    QString message() const;
    // The chosen topology's report; nullptr while computing or when its fields are bad.
    const cluster::TopologyReport *report() const;
    QTableWidget *metricsTable() const { return m_table; }
    ChartWidget *allreduceChart() const { return m_allreduce; }
    ChartWidget *costChart() const { return m_cost; }
    ChartWidget *placementChart() const { return m_placement; }
    // The chart tab on show (the all-reduce chart while the metrics are), for File > Export
    // Chart.
    ChartWidget *currentChart() const;
    // The chart on show as PNG (at `dpi`), PDF or SVG, or its plotted numbers as CSV, by the
    // extension; false with the reason in `error`.
    bool exportTo(const QString &path, int dpi, QString *error);

Q_SIGNALS:
    // The table, charts and message now show what the fields say (or why they cannot).
    void updated();

private:
    struct Result;
    void buildForm();
    void recompute();
    void apply(const Result &result);
    void showCurrent();
    void keepPointsBelowLegend();
    void exportWithDialog();

    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QSpinBox *m_endpoints, *m_fatRadix, *m_taper, *m_levels;
    QSpinBox *m_servers, *m_perServer, *m_railRadix;
    QSpinBox *m_p, *m_a, *m_h, *m_groups;
    QLineEdit *m_dims;
    QLineEdit *m_board, *m_grid;
    QSpinBox *m_meshRadix;
    QLabel *m_message;
    QLabel *m_prices;
    QTableWidget *m_table;
    QTabWidget *m_tabs;
    ChartWidget *m_allreduce;
    ChartWidget *m_cost;
    ChartWidget *m_placement; // HammingMesh only: its tab is hidden for other kinds
    int m_placementTab = -1;

    cluster::PriceTable m_priceTable;
    // The reference families per scale: computed once, as they depend on nothing the user sets.
    std::map<int, std::vector<cluster::LabelledReport>> m_references;
    std::optional<cluster::LabelledReport> m_selected;
    int m_scale = 1024;
    int m_generation = 0; // results of older requests are dropped
    int m_pending = 0;
    bool m_filling = false; // setSpec is filling the fields: no recomputation per field
};

} // namespace clab::views
