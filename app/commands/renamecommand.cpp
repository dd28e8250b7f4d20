#include "commands/renamecommand.h"

#include "document.h"

#include "design/edit.h"

namespace clab::commands {

RenameCommand::RenameCommand(Document *document, std::string id, std::string name)
    : m_document(document)
    , m_id(std::move(id))
    , m_name(std::move(name))
{
    setText(tr("Rename %1").arg(QString::fromStdString(m_id)));
}

void RenameCommand::redo()
{
    const bool done = m_document->applyChecked(
        [this](design::Design &edited) {
            std::optional<std::string> old = design::setItemName(edited, m_id, m_name);
            if (!old)
                return false;
            if (*old == m_name)
                return false; // unchanged: nothing to announce, nothing to undo
            m_old = std::move(*old);
            return true;
        },
        [this](design::Design &edited) { design::setItemName(edited, m_id, m_old); },
        Change::of(Change::Names, {m_id}));
    if (!done)
        setObsolete(true);
}

void RenameCommand::undo()
{
    m_document->apply([this](design::Design &edited) { design::setItemName(edited, m_id, m_old); },
                      Change::of(Change::Names, {m_id}));
}

} // namespace clab::commands
