#include "commands/removesystemcommand.h"

#include "document.h"

namespace clab::commands {

RemoveSystemCommand::RemoveSystemCommand(Document *document, std::string name)
    : m_document(document)
    , m_name(std::move(name))
{
    setText(tr("Remove system %1").arg(QString::fromStdString(m_name)));
}

void RemoveSystemCommand::redo()
{
    m_document->applyChecked(
        [this](design::Design &edited) {
            m_removed = design::takeSystem(edited, m_name);
            return m_removed.has_value();
        },
        [this](design::Design &edited) {
            design::putBackSystem(edited, *m_removed);
            m_removed.reset();
        },
        Change::of(Change::Systems | Change::Composition, {m_name}));
    if (!m_removed)
        setObsolete(true);
}

void RemoveSystemCommand::undo()
{
    if (m_removed)
        m_document->apply(
            [this](design::Design &edited) { design::putBackSystem(edited, *m_removed); },
            Change::of(Change::Systems | Change::Composition, {m_name}));
}

} // namespace clab::commands
