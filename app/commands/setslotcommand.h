#pragma once

#include "design/edit.h"

#include <QCoreApplication>
#include <QUndoCommand>

#include <string>

namespace clab {
class Document;
}

namespace clab::commands {

// Puts a device into a chassis slot, or takes it out with an empty chassis (slot -1). An unknown
// device or chassis, a negative slot or no change leaves no undo step; a slot already in use is
// left for the design rules to report.
class SetSlotCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::SetSlotCommand)

public:
    SetSlotCommand(Document *document, std::string deviceId, std::string chassis, int slot);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_deviceId;
    design::Placement m_to;
    design::Placement m_from;
};

} // namespace clab::commands
