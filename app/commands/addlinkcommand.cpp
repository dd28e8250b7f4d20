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
    if (!design::isStorableLink(m_document->design(), m_link)) {
        setObsolete(true);
        return;
    }
    m_document->apply([this](design::Design &edited) { edited.links.push_back(m_link); });
}

void AddLinkCommand::undo()
{
    m_document->apply([](design::Design &edited) {
        if (!edited.links.empty())
            edited.links.pop_back();
    });
}

} // namespace clab::commands
