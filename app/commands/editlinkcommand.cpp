#include "commands/editlinkcommand.h"

#include "document.h"

#include "design/edit.h"

#include <utility>

namespace clab::commands {

EditLinkCommand::EditLinkCommand(Document *document, design::Link link)
    : m_document(document)
    , m_link(std::move(link))
{
    setText(tr("Edit link %1 - %2")
                .arg(QString::fromStdString(m_link.from), QString::fromStdString(m_link.to)));
}

void EditLinkCommand::redo()
{
    const design::Design &current = m_document->design();
    const design::Link *now = current.link(m_link.id);
    if (!now || *now == m_link || !design::isStorableLink(current, m_link)) {
        setObsolete(true);
        return;
    }
    const auto swap = [this](design::Design &edited) {
        const int at = design::linkIndex(edited, m_link.id);
        std::swap(edited.links[std::size_t(at)], m_old);
    };
    m_old = m_link;
    const bool done = m_document->applyChecked(
        [swap](design::Design &edited) {
            swap(edited);
            return true;
        },
        swap, Change::of(Change::Links, {m_link.id}));
    if (!done)
        setObsolete(true);
}

void EditLinkCommand::undo()
{
    m_document->apply(
        [this](design::Design &edited) {
            const int at = design::linkIndex(edited, m_old.id);
            if (at >= 0)
                edited.links[std::size_t(at)] = m_old;
        },
        Change::of(Change::Links, {m_old.id}));
}

} // namespace clab::commands
