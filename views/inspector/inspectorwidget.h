#pragma once

#include "design/design.h"
#include "views/inspector/inspectorrows.h"

#include <QVariant>
#include <QWidget>

#include <string>
#include <vector>

class QFormLayout;

namespace clab::catalog {
class Catalog;
}

namespace clab::views {

// The properties of what is selected on the canvas: name, catalog model, the host a device is
// composed to, its chassis slot; a link's kind and count; with nothing selected, the design's
// name and description. Edits leave as requests (signals) for the document's commands.
//
// A request usually comes back at once as a refresh (the command changed the document). The
// editors are then updated in place; when the form must change shape, it is rebuilt after the
// editor's signal has returned, never inside it.
class InspectorWidget : public QWidget
{
    Q_OBJECT

public:
    explicit InspectorWidget(QWidget *parent = nullptr);

    void showSelection(const design::Design &design, const std::vector<std::string> &ids,
                       const std::vector<std::string> &links); // link ids
    // The editor of a property ("name", "model", "host", "slot", "kind", "count", ...) of the
    // item shown, for tests and for F2 (rename).
    QWidget *editor(const QString &property) const;
    // True while a rebuild waits for an editor's signal to return.
    bool rebuildPending() const { return m_pendingRebuild; }

Q_SIGNALS:
    void renameRequested(const std::string &id, const std::string &name);
    void modelRequested(const std::string &id, const std::string &model);
    void hostRequested(const std::string &device, const std::string &host);
    void slotRequested(const std::string &device, const std::string &chassis, int slot);
    void linkEditRequested(const design::Link &link); // the link with link.id, edited
    void systemRenameRequested(const std::string &oldName, const std::string &newName);
    void designInfoRequested(const std::string &name, const std::string &description);

private:
    using Rows = std::vector<InspectorRow>;

    Rows designRows(const design::Design &design);
    Rows itemRows(const design::Design &design, const std::string &id);
    Rows deviceRows(const design::Design &design, const design::Device &device);
    Rows linkRows(const design::Design &design, const std::string &linkId);
    void addNameRows(Rows &rows, const std::string &id, const std::string &name);
    void addModelRows(Rows &rows, const std::string &id, const std::string &model);

    void show(Rows rows);
    void rebuild();
    void updateInPlace(const Rows &rows);
    QWidget *createEditor(std::size_t row);
    void commitRow(std::size_t row);
    // The value the editor of this name shows now: text, choice data or number.
    QVariant value(const QString &name) const;

    QFormLayout *m_form;
    Rows m_rows;                     // what the form shows
    std::vector<QWidget *> m_fields; // the field widget of each row
    Rows m_next;                     // what it will show after a deferred rebuild
    int m_committing = 0;            // > 0 while an editor's commit runs
    bool m_pendingRebuild = false;
};

} // namespace clab::views
