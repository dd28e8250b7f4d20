#pragma once

#include "fabric/analysis.h"
#include "perf/model.h"

#include <QWidget>

class QListWidget;
class QTableWidget;
class QLabel;

namespace clab::views {

// One benchmark's prediction for one composed system, as the Predictions tab lists it.
struct PredictionRow
{
    std::string benchmark; // workload name
    perf::Prediction prediction;
};

// Shows an analysis: the composed systems on the left; for the selected one its host-to-device
// table and peer-to-peer matrix; the design-rule findings below. It only shows numbers that
// model/fabric computed.
class SystemsView : public QWidget
{
    Q_OBJECT

public:
    explicit SystemsView(QWidget *parent = nullptr);

    // `predictions[i]` belongs to analysis.systems[i].
    void setAnalysis(const fabric::Analysis &analysis,
                     const std::vector<std::vector<PredictionRow>> &predictions = {});
    int systemCount() const;
    QTableWidget *hostToDeviceTable() const { return m_h2d; }
    QTableWidget *peerTable() const { return m_p2p; }
    QTableWidget *predictionTable() const { return m_predictions; }
    QListWidget *findingsList() const { return m_findings; }
    void selectSystem(int row);

private:
    void showSystem(int row);

    void showPredictions(int row);

    fabric::Analysis m_analysis;
    std::vector<std::vector<PredictionRow>> m_predictionRows;
    QListWidget *m_systems;
    QLabel *m_summary;
    QTableWidget *m_h2d;
    QTableWidget *m_p2p;
    QListWidget *m_findings;
    QTableWidget *m_predictions;
};

} // namespace clab::views
