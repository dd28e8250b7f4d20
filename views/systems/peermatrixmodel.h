#pragma once

#include "fabric/analysis.h"

#include <QAbstractTableModel>

namespace clab::views {

// The peer-to-peer bandwidth matrix of one composed system, GPU by GPU, shaded by speed. A model
// rather than a table of items: a system may list 1,000 GPUs (10^6 cells), and only the cells on
// screen are ever asked for.
class PeerMatrixModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;

    // `system` must outlive the model's use of it; nullptr empties the matrix.
    void setSystem(const fabric::SystemReport *system);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const fabric::PeerToPeer *pair(int row, int column) const;

    const fabric::SystemReport *m_system = nullptr;
    double m_best = 0;
};

} // namespace clab::views
