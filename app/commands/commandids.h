#pragma once

namespace clab::commands {

// QUndoCommand::id() values: commands with the same id may merge (QUndoStack asks mergeWith).
// Each mergeable command needs its own value; -1 (the default) never merges.
enum CommandId : int {
    kMoveItemsId = 1,
};

} // namespace clab::commands
