#pragma once

#include "design/design.h"

#include <QCoreApplication>
#include <QUndoCommand>

namespace clab {
class Document;
}

namespace clab::commands {

// Appends a link (with a fresh id when it has none). A link whose endpoints name no item, or whose
// count is out of range, leaves no undo step; whether the ports can be linked is for the design
// rules to say.
class AddLinkCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::AddLinkCommand)

public:
    AddLinkCommand(Document *document, design::Link link);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    design::Link m_link;
};

} // namespace clab::commands
