#include "commands/renamesystemcommand.h"

#include "document.h"

#include "design/edit.h"

namespace clab::commands {

RenameSystemCommand::RenameSystemCommand(Document *document, std::string oldName,
                                         std::string newName)
    : m_document(document)
    , m_oldName(std::move(oldName))
    , m_newName(std::move(newName))
{
    setText(tr("Rename system %1").arg(QString::fromStdString(m_oldName)));
}

void RenameSystemCommand::redo()
{
    const bool done = m_document->applyChecked(
        [this](design::Design &edited) {
            return design::renameSystem(edited, m_oldName, m_newName);
        },
        [this](design::Design &edited) { design::renameSystem(edited, m_newName, m_oldName); },
        Change::of(Change::Systems, {m_oldName, m_newName}));
    if (!done)
        setObsolete(true);
}

void RenameSystemCommand::undo()
{
    m_document->apply(
        [this](design::Design &edited) { design::renameSystem(edited, m_newName, m_oldName); },
        Change::of(Change::Systems, {m_oldName, m_newName}));
}

} // namespace clab::commands
