#include "commands/groupsystemcommand.h"

#include "document.h"

namespace clab::commands {

GroupSystemCommand::GroupSystemCommand(Document *document, design::System system)
    : m_document(document)
    , m_system(std::move(system))
{
    setText(tr("Group system %1").arg(QString::fromStdString(m_system.name)));
}

void GroupSystemCommand::redo()
{
    m_document->applyChecked(
        [this](design::Design &edited) {
            m_released = design::groupSystem(edited, m_system);
            return m_released.has_value();
        },
        [this](design::Design &edited) {
            design::ungroupSystem(edited, *m_released);
            m_released.reset();
        },
        change());
    if (!m_released)
        setObsolete(true);
}

Change GroupSystemCommand::change() const
{
    std::vector<std::string> ids{m_system.name, m_system.host};
    ids.insert(ids.end(), m_system.devices.begin(), m_system.devices.end());
    return Change::of(Change::Systems | Change::Composition, std::move(ids));
}

void GroupSystemCommand::undo()
{
    if (m_released)
        m_document->apply(
            [this](design::Design &edited) { design::ungroupSystem(edited, *m_released); },
            change());
}

} // namespace clab::commands
