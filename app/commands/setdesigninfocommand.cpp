#include "commands/setdesigninfocommand.h"

#include "document.h"

#include <utility>

namespace clab::commands {

SetDesignInfoCommand::SetDesignInfoCommand(Document *document, std::string name,
                                           std::string description)
    : m_document(document)
    , m_name(std::move(name))
    , m_description(std::move(description))
{
    setText(tr("Edit the design's name and description"));
}

void SetDesignInfoCommand::redo()
{
    const design::Design &current = m_document->design();
    if (current.name == m_name && current.description == m_description) {
        setObsolete(true);
        return;
    }
    const auto swap = [this](design::Design &edited) {
        std::swap(edited.name, m_name);
        std::swap(edited.description, m_description);
    };
    const bool done = m_document->applyChecked(
        [swap](design::Design &edited) {
            swap(edited);
            return true;
        },
        swap, Change::of(Change::DesignInfo));
    if (!done)
        setObsolete(true);
}

void SetDesignInfoCommand::undo()
{
    swap();
}

void SetDesignInfoCommand::swap()
{
    m_document->apply(
        [this](design::Design &edited) {
            std::swap(edited.name, m_name);
            std::swap(edited.description, m_description);
        },
        Change::of(Change::DesignInfo));
}

} // namespace clab::commands
