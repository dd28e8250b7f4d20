#include "commands/addlinkcommand.h"

#include "document.h"

#include "design/edit.h"

namespace clab::commands {

AddLinkCommand::AddLinkCommand(Document *document, design::Link link)
    : m_document(document)
    , m_link(std::move(link))
{
    setText(tr("Link %1 to %2")
                .arg(QString::fromStdString(m_link.from), QString::fromStdString(m_link.to)));
}

void AddLinkCommand::redo()
{
    const design::Design &current = m_document->design();
    if (!design::isStorableLink(current, m_link)
        || (!m_link.id.empty() && current.link(m_link.id))) {
        setObsolete(true);
        return;
    }
    if (m_link.id.empty())
        m_link.id = design::uniqueLinkId(current); // kept, so that a redo brings the same link
    const bool done = m_document->applyChecked(
        [this](design::Design &edited) {
            edited.links.push_back(m_link);
            return true;
        },
        [](design::Design &edited) { edited.links.pop_back(); },
        Change::of(Change::Links, {m_link.id}));
    if (!done)
        setObsolete(true);
}

void AddLinkCommand::undo()
{
    m_document->apply(
        [this](design::Design &edited) {
            const int at = design::linkIndex(edited, m_link.id);
            if (at >= 0)
                edited.links.erase(edited.links.begin() + at);
        },
        Change::of(Change::Links, {m_link.id}));
}

} // namespace clab::commands
