#pragma once

#include "design/edit.h"

#include <QCoreApplication>
#include <QUndoCommand>

#include <optional>
#include <string>

namespace clab {
class Document;
}

namespace clab::commands {

// Composes a device to a host (appends it to that host's system, creating a system named after the
// host if it has none) or, with an empty hostId, releases it to the pool (removes it from every
// system). A device is in at most one system afterwards. Unknown ids, or nothing to change, leave
// no undo step.
class ComposeCommand : public QUndoCommand
{
    Q_DECLARE_TR_FUNCTIONS(clab::commands::ComposeCommand)

public:
    ComposeCommand(Document *document, std::string deviceId, std::string hostId);

    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_deviceId;
    std::string m_hostId;
    std::optional<design::Composition> m_done;
};

} // namespace clab::commands
