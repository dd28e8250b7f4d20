#include "commands/additemscommand.h"

#include "document.h"

#include "design/edit.h"

#include <set>

namespace clab::commands {

namespace {

bool isEmpty(const design::Design &d)
{
    return d.hosts.empty() && d.chassis.empty() && d.switches.empty() && d.devices.empty()
           && d.links.empty() && d.systems.empty() && d.layout.empty();
}

} // namespace

Change AddItemsCommand::change() const
{
    const design::Design &f = m_fragment;
    const std::set<std::string> parts = design::itemIds(f);
    Change c = Change::of(parts.empty() ? 0u : unsigned(Change::Composition),
                          {parts.begin(), parts.end()});
    for (const design::Link &l : f.links)
        c.ids.push_back(l.id);
    for (const design::System &s : f.systems)
        c.ids.push_back(s.name);
    c.kinds |= (f.links.empty() ? 0u : unsigned(Change::Links))
               | (f.systems.empty() ? 0u : unsigned(Change::Systems))
               | (f.layout.empty() ? 0u : unsigned(Change::Layout));
    return c;
}

AddItemsCommand::AddItemsCommand(Document *document, design::Design fragment, const QString &text)
    : m_document(document)
    , m_fragment(std::move(fragment))
{
    setText(text);
}

void AddItemsCommand::redo()
{
    if (isEmpty(m_fragment)) {
        setObsolete(true);
        return;
    }
    // Kept in the fragment, so that a redo brings the links back under the same ids.
    design::giveLinkIds(m_document->design(), m_fragment);
    const bool done = m_document->applyChecked(
        [this](design::Design &edited) {
            m_overwritten = design::appendItems(edited, m_fragment);
            return true;
        },
        [this](design::Design &edited) {
            design::removeAppended(edited, m_fragment, m_overwritten);
        },
        change());
    if (!done)
        setObsolete(true);
}

void AddItemsCommand::undo()
{
    m_document->apply(
        [this](design::Design &edited) {
            design::removeAppended(edited, m_fragment, m_overwritten);
        },
        change());
}

} // namespace clab::commands
