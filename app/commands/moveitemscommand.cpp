#include "commands/moveitemscommand.h"

#include "commands/commandids.h"
#include "document.h"

#include "design/edit.h"

#include <algorithm>

namespace clab::commands {

MoveItemsCommand::MoveItemsCommand(Document *document, std::map<std::string, design::Position> to)
    : m_document(document)
{
    const design::Design &current = document->design();
    for (auto &[id, position] : to) {
        if (design::hasItem(current, id)) {
            m_to.emplace(id, position);
            const auto it = current.layout.find(id);
            m_from.emplace(id,
                           it == current.layout.end() ? std::nullopt : std::optional(it->second));
        }
    }
    setText(m_to.size() == 1 ? tr("Move %1").arg(QString::fromStdString(m_to.begin()->first))
                             : tr("Move %n item(s)", nullptr, int(m_to.size())));
}

void MoveItemsCommand::redo()
{
    if (m_to.empty() || m_to == m_from) {
        setObsolete(true);
        return;
    }
    const bool done = m_document->applyChecked(
        [this](design::Design &edited) {
            design::setPositions(edited, m_to);
            return true;
        },
        [this](design::Design &edited) { design::setPositions(edited, m_from); }, change());
    if (!done)
        setObsolete(true);
}

void MoveItemsCommand::undo()
{
    m_document->apply([this](design::Design &edited) { design::setPositions(edited, m_from); },
                      change());
}

Change MoveItemsCommand::change() const
{
    std::vector<std::string> ids;
    for (const auto &[id, position] : m_to)
        ids.push_back(id);
    return Change::of(Change::Layout, std::move(ids));
}

int MoveItemsCommand::id() const
{
    return kMoveItemsId;
}

bool MoveItemsCommand::sameIds(const MoveItemsCommand &other) const
{
    return std::equal(m_to.begin(), m_to.end(), other.m_to.begin(), other.m_to.end(),
                      [](const auto &a, const auto &b) { return a.first == b.first; });
}

bool MoveItemsCommand::mergeWith(const QUndoCommand *other)
{
    const auto *move = dynamic_cast<const MoveItemsCommand *>(other);
    // QUndoStack offers a refused move (obsolete after its redo) for merging too: it moved nothing.
    if (!move || move->isObsolete() || move->m_document != m_document || !sameIds(*move))
        return false;
    m_to = move->m_to;
    setObsolete(m_to == m_from);
    return true;
}

} // namespace clab::commands
