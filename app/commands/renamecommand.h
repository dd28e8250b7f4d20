#pragma once

#include <QCoreApplication>
#include <QUndoCommand>

#include <string>

namespace clab {
class Document;
}

namespace clab::commands {

// Display name of a host, chassis, switch or device. An unknown id or the same name leaves no
// undo step.
class RenameCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::RenameCommand)

public:
    RenameCommand(Document *document, std::string id, std::string name);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_id;
    std::string m_name;
    std::string m_old;
};

} // namespace clab::commands
