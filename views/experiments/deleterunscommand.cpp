#include "views/experiments/deleterunscommand.h"

#include "store/sqlite.h"

#include <QCoreApplication>

namespace clab::views {

DeleteRunsCommand::DeleteRunsCommand(QString storePath, std::vector<std::int64_t> ids,
                                     Changed changed)
    : m_storePath(std::move(storePath))
    , m_ids(std::move(ids))
    , m_changed(std::move(changed))
{
    setText(QCoreApplication::translate("DeleteRunsCommand", "Delete %n run(s)", nullptr,
                                        int(m_ids.size())));
}

void DeleteRunsCommand::redo()
{
    QString error;
    try {
        m_rows = store::deleteRuns(m_storePath.toStdString(), m_ids);
    } catch (const store::StoreError &e) {
        error = QString::fromStdString(e.what());
        // Nothing was deleted: QUndoStack::push drops a command made obsolete by its first redo.
        setObsolete(true);
    }
    if (m_changed)
        m_changed(error);
}

void DeleteRunsCommand::undo()
{
    QString error;
    try {
        store::restoreRuns(m_storePath.toStdString(), m_rows);
    } catch (const store::StoreError &e) {
        error = QString::fromStdString(e.what());
    }
    if (m_changed)
        m_changed(error);
}

} // namespace clab::views
