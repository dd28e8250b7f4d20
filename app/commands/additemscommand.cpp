#include "commands/additemscommand.h"

#include "document.h"

#include "design/edit.h"

namespace clab::commands {

namespace {

bool isEmpty(const design::Design &d)
{
    return d.hosts.empty() && d.chassis.empty() && d.switches.empty() && d.devices.empty()
           && d.links.empty() && d.systems.empty() && d.layout.empty();
}

} // namespace

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
    m_document->apply([this](design::Design &edited) {
        m_overwritten = design::appendItems(edited, m_fragment);
    });
}

void AddItemsCommand::undo()
{
    m_document->apply([this](design::Design &edited) {
        design::removeAppended(edited, m_fragment, m_overwritten);
    });
}

} // namespace clab::commands
