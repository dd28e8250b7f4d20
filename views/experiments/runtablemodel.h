#pragma once

#include "store/runquery.h"

#include <QAbstractTableModel>

#include <memory>
#include <unordered_map>
#include <vector>

namespace clab::views {

// The runs of a store as a table. It keeps only the sorted ids of the runs that pass the filter
// (800 KB for 100,000 runs) and loads the rows the view asks for in blocks; filtering and sorting
// happen in SQL (store::RunQuery), so nothing here walks all rows.
class RunTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        System,
        Benchmark,
        Metric,
        Value,
        Unit,
        GlobalBatch,
        Precision,
        Framework,
        RoundDate,
        Kind,
        ColumnCount
    };

    explicit RunTableModel(QObject *parent = nullptr);
    ~RunTableModel() override;

    // Takes the query (nullptr: empty table) and reloads.
    void setQuery(std::shared_ptr<store::RunQuery> query);
    store::RunQuery *query() const { return m_query.get(); }
    void setFilter(const store::RunFilter &filter);
    const store::RunFilter &filter() const { return m_filter; }
    // Queries the ids again (after a filter change or an edit of the store).
    void refresh();

    std::int64_t runId(int row) const;
    int rowOfRun(std::int64_t id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    // column -1: import order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

Q_SIGNALS:
    // The store could not be read (it changed under us, or is locked): the view shows the text.
    void failed(const QString &message) const;

private:
    const store::StoredRun *row(int row) const;

    std::shared_ptr<store::RunQuery> m_query;
    store::RunFilter m_filter;
    store::RunSort m_sort;
    std::vector<std::int64_t> m_ids;
    // Loaded rows by block (row / blockSize); dropped wholesale when too many are kept.
    mutable std::unordered_map<int, std::vector<store::StoredRun>> m_blocks;
};

} // namespace clab::views
