#pragma once

#include "design/design.h"

#include <QCoreApplication>
#include <QUndoCommand>

#include <map>
#include <optional>
#include <string>

namespace clab {
class Document;
struct Change;
} // namespace clab

namespace clab::commands {

// Moves items to new positions; old positions are read from the document at construction (ids
// that name no item are dropped). Consecutive moves of the same set of ids merge into one step
// (a drag is one undo step); a merge that ends where it started leaves no step at all.
class MoveItemsCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::MoveItemsCommand)

public:
    MoveItemsCommand(Document *document, std::map<std::string, design::Position> to);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    bool sameIds(const MoveItemsCommand &other) const;
    Change change() const; // Layout, with the moved ids

    Document *m_document;
    std::map<std::string, std::optional<design::Position>> m_from; // none: had no position
    std::map<std::string, std::optional<design::Position>> m_to;
};

} // namespace clab::commands
