#include "canvasitems.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QIcon>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "design/autolayout.h"

#include <cmath>

namespace clab::views {

namespace {

constexpr double kPortSize = 14;
constexpr double kRadius = 6;
constexpr double kIconSize = 24;

QPalette paletteOf(const QGraphicsItem *item)
{
    return item->scene() ? item->scene()->palette() : QPalette();
}

} // namespace

NodeItem::NodeItem(NodeKind kind, std::string id, QSizeF size, QGraphicsItem *parent)
    : QGraphicsItem(parent)
    , m_kind(kind)
    , m_id(std::move(id))
    , m_size(size)
{
    setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
    setZValue(kind == NodeKind::Chassis ? 1 : 2);
    setAcceptHoverEvents(true);
}

void NodeItem::setLook(const NodeLook &look)
{
    if (look == m_look)
        return;
    m_look = look;
    QString tip = QStringLiteral("<b>%1</b><br>%2")
                      .arg(look.title.toHtmlEscaped(), look.subtitle.toHtmlEscaped());
    if (!look.system.isEmpty())
        tip += QStringLiteral("<br>System: %1").arg(look.system.toHtmlEscaped());
    if (!look.findingsText.isEmpty())
        tip += QStringLiteral("<hr>")
               + look.findingsText.toHtmlEscaped().replace(QLatin1Char('\n'),
                                                           QLatin1String("<br>"));
    setToolTip(tip);
    update();
}

void NodeItem::setSize(QSizeF size)
{
    if (size == m_size)
        return;
    prepareGeometryChange();
    m_size = size;
}

void NodeItem::setHighlighted(bool on)
{
    if (on != m_highlighted) {
        m_highlighted = on;
        update();
    }
}

QRectF NodeItem::boundingRect() const
{
    // Ports stick out by half their size; the badge sits on the top-right corner.
    return QRectF(QPointF(0, 0), m_size).adjusted(-kPortSize, -kPortSize, kPortSize, kPortSize);
}

QRectF NodeItem::portRect(int index) const
{
    // Hosts show their sockets' ports along the bottom edge, chassis their host ports along the
    // top edge, spread evenly.
    const int n = int(m_look.ports.size());
    const double step = m_size.width() / (n + 1);
    const double y = m_kind == NodeKind::Chassis ? -kPortSize / 2 : m_size.height() - kPortSize / 2;
    return {step * (index + 1) - kPortSize / 2, y, kPortSize, kPortSize};
}

QString NodeItem::portAt(QPointF pos) const
{
    for (int i = 0; i < m_look.ports.size(); ++i)
        if (portRect(i).adjusted(-3, -3, 3, 3).contains(pos))
            return m_look.ports.at(i);
    return {};
}

QPointF NodeItem::portAnchor(const QString &port) const
{
    const int i = int(m_look.ports.indexOf(port));
    if (i >= 0)
        return portRect(i).center();
    return {m_size.width() / 2, m_size.height() / 2};
}

int NodeItem::slotAt(QPointF pos) const
{
    if (m_kind != NodeKind::Chassis)
        return -1;
    for (int slot = 0; slot < m_look.slots; ++slot) {
        const QRectF r(QPointF(design::slotOffset(slot).x, design::slotOffset(slot).y),
                       QSizeF(design::kDeviceBox.width, design::kDeviceBox.height));
        if (r.contains(pos))
            return slot;
    }
    return -1;
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const QPalette pal = paletteOf(this);
    const QRectF r(QPointF(0, 0), m_size);
    const bool selected = option->state & QStyle::State_Selected;
    QColor fill = m_kind == NodeKind::Chassis ? pal.color(QPalette::AlternateBase)
                                              : pal.color(QPalette::Base);
    if (m_look.accent.isValid() && m_kind == NodeKind::Device) {
        // A composed device is tinted with its system's colour so assignments read at a glance.
        fill = QColor::fromRgbF(fill.redF() * 0.75 + m_look.accent.redF() * 0.25,
                                fill.greenF() * 0.75 + m_look.accent.greenF() * 0.25,
                                fill.blueF() * 0.75 + m_look.accent.blueF() * 0.25);
    }
    QPen border(m_look.accent.isValid() ? m_look.accent : pal.color(QPalette::Mid),
                m_look.accent.isValid() ? 2.5 : 1.2);
    if (selected || m_highlighted)
        border = QPen(pal.color(QPalette::Highlight), 3);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(border);
    painter->setBrush(fill);
    painter->drawRoundedRect(r, kRadius, kRadius);

    if (m_kind == NodeKind::Chassis) {
        QPen slotPen(pal.color(QPalette::Mid), 1, Qt::DashLine);
        painter->setPen(slotPen);
        painter->setBrush(Qt::NoBrush);
        QFont small = painter->font();
        small.setPointSizeF(small.pointSizeF() * 0.75);
        painter->setFont(small);
        for (int slot = 0; slot < m_look.slots; ++slot) {
            const design::Position p = design::slotOffset(slot);
            const QRectF s(p.x, p.y, design::kDeviceBox.width, design::kDeviceBox.height);
            painter->drawRoundedRect(s, 4, 4);
            painter->drawText(s.adjusted(4, 2, -4, -2), Qt::AlignBottom | Qt::AlignRight,
                              QString::number(slot));
        }
    }

    // Icon, title and model.
    const bool compact = m_kind == NodeKind::Device;
    const double iconSize = compact ? 18 : kIconSize;
    const QRectF iconRect(6, 6, iconSize, iconSize);
    if (!m_look.icon.isEmpty())
        QIcon(m_look.icon).paint(painter, iconRect.toRect());
    painter->setPen(pal.color(QPalette::Text));
    QFont font = painter->font();
    font.setBold(true);
    if (compact)
        font.setPointSizeF(font.pointSizeF() * 0.85);
    painter->setFont(font);
    const double textLeft = iconRect.right() + 5;
    const QRectF titleRect(textLeft, 4, m_size.width() - textLeft - 4, iconSize + 4);
    const QFontMetricsF fm(font);
    painter->drawText(titleRect, Qt::AlignVCenter | Qt::AlignLeft,
                      fm.elidedText(m_look.title, Qt::ElideRight, titleRect.width()));
    font.setBold(false);
    font.setPointSizeF(font.pointSizeF() * 0.85);
    painter->setFont(font);
    painter->setPen(pal.color(QPalette::PlaceholderText));
    const QFontMetricsF small(font);
    const QRectF subRect(6, iconRect.bottom() + 2, m_size.width() - 12,
                         compact ? m_size.height() - iconRect.bottom() - 4 : small.height() + 2);
    painter->drawText(subRect, Qt::AlignTop | Qt::AlignLeft | Qt::TextWordWrap,
                      compact ? m_look.subtitle
                              : small.elidedText(m_look.subtitle, Qt::ElideRight, subRect.width()));

    // Ports.
    painter->setPen(QPen(pal.color(QPalette::Text), 1));
    for (int i = 0; i < m_look.ports.size(); ++i) {
        const QRectF pr = portRect(i);
        painter->setBrush(pal.color(QPalette::Button));
        painter->drawEllipse(pr);
        QFont pf = painter->font();
        pf.setPointSizeF(std::max(5.0, pf.pointSizeF() * 0.8));
        painter->setFont(pf);
        const QRectF label = m_kind == NodeKind::Chassis ? pr.translated(0, kPortSize)
                                                         : pr.translated(0, -kPortSize);
        painter->drawText(label.adjusted(-12, 0, 12, 0), Qt::AlignCenter, m_look.ports.at(i));
    }
    paintBadge(painter);
}

void NodeItem::paintBadge(QPainter *painter) const
{
    if (m_look.errors == 0 && m_look.warnings == 0)
        return;
    const bool error = m_look.errors > 0;
    const QRectF badge(m_size.width() - 9, -9, 18, 18);
    painter->setPen(QPen(Qt::white, 1.5));
    painter->setBrush(error ? QColor(0xd0, 0x30, 0x30) : QColor(0xe0, 0x9a, 0x10));
    painter->drawEllipse(badge);
    QFont f = painter->font();
    f.setBold(true);
    f.setPointSizeF(7.5);
    painter->setFont(f);
    painter->drawText(badge, Qt::AlignCenter,
                      error ? QString::number(m_look.errors) : QStringLiteral("!"));
}

LinkItem::LinkItem(std::string linkId, QGraphicsItem *parent)
    : QGraphicsItem(parent)
    , m_linkId(std::move(linkId))
{
    setZValue(0);
    if (!m_linkId.empty())
        setFlag(ItemIsSelectable);
}

void LinkItem::setEnds(QPointF a, QPointF b)
{
    if (a == m_a && b == m_b)
        return;
    prepareGeometryChange();
    m_a = a;
    m_b = b;
}

void LinkItem::setLook(const QString &label, const QColor &colour, double width, bool dashed,
                       const QString &tooltip)
{
    m_label = label;
    m_colour = colour;
    m_width = width;
    m_dashed = dashed;
    setToolTip(tooltip);
    update();
}

QRectF LinkItem::boundingRect() const
{
    return QRectF(m_a, m_b).normalized().adjusted(-60, -20, 60, 20);
}

QPainterPath LinkItem::shape() const
{
    QPainterPath line(m_a);
    line.lineTo(m_b);
    QPainterPathStroker stroker;
    stroker.setWidth(std::max(8.0, m_width + 6));
    return stroker.createStroke(line);
}

void LinkItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const QPalette pal = paletteOf(this);
    const bool selected = option->state & QStyle::State_Selected;
    QPen pen(selected ? pal.color(QPalette::Highlight) : m_colour, selected ? m_width + 2 : m_width,
             m_dashed ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(pen);
    painter->drawLine(m_a, m_b);
    if (m_label.isEmpty())
        return;
    QFont f = painter->font();
    f.setPointSizeF(f.pointSizeF() * 0.75);
    painter->setFont(f);
    const QFontMetricsF fm(f);
    const QPointF mid = (m_a + m_b) / 2;
    QRectF box(0, 0, fm.horizontalAdvance(m_label) + 8, fm.height() + 2);
    box.moveCenter(mid);
    painter->setPen(Qt::NoPen);
    QColor back = pal.color(QPalette::Window);
    back.setAlphaF(0.85);
    painter->setBrush(back);
    painter->drawRoundedRect(box, 3, 3);
    painter->setPen(pal.color(QPalette::Text));
    painter->drawText(box, Qt::AlignCenter, m_label);
}

} // namespace clab::views
