#include "commands/editlinkcommand.h"

#include "document.h"

#include "design/edit.h"

#include <utility>

namespace clab::commands {

EditLinkCommand::EditLinkCommand(Document *document, int index, design::Link link)
    : m_document(document)
    , m_index(index)
    , m_link(std::move(link))
{
    setText(tr("Edit link %1 - %2")
                .arg(QString::fromStdString(m_link.from), QString::fromStdString(m_link.to)));
}

void EditLinkCommand::redo()
{
    const design::Design &current = m_document->design();
    if (m_index < 0 || m_index >= int(current.links.size())
        || current.links[std::size_t(m_index)] == m_link
        || !design::isStorableLink(current, m_link)) {
        setObsolete(true);
        return;
    }
    m_document->apply([this](design::Design &edited) {
        m_old = std::exchange(edited.links[std::size_t(m_index)], m_link);
    });
}

void EditLinkCommand::undo()
{
    m_document->apply([this](design::Design &edited) {
        if (m_index >= 0 && m_index < int(edited.links.size()))
            edited.links[std::size_t(m_index)] = m_old;
    });
}

} // namespace clab::commands
