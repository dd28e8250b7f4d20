#pragma once

#include "design/design.h"

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
class InspectorWidget : public QWidget
{
    Q_OBJECT

public:
    explicit InspectorWidget(const catalog::Catalog &catalog, QWidget *parent = nullptr);

    void showSelection(const design::Design &design, const std::vector<std::string> &ids,
                       const std::vector<int> &links);
    // The editor of a property ("name", "model", "host", "slot", "kind", "count", ...) of the
    // item shown, for tests and for F2 (rename).
    QWidget *editor(const QString &property) const;

Q_SIGNALS:
    void renameRequested(const std::string &id, const std::string &name);
    void modelRequested(const std::string &id, const std::string &model);
    void hostRequested(const std::string &device, const std::string &host);
    void slotRequested(const std::string &device, const std::string &chassis, int slot);
    void linkEditRequested(int index, const design::Link &link);
    void systemRenameRequested(const std::string &oldName, const std::string &newName);
    void designInfoRequested(const std::string &name, const std::string &description);

private:
    void clear();
    void showDesign(const design::Design &design);
    void showItem(const design::Design &design, const std::string &id);
    void showDevice(const design::Design &design, const design::Device &device);
    void showLink(const design::Design &design, int index);
    void addModelEditor(const std::string &id, const std::string &model);
    void addNameEditor(const std::string &id, const std::string &name);

    const catalog::Catalog &m_catalog;
    QFormLayout *m_form;
};

} // namespace clab::views
