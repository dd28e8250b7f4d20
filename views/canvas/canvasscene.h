#pragma once

#include "canvasitems.h"
#include "design/design.h"
#include "design/rules.h"

#include <QGraphicsScene>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clab::catalog {
class Catalog;
}

namespace clab::views {

// The MIME type of a catalog part dragged from the palette; the data is the catalog id.
inline constexpr const char *kPartMimeType = "application/x-composelab-part";

// The composition canvas: one item per host, chassis, switch and device of the design, links
// between their ports, and dashed lines from each host to the devices composed to it. The scene
// only shows the design and turns gestures into requests (signals); whoever owns the document
// makes them commands, and the scene follows the document through setDesign().
class CanvasScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit CanvasScene(QObject *parent = nullptr);

    // Shows a design; items are kept by id, so selection survives an edit.
    void setDesign(const design::Design &design, const std::vector<design::Finding> &findings);
    const design::Design &design() const { return m_design; }
    // Follows a move on the canvas (the design's layout alone changed): only the moved items and
    // the lines that end on them are redrawn, unless items without a position of their own are
    // placed around them.
    void setLayout(const std::map<std::string, design::Position> &layout);
    // Follows a rename (display names alone changed, the findings are the same): only the titles
    // of the items named change.
    void setNames(const design::Design &design, const std::vector<std::string> &ids);
    // Follows a change of the design's name and description alone: nothing drawn shows them.
    void setDesignInfo(const std::string &name, const std::string &description);

    NodeItem *node(const std::string &id) const;
    std::size_t nodeCount() const { return m_nodes.size(); }
    std::vector<std::string> selectedIds() const;
    std::vector<std::string> selectedLinks() const; // link ids
    void selectIds(const std::vector<std::string> &ids);

    void setSnapToGrid(bool on);
    static QColor systemColour(int index);

Q_SIGNALS:
    void moveRequested(const std::map<std::string, design::Position> &to);
    void composeRequested(const std::string &device, const std::string &host);
    void slotRequested(const std::string &device, const std::string &chassis, int slot);
    void linkRequested(const std::string &from, const std::string &to);
    // A palette part dropped at `pos`, over `target` (an item id, or empty) and, on a chassis,
    // over `slot` (or -1).
    void partDropped(const QString &model, QPointF pos, const std::string &target, int slot);
    void linkKindDropped(const QString &kind, const std::string &linkId);
    void message(const QString &text);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void dragEnterEvent(QGraphicsSceneDragDropEvent *event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent *event) override;
    void dropEvent(QGraphicsSceneDragDropEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;

private:
    void syncNodes(const std::vector<design::Finding> &findings);
    void syncLinks();
    void placeNodes();
    // The lines ending on `moved` items (or on items inside them); all when null.
    void updateLinkGeometry(const std::set<const QGraphicsItem *> *moved = nullptr);
    QPointF anchorOf(const std::string &endpoint) const;
    NodeItem *nodeAt(QPointF scenePos, const QGraphicsItem *except = nullptr) const;
    void finishMove();
    bool finishDeviceDrop(NodeItem *device);
    void finishLinkDrag(QPointF scenePos);

    design::Design m_design;
    std::map<std::string, design::Position> m_positions; // of top-level items, after layout
    std::map<std::string, NodeItem *> m_nodes;
    std::vector<LinkItem *> m_links;
    std::vector<LinkItem *> m_assignments;
    std::map<std::string, QPointF> m_pressPositions; // of the dragged items, at the press
    std::string m_linkFrom;                          // endpoint a link drag started from
    LinkItem *m_rubber = nullptr;
    NodeItem *m_hover = nullptr;
    bool m_snap = true;
};

} // namespace clab::views
