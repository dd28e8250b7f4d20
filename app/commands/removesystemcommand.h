#pragma once

#include "design/edit.h"

#include <QCoreApplication>
#include <QUndoCommand>

#include <optional>
#include <string>

namespace clab {
class Document;
}

namespace clab::commands {

// Removes the system named; its devices return to the pool. Undo puts it back in its place.
class RemoveSystemCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::RemoveSystemCommand)

public:
    RemoveSystemCommand(Document *document, std::string name);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_name;
    std::optional<design::Indexed<design::System>> m_removed;
};

} // namespace clab::commands
