#pragma once

#include "fabric/analysis.h"
#include "perf/model.h"

#include <QWidget>

class QListWidget;
class QTableView;
class QTableWidget;
class QLabel;

namespace clab::views {

// One benchmark's prediction for one composed system, as the Predictions tab lists it.
struct PredictionRow
{
    std::string benchmark; // workload name
    perf::Prediction prediction;
};

// The Results panel: the composed systems on the left; every system's predicted time to train,
// throughput and breakdown; for the selected one its host-to-device table (alone, with its system
// busy, with every system busy), peer-to-peer heatmap and prediction details. It only shows
// numbers that model/fabric and model/perf computed.
class SystemsView : public QWidget
{
    Q_OBJECT

public:
    explicit SystemsView(QWidget *parent = nullptr);
    ~SystemsView() override;

    // `predictions[i]` belongs to analysis.systems[i].
    void setAnalysis(const fabric::Analysis &analysis,
                     const std::vector<std::vector<PredictionRow>> &predictions = {});
    int systemCount() const;
    QTableWidget *hostToDeviceTable() const { return m_h2d; }
    QTableView *peerTable() const { return m_p2p; }
    QTableWidget *predictionTable() const { return m_predictions; }
    QTableWidget *overviewTable() const { return m_overview; }
    void selectSystem(int row);

private:
    void showSystem(int row);

    void showPredictions(int row);
    void showOverview();

    fabric::Analysis m_analysis;
    std::vector<std::vector<PredictionRow>> m_predictionRows;
    QListWidget *m_systems;
    QLabel *m_summary;
    QTableWidget *m_h2d;
    QTableView *m_p2p;
    class PeerMatrixModel *m_peers;
    QTableWidget *m_overview;
    QTableWidget *m_predictions;
};

} // namespace clab::views
