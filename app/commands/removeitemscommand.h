#pragma once

#include "design/edit.h"

#include <QCoreApplication>
#include <QUndoCommand>

#include <string>
#include <vector>

namespace clab {
class Document;
}

namespace clab::commands {

// Removes items by id, and with them: links touching them, devices in a removed chassis, their
// membership in systems, systems whose host is removed, their layout positions. `linkIds` are
// extra links to remove, by id. Keeps only what it removed, with the indices, so that
// undo gives back the identical design.
class RemoveItemsCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::RemoveItemsCommand)

public:
    RemoveItemsCommand(Document *document, std::vector<std::string> ids,
                       std::vector<std::string> linkIds = {});

    void redo() override;
    void undo() override;

private:
    std::vector<std::string> ids() const; // the items and the links asked for

    Document *m_document;
    std::vector<std::string> m_ids;
    std::vector<std::string> m_links;
    design::Removal m_removed;
};

} // namespace clab::commands
