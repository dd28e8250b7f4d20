#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QString>
#include <QStringList>

#include <string>

namespace clab::views {

enum class NodeKind { Host, Chassis, Switch, Device };

// What a node shows; the scene fills it from the design, findings and systems.
struct NodeLook
{
    QString title;
    QString subtitle;
    QString icon;      // resource path of the icon
    QColor accent;     // the colour of the composed system it belongs to, or invalid
    QString system;    // the system's name, for the tooltip
    QStringList ports; // named ports drawn along the edge: cpu0.. on hosts, up0.. on chassis
    int slots = 0;     // chassis: slots drawn as empty frames
    int errors = 0;    // design-rule findings naming this item
    int warnings = 0;
    QString findingsText; // their messages, for the tooltip
    bool operator==(const NodeLook &) const = default;
};

// A host, chassis, switch or device on the canvas. It holds only the item's id and what to show;
// the scene rebuilds the look from the document after every change.
class NodeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 1 };
    NodeItem(NodeKind kind, std::string id, QSizeF size, QGraphicsItem *parent = nullptr);

    int type() const override { return Type; }
    NodeKind kind() const { return m_kind; }
    const std::string &id() const { return m_id; }
    void setLook(const NodeLook &look);
    const NodeLook &look() const { return m_look; }
    void setSize(QSizeF size);

    // The port under a point in item coordinates ("" for none), and a port's anchor point.
    QString portAt(QPointF pos) const;
    QPointF portAnchor(const QString &port) const;
    // The slot under a point in item coordinates (chassis only), or -1.
    int slotAt(QPointF pos) const;
    void setHighlighted(bool on);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QRectF portRect(int index) const;
    void paintBadge(QPainter *painter) const;

    NodeKind m_kind;
    std::string m_id;
    QSizeF m_size;
    NodeLook m_look;
    bool m_highlighted = false;
};

// A link, drawn between the anchors of its endpoints; it follows them when they move. A line with
// no link id (a composition line, the rubber band of a new link) cannot be selected.
class LinkItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 2 };
    explicit LinkItem(std::string linkId = {}, QGraphicsItem *parent = nullptr);

    int type() const override { return Type; }
    const std::string &linkId() const { return m_linkId; }
    void setEnds(QPointF a, QPointF b);
    QPointF midpoint() const { return (m_a + m_b) / 2; }
    void setLook(const QString &label, const QColor &colour, double width, bool dashed,
                 const QString &tooltip);

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    std::string m_linkId;
    QPointF m_a, m_b;
    QString m_label;
    QColor m_colour;
    double m_width = 2;
    bool m_dashed = false;
};

} // namespace clab::views
