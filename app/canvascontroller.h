#pragma once

#include "design/design.h"

#include <QObject>
#include <QPointF>

#include <functional>
#include <map>
#include <string>

class QMenu;
class QAction;

namespace clab {

class Document;

namespace views {
class CanvasScene;
class CanvasView;
class InspectorWidget;
class PaletteWidget;
} // namespace views

// Turns what the user does on the canvas, the palette and the inspector into commands on the
// document's undo stack, and owns the Edit and View actions that act on the canvas selection
// (delete, copy, paste, group, tidy layout, zoom, snap). The views only ask; this decides.
class CanvasController : public QObject
{
    Q_OBJECT

public:
    CanvasController(Document *document, views::CanvasScene *scene, views::CanvasView *view,
                     views::InspectorWidget *inspector, views::PaletteWidget *palette,
                     QObject *parent = nullptr);

    void addEditActions(QMenu *edit);
    void addViewActions(QMenu *view);

    // A catalog part placed on the canvas: at `pos`, into a chassis slot (`target` a chassis,
    // `slot` or the first free one), or onto a host (`target` a host: linked to it by PCIe and
    // composed to it). Returns the new item's id, or "" with a message when it cannot go there.
    std::string addPart(const QString &model, QPointF pos, const std::string &target, int slot);
    void deleteSelection();
    void copySelection();
    void paste();
    // Groups the selection (one host and devices) into a composed system of this name.
    bool groupSelection(const QString &name);
    void tidyLayout();
    void link(const std::string &from, const std::string &to);

Q_SIGNALS:
    void message(const QString &text);

private:
    void showInspector();
    void compose(const std::string &device, const std::string &host);
    void changeLinkKind(const QString &kind, const std::string &linkId);

    Document *m_document;
    views::CanvasScene *m_scene;
    views::CanvasView *m_view;
    views::InspectorWidget *m_inspector;
    QAction *m_snap = nullptr;
};

} // namespace clab
