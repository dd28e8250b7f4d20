#include "commands/setmodelcommand.h"

#include "document.h"

#include "design/edit.h"

namespace clab::commands {

SetModelCommand::SetModelCommand(Document *document, std::string id, std::string model)
    : m_document(document)
    , m_id(std::move(id))
    , m_model(std::move(model))
{
    setText(tr("Change the model of %1").arg(QString::fromStdString(m_id)));
}

void SetModelCommand::redo()
{
    const bool done = m_document->applyChecked(
        [this](design::Design &edited) {
            std::optional<std::string> old = design::setItemModel(edited, m_id, m_model);
            if (!old)
                return false;
            if (*old == m_model)
                return false; // unchanged: nothing to announce, nothing to undo
            m_old = std::move(*old);
            return true;
        },
        [this](design::Design &edited) { design::setItemModel(edited, m_id, m_old); },
        Change::of(Change::Models, {m_id}));
    if (!done)
        setObsolete(true);
}

void SetModelCommand::undo()
{
    m_document->apply([this](design::Design &edited) { design::setItemModel(edited, m_id, m_old); },
                      Change::of(Change::Models, {m_id}));
}

} // namespace clab::commands
