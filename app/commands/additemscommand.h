#pragma once

#include "design/design.h"

#include <QUndoCommand>

#include <map>
#include <string>

namespace clab {
class Document;
struct Change;
} // namespace clab

namespace clab::commands {

// Adds everything in `fragment` (hosts, chassis, switches, devices, links, systems, layout
// positions) at the end of the design's lists. Used by palette drops and paste; give it a fragment
// from design::prepareForPaste or with ids from design::uniqueId, so that no id repeats.
class AddItemsCommand : public QUndoCommand
{
public:
    AddItemsCommand(Document *document, design::Design fragment, const QString &text);

    void redo() override;
    void undo() override;

private:
    Change change() const; // the kinds of what the fragment holds, with its ids

    Document *m_document;
    design::Design m_fragment;
    std::map<std::string, design::Position> m_overwritten; // positions the fragment replaced
};

} // namespace clab::commands
