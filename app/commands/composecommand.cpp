#include "commands/composecommand.h"

#include "document.h"

namespace clab::commands {

ComposeCommand::ComposeCommand(Document *document, std::string deviceId, std::string hostId)
    : m_document(document)
    , m_deviceId(std::move(deviceId))
    , m_hostId(std::move(hostId))
{
    const QString device = QString::fromStdString(m_deviceId);
    setText(m_hostId.empty()
                ? tr("Release %1 to the pool").arg(device)
                : tr("Compose %1 to %2").arg(device, QString::fromStdString(m_hostId)));
}

void ComposeCommand::redo()
{
    m_document->applyChecked(
        [this](design::Design &edited) {
            m_done = design::compose(edited, m_deviceId, m_hostId);
            return m_done.has_value();
        },
        [this](design::Design &edited) {
            design::undoCompose(edited, *m_done);
            m_done.reset();
        },
        Change::of(Change::Composition | Change::Systems, {m_deviceId, m_hostId}));
    if (!m_done)
        setObsolete(true);
}

void ComposeCommand::undo()
{
    if (m_done)
        m_document->apply(
            [this](design::Design &edited) { design::undoCompose(edited, *m_done); },
            Change::of(Change::Composition | Change::Systems, {m_deviceId, m_hostId}));
}

} // namespace clab::commands
