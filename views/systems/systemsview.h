#pragma once

#include "fabric/analysis.h"

#include <QWidget>

class QListWidget;
class QTableWidget;
class QLabel;

namespace clab::views {

// Shows an analysis: the composed systems on the left; for the selected one its host-to-device
// table and peer-to-peer matrix; the design-rule findings below. It only shows numbers that
// model/fabric computed.
class SystemsView : public QWidget
{
    Q_OBJECT

public:
    explicit SystemsView(QWidget *parent = nullptr);

    void setAnalysis(const fabric::Analysis &analysis);
    int systemCount() const;
    QTableWidget *hostToDeviceTable() const { return m_h2d; }
    QTableWidget *peerTable() const { return m_p2p; }
    QListWidget *findingsList() const { return m_findings; }
    void selectSystem(int row);

private:
    void showSystem(int row);

    fabric::Analysis m_analysis;
    QListWidget *m_systems;
    QLabel *m_summary;
    QTableWidget *m_h2d;
    QTableWidget *m_p2p;
    QListWidget *m_findings;
};

} // namespace clab::views
