#pragma once

#include <QCoreApplication>
#include <QUndoCommand>

#include <string>

namespace clab {
class Document;
}

namespace clab::commands {

// Design name and description. No change leaves no undo step.
class SetDesignInfoCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::SetDesignInfoCommand)

public:
    SetDesignInfoCommand(Document *document, std::string name, std::string description);

    void redo() override;
    void undo() override;

private:
    void swap();

    Document *m_document;
    // The values to set; each redo and undo swaps them with the design's.
    std::string m_name;
    std::string m_description;
};

} // namespace clab::commands
