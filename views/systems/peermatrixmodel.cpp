#include "views/systems/peermatrixmodel.h"

#include <QColor>

#include <algorithm>

namespace clab::views {

namespace {

// A light colour scale: fast pairs are darker. Cividis-like blue to yellow stays readable for
// colour-blind users.
QColor shade(double value, double maxValue)
{
    const double t = maxValue > 0 ? std::clamp(value / maxValue, 0.0, 1.0) : 0;
    return QColor::fromRgbF(0.98 - 0.45 * t, 0.98 - 0.25 * t, 0.85 + 0.1 * t);
}

} // namespace

void PeerMatrixModel::setSystem(const fabric::SystemReport *system)
{
    beginResetModel();
    m_system = system;
    m_best = 0;
    if (m_system)
        for (const fabric::PeerToPeer &p : m_system->p2p)
            m_best = std::max(m_best, p.GBps);
    endResetModel();
}

int PeerMatrixModel::rowCount(const QModelIndex &parent) const
{
    return m_system && !parent.isValid() ? int(m_system->gpus.size()) : 0;
}

int PeerMatrixModel::columnCount(const QModelIndex &parent) const
{
    return rowCount(parent);
}

// The analysis lists the pairs row by row, skipping the diagonal: n - 1 entries a row.
const fabric::PeerToPeer *PeerMatrixModel::pair(int row, int column) const
{
    const int n = rowCount();
    if (row == column || row < 0 || column < 0 || row >= n || column >= n)
        return nullptr;
    const std::size_t k
        = std::size_t(row) * std::size_t(n - 1) + std::size_t(column < row ? column : column - 1);
    return k < m_system->p2p.size() ? &m_system->p2p[k] : nullptr;
}

QVariant PeerMatrixModel::data(const QModelIndex &index, int role) const
{
    const fabric::PeerToPeer *p = pair(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (!p)
            return QStringLiteral("-");
        // Model, then the real machine's value when the design has it ("20.9 | 26.3 ⚠").
        if (p->measuredGBps)
            return QString::number(p->GBps, 'f', 1) + QStringLiteral(" | ")
                   + QString::number(*p->measuredGBps, 'f', 1)
                   + (fabric::offByMoreThanTolerance(p->GBps, *p->measuredGBps)
                          ? QStringLiteral(" \u26A0")
                          : QString());
        return QString::number(p->GBps, 'f', 1);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::BackgroundRole:
        return p ? QVariant(shade(p->GBps, m_best)) : QVariant();
    case Qt::ForegroundRole:
        return p ? QVariant(QColor(Qt::black)) : QVariant();
    case Qt::ToolTipRole:
        if (!p)
            return {};
        return tr("%1 to %2: %3, %4 GB/s, %5 us")
                   .arg(QString::fromStdString(p->from), QString::fromStdString(p->to),
                        QString::fromLatin1(fabric::routeKindName(p->kind)))
                   .arg(p->GBps, 0, 'f', 1)
                   .arg(p->latencyUs, 0, 'f', 2)
               + (p->measuredGBps
                      ? tr("\nMeasured %1 GB/s (%2); model / measured %3%4")
                            .arg(*p->measuredGBps, 0, 'f', 1)
                            .arg(QString::fromStdString(p->measuredBy))
                            .arg(p->GBps / *p->measuredGBps, 0, 'f', 2)
                            .arg(fabric::offByMoreThanTolerance(p->GBps, *p->measuredGBps)
                                     ? tr(", off by more than 15 %")
                                     : QString())
                      : QString());
    default:
        return {};
    }
}

QVariant PeerMatrixModel::headerData(int section, Qt::Orientation, int role) const
{
    if (role != Qt::DisplayRole || section < 0 || section >= rowCount())
        return {};
    return QString::fromStdString(m_system->gpus[std::size_t(section)]);
}

} // namespace clab::views
