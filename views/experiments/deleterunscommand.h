#pragma once

#include "store/runquery.h"

#include <QString>
#include <QUndoCommand>

#include <functional>
#include <vector>

namespace clab::views {

// Deletes runs from a store file in one transaction; undo puts the exact rows back (same ids,
// same values, NULLs kept). The store is opened writable only inside redo() and undo().
// `changed` is called after each, with an empty text or the error, so the view can reload.
class DeleteRunsCommand final : public QUndoCommand
{
public:
    using Changed = std::function<void(const QString &error)>;

    DeleteRunsCommand(QString storePath, std::vector<std::int64_t> ids, Changed changed);

    void redo() override;
    void undo() override;

    const std::vector<store::StoredRunRow> &deletedRows() const { return m_rows; }

private:
    QString m_storePath;
    std::vector<std::int64_t> m_ids;
    std::vector<store::StoredRunRow> m_rows;
    Changed m_changed;
};

} // namespace clab::views
