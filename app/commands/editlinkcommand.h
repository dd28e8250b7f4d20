#pragma once

#include "design/design.h"

#include <QCoreApplication>
#include <QUndoCommand>

namespace clab {
class Document;
}

namespace clab::commands {

// Replaces the link with `link.id` (kind, count, endpoints; the id stays). An unknown id, a link
// that could not be stored (design::isStorableLink) or no change leaves no undo step.
class EditLinkCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::EditLinkCommand)

public:
    EditLinkCommand(Document *document, design::Link link);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    design::Link m_link;
    design::Link m_old;
};

} // namespace clab::commands
