#include "commands/removeitemscommand.h"

#include "document.h"

namespace clab::commands {

RemoveItemsCommand::RemoveItemsCommand(Document *document, std::vector<std::string> ids,
                                       std::vector<std::string> linkIds)
    : m_document(document)
    , m_ids(std::move(ids))
    , m_links(std::move(linkIds))
{
    const design::Link *link
        = m_links.size() == 1 ? m_document->design().link(m_links.front()) : nullptr;
    if (m_ids.size() == 1 && m_links.empty())
        setText(tr("Remove %1").arg(QString::fromStdString(m_ids.front())));
    else if (m_ids.empty() && link)
        setText(tr("Remove link %1 - %2")
                    .arg(QString::fromStdString(link->from), QString::fromStdString(link->to)));
    else
        setText(tr("Remove %n item(s)", nullptr, int(m_ids.size() + m_links.size())));
}

std::vector<std::string> RemoveItemsCommand::ids() const
{
    std::vector<std::string> ids = m_ids;
    ids.insert(ids.end(), m_links.begin(), m_links.end());
    return ids;
}

void RemoveItemsCommand::redo()
{
    const Change change
        = Change::of(Change::Composition | Change::Links | Change::Systems | Change::Layout, ids());
    m_document->applyChecked(
        [this](design::Design &edited) {
            m_removed = design::removeItems(edited, m_ids, m_links);
            return !m_removed.empty();
        },
        [this](design::Design &edited) {
            design::restoreItems(edited, m_removed);
            m_removed = {};
        },
        change);
    if (m_removed.empty())
        setObsolete(true);
}

void RemoveItemsCommand::undo()
{
    m_document->apply(
        [this](design::Design &edited) { design::restoreItems(edited, m_removed); },
        Change::of(Change::Composition | Change::Links | Change::Systems | Change::Layout, ids()));
    m_removed = {}; // redo recomputes it; no need to keep a second copy meanwhile
}

} // namespace clab::commands
