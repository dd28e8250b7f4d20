#pragma once

#include "design/edit.h"

#include <QCoreApplication>
#include <QUndoCommand>

#include <optional>
#include <vector>

namespace clab {
class Document;
struct Change;
} // namespace clab

namespace clab::commands {

// A new named system with a host and devices, appended to the systems; the devices leave any other
// system. A name already taken gets a " (2)" suffix (design::groupSystem); an unknown host leaves
// no undo step.
class GroupSystemCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::GroupSystemCommand)

public:
    GroupSystemCommand(Document *document, design::System system);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    Change change() const; // Systems and Composition, with the system's name and members
    design::System m_system;
    std::optional<std::vector<design::Membership>> m_released;
};

} // namespace clab::commands
