#include "canvasscene.h"

#include "catalog/catalog.h"
#include "design/autolayout.h"
#include "design/designindex.h"
#include "design/edit.h"
#include "design/linking.h"
#include "design/placement.h"
#include "views/common/qtext.h"

#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QMimeData>
#include <QPainter>
#include <QPalette>

#include <cmath>

namespace clab::views {

namespace {

// The program's catalog as it is now: user parts added since the view was made included.
const catalog::Catalog &catalogNow()
{
    return catalog::Catalog::builtin();
}

} // namespace

namespace {

QString iconFor(const catalog::Catalog &c, const std::string &model, NodeKind kind)
{
    switch (kind) {
    case NodeKind::Host:
        return QStringLiteral(":/icons/host.svg");
    case NodeKind::Chassis:
        return QStringLiteral(":/icons/chassis.svg");
    default:
        break;
    }
    switch (c.kindOf(model).value_or(catalog::Kind::Routing)) {
    case catalog::Kind::Gpu:
        return QStringLiteral(":/icons/gpu.svg");
    case catalog::Kind::Nvme:
        return QStringLiteral(":/icons/nvme.svg");
    case catalog::Kind::Nic:
        return QStringLiteral(":/icons/nic.svg");
    case catalog::Kind::PcieSwitch:
        return QStringLiteral(":/icons/pcieswitch.svg");
    case catalog::Kind::NetworkSwitch:
        return QStringLiteral(":/icons/networkswitch.svg");
    case catalog::Kind::NvSwitch:
    case catalog::Kind::NvlinkBridge:
        return QStringLiteral(":/icons/nvswitch.svg");
    default:
        return {};
    }
}

QString modelName(const catalog::Catalog &c, const std::string &model, bool brief)
{
    const catalog::Entry *e = c.entry(model);
    if (!e)
        return QObject::tr("%1 (not in the catalog)").arg(toQString(model));
    return toQString(brief ? e->id : e->name);
}

QColor linkColour(const catalog::LinkKind *kind)
{
    if (!kind)
        return QColor(0x99, 0x99, 0x99);
    switch (kind->family) {
    case catalog::LinkFamily::Pcie:
        return QColor(0x4a, 0x78, 0xb5);
    case catalog::LinkFamily::Nvlink:
        return QColor(0x3a, 0x9a, 0x3a);
    case catalog::LinkFamily::Infiniband:
    case catalog::LinkFamily::Ethernet:
        return QColor(0xc0, 0x6a, 0x2a);
    case catalog::LinkFamily::Socket:
        return QColor(0x88, 0x88, 0x88);
    }
    return QColor(0x99, 0x99, 0x99);
}

NodeLook makeLook(const QString &title, const QString &subtitle, const QString &icon)
{
    NodeLook look;
    look.title = title;
    look.subtitle = subtitle;
    look.icon = icon;
    return look;
}

double snapped(double v, bool snap)
{
    return snap ? std::round(v / design::kSnapStep) * design::kSnapStep : v;
}

} // namespace

CanvasScene::CanvasScene(QObject *parent)
    : QGraphicsScene(parent)
{
}

QColor CanvasScene::systemColour(int index)
{
    // Eight hues that stay apart on light and dark backgrounds.
    static const QColor colours[]
        = {{0x1f, 0x77, 0xb4}, {0xd6, 0x27, 0x28}, {0x2c, 0xa0, 0x2c}, {0x94, 0x67, 0xbd},
           {0xff, 0x7f, 0x0e}, {0x17, 0xbe, 0xcf}, {0xe3, 0x77, 0xc2}, {0xbc, 0xbd, 0x22}};
    return colours[index % 8];
}

NodeItem *CanvasScene::node(const std::string &id) const
{
    const auto it = m_nodes.find(id);
    return it == m_nodes.end() ? nullptr : it->second;
}

std::vector<std::string> CanvasScene::selectedIds() const
{
    std::vector<std::string> ids;
    for (QGraphicsItem *item : selectedItems())
        if (item->type() == NodeItem::Type)
            ids.push_back(static_cast<NodeItem *>(item)->id());
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::string> CanvasScene::selectedLinks() const
{
    std::vector<std::string> links;
    for (QGraphicsItem *item : selectedItems())
        if (item->type() == LinkItem::Type && !static_cast<LinkItem *>(item)->linkId().empty())
            links.push_back(static_cast<LinkItem *>(item)->linkId());
    std::sort(links.begin(), links.end());
    return links;
}

void CanvasScene::selectIds(const std::vector<std::string> &ids)
{
    QSignalBlocker blocker(this);
    clearSelection();
    for (const std::string &id : ids)
        if (NodeItem *n = node(id))
            n->setSelected(true);
    blocker.unblock();
    Q_EMIT selectionChanged();
}

void CanvasScene::setSnapToGrid(bool on)
{
    m_snap = on;
    update();
}

void CanvasScene::setDesign(const design::Design &design,
                            const std::vector<design::Finding> &findings)
{
    m_design = design;
    syncNodes(findings);
    placeNodes();
    syncLinks();
    updateLinkGeometry();
}

void CanvasScene::setNames(const design::Design &design, const std::vector<std::string> &ids)
{
    for (const std::string &id : ids) {
        const std::optional<std::string> name = design::itemName(design, id);
        NodeItem *item = node(id);
        if (!name || !item)
            continue; // not shown (an id the design does not have)
        design::setItemName(m_design, id, *name);
        NodeLook look = item->look();
        look.title = toQString(name->empty() ? id : *name);
        item->setLook(look);
    }
}

void CanvasScene::syncNodes(const std::vector<design::Finding> &findings)
{
    using design::Severity;
    std::map<std::string, std::pair<int, int>> counts;
    std::map<std::string, QString> messages;
    for (const design::Finding &f : findings) {
        for (const std::string &id : f.items) {
            auto &[errors, warnings] = counts[id];
            (f.severity == Severity::Error ? errors : warnings) += 1;
            QString &m = messages[id];
            if (!m.isEmpty())
                m += QLatin1Char('\n');
            m += (f.severity == Severity::Error ? tr("Error: ") : tr("Warning: "))
                 + toQString(f.message);
        }
    }
    std::map<std::string, std::pair<int, std::string>> systemOf; // item -> system index, name
    for (std::size_t i = 0; i < m_design.systems.size(); ++i) {
        const design::System &s = m_design.systems[i];
        systemOf.emplace(s.host, std::pair{int(i), s.name});
        for (const std::string &d : s.devices)
            systemOf.emplace(d, std::pair{int(i), s.name});
    }

    std::map<std::string, NodeItem *> kept;
    auto upsert
        = [&](NodeKind kind, const std::string &id, NodeLook look, QSizeF size, NodeItem *parent) {
              const auto found = counts.find(id);
              if (found != counts.end()) {
                  look.errors = found->second.first;
                  look.warnings = found->second.second;
                  look.findingsText = messages[id];
              }
              const auto sys = systemOf.find(id);
              if (sys != systemOf.end()) {
                  look.accent = systemColour(sys->second.first);
                  look.system = toQString(sys->second.second);
              }
              NodeItem *item = node(id);
              if (!item || item->kind() != kind || kept.count(id)) {
                  if (kept.count(id))
                      return; // a duplicate id (a design-rule error): show the first
                  item = new NodeItem(kind, id, size);
                  addItem(item);
              }
              item->setSize(size);
              if (item->parentItem() != parent)
                  item->setParentItem(parent);
              item->setLook(look);
              kept[id] = item;
          };

    for (const design::Host &h : m_design.hosts) {
        NodeLook look = makeLook(toQString(h.name.empty() ? h.id : h.name),
                                 modelName(catalogNow(), h.model, false),
                                 iconFor(catalogNow(), h.model, NodeKind::Host));
        const catalog::Host *spec = catalogNow().host(h.model);
        for (int s = 0; s < (spec ? spec->sockets : 1); ++s)
            look.ports << QStringLiteral("cpu%1").arg(s);
        upsert(NodeKind::Host, h.id, look, {design::kHostBox.width, design::kHostBox.height},
               nullptr);
    }
    for (const design::Chassis &c : m_design.chassis) {
        NodeLook look = makeLook(toQString(c.name.empty() ? c.id : c.name),
                                 modelName(catalogNow(), c.model, false),
                                 iconFor(catalogNow(), c.model, NodeKind::Chassis));
        const catalog::Chassis *spec = catalogNow().chassis(c.model);
        look.slots = spec ? spec->slots : 0;
        for (int p = 0; p < (spec ? spec->hostPorts : 0); ++p)
            look.ports << QStringLiteral("up%1").arg(p);
        const design::Box box = design::chassisBox(spec ? spec->slots : design::kSlotsPerRow);
        upsert(NodeKind::Chassis, c.id, look, {box.width, box.height}, nullptr);
    }
    for (const design::Switch &s : m_design.switches) {
        NodeLook look = makeLook(toQString(s.name.empty() ? s.id : s.name),
                                 modelName(catalogNow(), s.model, false),
                                 iconFor(catalogNow(), s.model, NodeKind::Switch));
        upsert(NodeKind::Switch, s.id, look, {design::kSwitchBox.width, design::kSwitchBox.height},
               nullptr);
    }
    for (const design::Device &d : m_design.devices) {
        NodeLook look = makeLook(toQString(d.name.empty() ? d.id : d.name),
                                 modelName(catalogNow(), d.model, true),
                                 iconFor(catalogNow(), d.model, NodeKind::Device));
        NodeItem *parent = d.chassis.empty()       ? nullptr
                           : kept.count(d.chassis) ? kept[d.chassis]
                                                   : nullptr;
        upsert(NodeKind::Device, d.id, look, {design::kDeviceBox.width, design::kDeviceBox.height},
               parent);
    }
    for (auto &[id, item] : m_nodes) {
        if (!kept.count(id) || kept[id] != item) {
            if (m_hover == item)
                m_hover = nullptr;
            // Children (a chassis' devices) were either kept and re-parented above or go too.
            for (QGraphicsItem *child : item->childItems())
                child->setParentItem(nullptr);
            removeItem(item);
            delete item;
        }
    }
    m_nodes = std::move(kept);
}

void CanvasScene::placeNodes()
{
    bool missing = false;
    for (const auto &[id, item] : m_nodes)
        if (!item->parentItem() && !m_design.layout.count(id))
            missing = true;
    m_positions = missing ? design::autoLayout(m_design, catalogNow(), true) : m_design.layout;
    for (const design::Device &d : m_design.devices) {
        NodeItem *item = node(d.id);
        if (item && item->parentItem() && d.slot >= 0) {
            const design::Position p = design::slotOffset(d.slot);
            item->setPos(p.x, p.y);
        }
    }
    for (const auto &[id, item] : m_nodes) {
        if (item->parentItem())
            continue;
        const auto it = m_positions.find(id);
        if (it != m_positions.end())
            item->setPos(it->second.x, it->second.y);
    }
}

void CanvasScene::syncLinks()
{
    // Items follow their link by id, so a selected link stays selected when another one goes.
    std::multimap<std::string, LinkItem *> old;
    for (LinkItem *item : m_links)
        old.emplace(item->linkId(), item);
    const std::size_t n = m_design.links.size();
    m_links.clear();
    for (const design::Link &l : m_design.links) {
        const auto it = old.find(l.id);
        if (it != old.end()) {
            m_links.push_back(it->second);
            old.erase(it);
        } else {
            m_links.push_back(new LinkItem(l.id));
            addItem(m_links.back());
        }
    }
    for (const auto &entry : old)
        delete entry.second;
    for (std::size_t i = 0; i < n; ++i) {
        const design::Link &l = m_design.links[i];
        const catalog::LinkKind *kind = catalogNow().link(l.kind);
        const QString label = l.count > 1
                                  ? QStringLiteral("%1 ×%2").arg(toQString(l.kind)).arg(l.count)
                                  : toQString(l.kind);
        const double gbps = kind ? kind->achievedGBps(l.count) : 0;
        const double width = std::clamp(1.0 + std::log2(std::max(1.0, gbps)) / 2.5, 1.0, 4.5);
        const QString tip = tr("%1 → %2\n%3, %4 GB/s per direction (achieved)")
                                .arg(toQString(l.from), toQString(l.to), label)
                                .arg(gbps, 0, 'f', 1);
        m_links[i]->setLook(label, linkColour(kind), width, false, tip);
    }

    // Assignment lines: host to each device composed to it.
    for (LinkItem *a : m_assignments)
        delete a;
    m_assignments.clear();
    for (std::size_t s = 0; s < m_design.systems.size(); ++s) {
        const design::System &system = m_design.systems[s];
        for (const std::string &d : system.devices) {
            // Only pooled devices: a device cabled to its host shows whose it is by its links
            // and colour, and lines to each of them would hide the links.
            const design::Device *device = m_design.device(d);
            if (!node(system.host) || !node(d) || !device || device->chassis.empty())
                continue;
            auto *line = new LinkItem();
            QColor c = systemColour(int(s));
            c.setAlphaF(0.6);
            line->setLook({}, c, 1.3, true,
                          tr("%1 is composed to %2").arg(toQString(d), toQString(system.name)));
            line->setData(0, toQString(system.host));
            line->setData(1, toQString(d));
            addItem(line);
            m_assignments.push_back(line);
        }
    }
}

QPointF CanvasScene::anchorOf(const std::string &endpoint) const
{
    const design::Endpoint e = design::splitEndpoint(endpoint);
    NodeItem *item = node(e.item);
    if (!item)
        return {};
    return item->mapToScene(item->portAnchor(toQString(e.port)));
}

void CanvasScene::updateLinkGeometry(const std::set<const QGraphicsItem *> *moved)
{
    auto follows = [&](const std::string &from, const std::string &to) {
        if (!moved)
            return true;
        for (const std::string *end : {&from, &to}) {
            const NodeItem *item = node(design::splitEndpoint(*end).item);
            if (item && (moved->count(item) || moved->count(item->parentItem())))
                return true;
        }
        return false;
    };
    for (std::size_t i = 0; i < m_links.size() && i < m_design.links.size(); ++i) {
        const design::Link &l = m_design.links[i];
        if (follows(l.from, l.to))
            m_links[i]->setEnds(anchorOf(l.from), anchorOf(l.to));
    }
    for (LinkItem *a : m_assignments) {
        const std::string from = a->data(0).toString().toStdString();
        const std::string to = a->data(1).toString().toStdString();
        if (follows(from, to))
            a->setEnds(anchorOf(from), anchorOf(to));
    }
}

void CanvasScene::setDesignInfo(const std::string &name, const std::string &description)
{
    m_design.name = name;
    m_design.description = description;
}

void CanvasScene::setLayout(const std::map<std::string, design::Position> &layout)
{
    // Items without a position of their own are placed around the others (design::autoLayout):
    // when there are any, a move may shift them too, so everything is placed again.
    for (const auto &[id, item] : m_nodes) {
        if (!item->parentItem() && !layout.count(id)) {
            m_design.layout = layout;
            placeNodes();
            updateLinkGeometry();
            return;
        }
    }
    std::set<const QGraphicsItem *> moved;
    for (const auto &[id, p] : layout) {
        const auto it = m_design.layout.find(id);
        if (it != m_design.layout.end() && it->second == p)
            continue;
        m_positions[id] = p;
        NodeItem *item = node(id);
        if (item && !item->parentItem()) {
            item->setPos(p.x, p.y);
            moved.insert(item);
        }
    }
    m_design.layout = layout;
    updateLinkGeometry(&moved);
}

NodeItem *CanvasScene::nodeAt(QPointF scenePos, const QGraphicsItem *except) const
{
    // Topmost first, so a device in a slot wins over its chassis.
    for (QGraphicsItem *item : items(scenePos)) {
        if (item == except || item->type() != NodeItem::Type)
            continue;
        auto *n = static_cast<NodeItem *>(item);
        if (QRectF(QPointF(0, 0), n->boundingRect().size() - QSizeF(28, 28))
                .contains(n->mapFromScene(scenePos))
            || !n->portAt(n->mapFromScene(scenePos)).isEmpty())
            return n;
    }
    return nullptr;
}

void CanvasScene::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        NodeItem *n = nodeAt(event->scenePos());
        const QString port = n ? n->portAt(n->mapFromScene(event->scenePos())) : QString();
        const bool shift = event->modifiers() & Qt::ShiftModifier;
        if (n && (!port.isEmpty() || (shift && n->kind() != NodeKind::Chassis))) {
            // A link drag: from a port, or from any item with Shift held.
            m_linkFrom = port.isEmpty() ? n->id() : n->id() + "/" + port.toStdString();
            m_rubber = new LinkItem();
            m_rubber->setLook({}, palette().color(QPalette::Highlight), 2, true, {});
            m_rubber->setEnds(event->scenePos(), event->scenePos());
            m_rubber->setZValue(10);
            addItem(m_rubber);
            event->accept();
            return;
        }
    }
    QGraphicsScene::mousePressEvent(event);
    m_pressPositions.clear();
    for (QGraphicsItem *item : selectedItems())
        if (item->type() == NodeItem::Type)
            m_pressPositions[static_cast<NodeItem *>(item)->id()] = item->pos();
}

void CanvasScene::mouseMoveEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_rubber) {
        m_rubber->setEnds(anchorOf(m_linkFrom), event->scenePos());
        NodeItem *target = nodeAt(event->scenePos());
        if (m_hover && m_hover != target)
            m_hover->setHighlighted(false);
        m_hover = nullptr;
        if (target) {
            const QString port = target->portAt(target->mapFromScene(event->scenePos()));
            const std::string to
                = port.isEmpty() ? target->id() : target->id() + "/" + port.toStdString();
            const design::DesignIndex index(m_design);
            if (design::chooseLink(index, catalogNow(), m_linkFrom, to).ok()) {
                m_hover = target;
                m_hover->setHighlighted(true); // only compatible ports light up
            }
        }
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
    if (!m_pressPositions.empty())
        updateLinkGeometry();
}

void CanvasScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_rubber) {
        finishLinkDrag(event->scenePos());
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton)
        finishMove();
}

void CanvasScene::finishLinkDrag(QPointF scenePos)
{
    delete m_rubber;
    m_rubber = nullptr;
    if (m_hover)
        m_hover->setHighlighted(false);
    m_hover = nullptr;
    const std::string from = m_linkFrom;
    m_linkFrom.clear();
    NodeItem *target = nodeAt(scenePos);
    if (!target)
        return;
    const QString port = target->portAt(target->mapFromScene(scenePos));
    const std::string to = port.isEmpty() ? target->id() : target->id() + "/" + port.toStdString();
    if (design::splitEndpoint(from).item != target->id())
        Q_EMIT linkRequested(from, to);
}

void CanvasScene::finishMove()
{
    std::vector<std::pair<NodeItem *, QPointF>> moved; // and where each was at the press
    for (const auto &[id, start] : m_pressPositions) {
        NodeItem *n = node(id);
        if (n && n->pos() != start)
            moved.emplace_back(n, start);
    }
    m_pressPositions.clear();
    if (moved.empty())
        return;
    if (moved.size() == 1 && moved.front().first->kind() == NodeKind::Device
        && finishDeviceDrop(moved.front().first)) {
        placeNodes(); // the device goes back until the document says otherwise
        updateLinkGeometry();
        return;
    }
    // The items go back until the document says otherwise (setLayout), as a refused move leaves
    // them.
    std::map<std::string, design::Position> to;
    std::set<const QGraphicsItem *> back;
    for (const auto &[n, start] : moved) {
        if (!n->parentItem()) // a device in a slot stays in its slot
            to[n->id()] = {snapped(n->pos().x(), m_snap), snapped(n->pos().y(), m_snap)};
        n->setPos(start);
        back.insert(n);
    }
    if (!to.empty())
        Q_EMIT moveRequested(to);
    updateLinkGeometry(&back);
}

bool CanvasScene::finishDeviceDrop(NodeItem *device)
{
    // Copies: a request runs a command at once, and the document replaces m_design under us.
    const design::Device *found = m_design.device(device->id());
    if (!found)
        return false;
    const design::Device d = *found;
    const QPointF centre = device->mapToScene(device->portAnchor({}));
    NodeItem *target = nodeAt(centre, device);
    const std::string targetId = target ? target->id() : std::string();
    if (target && target->kind() == NodeKind::Host) {
        Q_EMIT composeRequested(d.id, targetId);
        return true;
    }
    if (target && target->kind() == NodeKind::Chassis) {
        const int slot = target->slotAt(target->mapFromScene(centre));
        const bool taken = design::slotHolder(m_design, targetId, slot, d.id) != nullptr;
        bool composed = false;
        for (const design::System &s : m_design.systems)
            composed = composed
                       || std::find(s.devices.begin(), s.devices.end(), d.id) != s.devices.end();
        if (slot >= 0 && !taken && (d.chassis != targetId || d.slot != slot))
            Q_EMIT slotRequested(d.id, targetId, slot);
        else if (d.chassis == targetId && composed)
            Q_EMIT composeRequested(d.id, {}); // back on its own chassis: release to the pool
        return true;                           // otherwise the device goes back where it was
    }
    // A device in a slot dropped elsewhere goes back to its slot.
    return device->parentItem() != nullptr;
}

void CanvasScene::dragEnterEvent(QGraphicsSceneDragDropEvent *event)
{
    event->setAccepted(event->mimeData()->hasFormat(QLatin1String(kPartMimeType)));
}

void CanvasScene::dragMoveEvent(QGraphicsSceneDragDropEvent *event)
{
    event->setAccepted(event->mimeData()->hasFormat(QLatin1String(kPartMimeType)));
}

void CanvasScene::dropEvent(QGraphicsSceneDragDropEvent *event)
{
    if (!event->mimeData()->hasFormat(QLatin1String(kPartMimeType)))
        return;
    const QString model = QString::fromUtf8(event->mimeData()->data(QLatin1String(kPartMimeType)));
    event->acceptProposedAction();
    if (catalogNow().kindOf(model.toStdString()) == catalog::Kind::Link) {
        for (QGraphicsItem *item : items(event->scenePos()))
            if (item->type() == LinkItem::Type
                && !static_cast<LinkItem *>(item)->linkId().empty()) {
                Q_EMIT linkKindDropped(model, static_cast<LinkItem *>(item)->linkId());
                return;
            }
        Q_EMIT message(tr("Drop a cable kind onto a link to change it; drag from a port to a "
                          "port to make a new link."));
        return;
    }
    NodeItem *target = nodeAt(event->scenePos());
    int slot = -1;
    if (target && target->kind() == NodeKind::Device && target->parentItem()) {
        // Over an occupied slot: the chassis is the target.
        target = static_cast<NodeItem *>(target->parentItem());
    }
    if (target && target->kind() == NodeKind::Chassis)
        slot = target->slotAt(target->mapFromScene(event->scenePos()));
    Q_EMIT partDropped(model, event->scenePos(), target ? target->id() : std::string(), slot);
}

void CanvasScene::drawBackground(QPainter *painter, const QRectF &rect)
{
    const QPalette pal = palette();
    painter->fillRect(rect, pal.color(QPalette::Window));
    if (!m_snap)
        return;
    // A dot grid at the snapping step, faint so it never competes with the items.
    const double step = design::kSnapStep;
    QColor dot = pal.color(QPalette::Mid);
    dot.setAlphaF(0.5);
    painter->setPen(QPen(dot, 0));
    const double left = std::floor(rect.left() / step) * step;
    const double top = std::floor(rect.top() / step) * step;
    QVector<QPointF> points;
    for (double x = left; x < rect.right(); x += step)
        for (double y = top; y < rect.bottom(); y += step)
            points.append({x, y});
    if (points.size() < 200000)
        painter->drawPoints(points.data(), int(points.size()));
}

} // namespace clab::views
