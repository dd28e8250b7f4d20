#include "views/experiments/runtablemodel.h"

#include "store/sqlite.h"
#include "views/common/qtext.h"

#include <algorithm>

namespace clab::views {

namespace {

// 256 rows is a few screens: one query per scroll of several pages. 64 blocks (16,384 rows) cap
// the memory whatever the store's size.
constexpr int blockSize = 256;
constexpr std::size_t maxBlocks = 64;

store::RunColumn sortColumn(int column)
{
    switch (column) {
    case RunTableModel::System:
        return store::RunColumn::System;
    case RunTableModel::Benchmark:
        return store::RunColumn::Benchmark;
    case RunTableModel::Metric:
        return store::RunColumn::Metric;
    case RunTableModel::Value:
        return store::RunColumn::Value;
    case RunTableModel::Unit:
        return store::RunColumn::Unit;
    case RunTableModel::GlobalBatch:
        return store::RunColumn::GlobalBatch;
    case RunTableModel::Precision:
        return store::RunColumn::Precision;
    case RunTableModel::Framework:
        return store::RunColumn::Framework;
    case RunTableModel::RoundDate:
        return store::RunColumn::Round;
    case RunTableModel::Kind:
        return store::RunColumn::Kind;
    default:
        return store::RunColumn::Id;
    }
}

} // namespace

RunTableModel::RunTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

RunTableModel::~RunTableModel() = default;

void RunTableModel::setQuery(std::shared_ptr<store::RunQuery> query)
{
    m_query = std::move(query);
    refresh();
}

void RunTableModel::setFilter(const store::RunFilter &filter)
{
    m_filter = filter;
    refresh();
}

void RunTableModel::refresh()
{
    beginResetModel();
    m_blocks.clear();
    m_ids.clear();
    QString error;
    if (m_query) {
        try {
            m_ids = m_query->ids(m_filter, m_sort);
        } catch (const store::StoreError &e) {
            error = QString::fromStdString(e.what());
        }
    }
    endResetModel();
    if (!error.isEmpty())
        Q_EMIT failed(error);
}

std::int64_t RunTableModel::runId(int row) const
{
    return row >= 0 && std::size_t(row) < m_ids.size() ? m_ids[std::size_t(row)] : 0;
}

int RunTableModel::rowOfRun(std::int64_t id) const
{
    const auto it = std::find(m_ids.begin(), m_ids.end(), id);
    return it == m_ids.end() ? -1 : int(it - m_ids.begin());
}

int RunTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ids.size());
}

int RunTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const store::StoredRun *RunTableModel::row(int row) const
{
    if (!m_query || row < 0 || std::size_t(row) >= m_ids.size())
        return nullptr;
    const int block = row / blockSize;
    auto it = m_blocks.find(block);
    if (it == m_blocks.end()) {
        if (m_blocks.size() >= maxBlocks)
            m_blocks.clear();
        const auto first = m_ids.begin() + std::ptrdiff_t(block) * blockSize;
        const auto last
            = m_ids.begin()
              + std::ptrdiff_t(std::min(m_ids.size(), std::size_t(block + 1) * blockSize));
        std::vector<store::StoredRun> rows;
        try {
            rows = m_query->rows(std::vector<std::int64_t>(first, last));
        } catch (const store::StoreError &e) {
            Q_EMIT failed(QString::fromStdString(e.what()));
        }
        // A run deleted by someone else leaves a gap: keep the block aligned with the ids.
        std::vector<store::StoredRun> aligned(std::size_t(last - first));
        std::size_t next = 0;
        for (std::size_t i = 0; i < aligned.size(); ++i) {
            if (next < rows.size() && rows[next].row.id == *(first + std::ptrdiff_t(i)))
                aligned[i] = std::move(rows[next++]);
        }
        it = m_blocks.emplace(block, std::move(aligned)).first;
    }
    const store::StoredRun &r = it->second[std::size_t(row % blockSize)];
    return r.row.id ? &r : nullptr;
}

QVariant RunTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (role == Qt::TextAlignmentRole) {
        if (index.column() == Value || index.column() == GlobalBatch)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const store::StoredRun *run = row(index.row());
    if (!run)
        return {};
    const store::StoredRunRow &r = run->row;
    const auto text = [](const std::optional<std::string> &value) {
        return value ? toQString(*value) : QString();
    };
    switch (index.column()) {
    case System:
        return toQString(run->system);
    case Benchmark:
        return toQString(r.benchmark);
    case Metric:
        return toQString(r.metric);
    case Value:
        // 12 significant digits: a stored 16838.25 shows as such, while binary noise
        // (0.1 + 0.2) does not.
        return QString::number(r.value, 'g', 12);
    case Unit:
        return toQString(r.unit);
    case GlobalBatch:
        return r.globalBatch ? QString::number(*r.globalBatch) : QString();
    case Precision:
        return text(r.precision);
    case Framework:
        return text(r.framework);
    case RoundDate: {
        const QString round = text(r.round);
        const QString date = text(r.date);
        if (!round.isEmpty() && !date.isEmpty())
            return round + QStringLiteral(" / ") + date;
        return round.isEmpty() ? date : round;
    }
    case Kind:
        return r.measured ? tr("measured") : tr("predicted");
    default:
        return {};
    }
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case System:
        return tr("System");
    case Benchmark:
        return tr("Benchmark");
    case Metric:
        return tr("Metric");
    case Value:
        return tr("Value");
    case Unit:
        return tr("Unit");
    case GlobalBatch:
        return tr("Global batch");
    case Precision:
        return tr("Precision");
    case Framework:
        return tr("Framework");
    case RoundDate:
        return tr("Round / date");
    case Kind:
        return tr("Measured / predicted");
    default:
        return {};
    }
}

void RunTableModel::sort(int column, Qt::SortOrder order)
{
    m_sort.column = sortColumn(column);
    m_sort.descending = order == Qt::DescendingOrder;
    refresh();
}

} // namespace clab::views
