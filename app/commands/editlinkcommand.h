#pragma once

#include "design/design.h"

#include <QCoreApplication>
#include <QUndoCommand>

namespace clab {
class Document;
}

namespace clab::commands {

// Replaces link number `index` (kind, count, endpoints). An index out of range, a link that could
// not be stored (design::isStorableLink) or no change leaves no undo step.
class EditLinkCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::EditLinkCommand)

public:
    EditLinkCommand(Document *document, int index, design::Link link);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    design::Link m_link;
    design::Link m_old;
};

} // namespace clab::commands
