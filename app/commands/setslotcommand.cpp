#include "commands/setslotcommand.h"

#include "document.h"

namespace clab::commands {

SetSlotCommand::SetSlotCommand(Document *document, std::string deviceId, std::string chassis,
                               int slot)
    : m_document(document)
    , m_deviceId(std::move(deviceId))
    , m_to{std::move(chassis), slot}
{
    if (m_to.chassis.empty())
        m_to.slot = -1;
    const QString device = QString::fromStdString(m_deviceId);
    setText(m_to.chassis.empty() ? tr("Take %1 out of its chassis").arg(device)
                                 : tr("Put %1 in %2 slot %3")
                                       .arg(device, QString::fromStdString(m_to.chassis))
                                       .arg(m_to.slot));
}

void SetSlotCommand::redo()
{
    const design::Device *device = m_document->design().device(m_deviceId);
    if (device && design::Placement{device->chassis, device->slot} == m_to) {
        setObsolete(true);
        return;
    }
    const bool done = m_document->applyChecked(
        [this](design::Design &edited) {
            std::optional<design::Placement> old = design::setPlacement(edited, m_deviceId, m_to);
            if (old)
                m_from = std::move(*old);
            return old.has_value();
        },
        [this](design::Design &edited) { design::setPlacement(edited, m_deviceId, m_from); },
        Change::of(Change::Composition, {m_deviceId}));
    if (!done)
        setObsolete(true);
}

void SetSlotCommand::undo()
{
    m_document->apply(
        [this](design::Design &edited) { design::setPlacement(edited, m_deviceId, m_from); },
        Change::of(Change::Composition, {m_deviceId}));
}

} // namespace clab::commands
