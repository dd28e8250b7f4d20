#pragma once

#include <QCoreApplication>
#include <QUndoCommand>

#include <string>

namespace clab {
class Document;
}

namespace clab::commands {

// Catalog model of a host, chassis, switch or device. An unknown id or the same model leaves no
// undo step.
class SetModelCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::SetModelCommand)

public:
    SetModelCommand(Document *document, std::string id, std::string model);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_id;
    std::string m_model;
    std::string m_old;
};

} // namespace clab::commands
