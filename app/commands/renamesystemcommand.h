#pragma once

#include <QCoreApplication>
#include <QUndoCommand>

#include <string>

namespace clab {
class Document;
}

namespace clab::commands {

// Renames a system. An unknown old name, or a new name that is empty or taken, leaves no undo
// step (system names identify systems, so they stay unique).
class RenameSystemCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::RenameSystemCommand)

public:
    RenameSystemCommand(Document *document, std::string oldName, std::string newName);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_oldName;
    std::string m_newName;
};

} // namespace clab::commands
