#include "palettewidget.h"

#include "catalog/catalog.h"
#include "views/canvas/canvasscene.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clab::views {

namespace {

constexpr int kIdRole = Qt::UserRole + 1;

// A tree whose drags carry the catalog id of the part.
class PartTree : public QTreeWidget
{
public:
    using QTreeWidget::QTreeWidget;

protected:
    QStringList mimeTypes() const override { return {QLatin1String(kPartMimeType)}; }
    QMimeData *mimeData(const QList<QTreeWidgetItem *> &items) const override
    {
        if (items.isEmpty() || items.front()->data(0, kIdRole).isNull())
            return nullptr;
        auto *mime = new QMimeData;
        mime->setData(QLatin1String(kPartMimeType),
                      items.front()->data(0, kIdRole).toString().toUtf8());
        mime->setText(items.front()->text(0));
        return mime;
    }
};

struct Group
{
    const char *title;
    std::vector<catalog::Kind> kinds;
    const char *icon;
};

} // namespace

PaletteWidget::PaletteWidget(QWidget *parent)
    : QWidget(parent)
    , m_search(new QLineEdit)
    , m_tree(new PartTree)
{
    m_search->setPlaceholderText(tr("Search parts (e.g. A100, NVMe, Gen5)"));
    m_search->setClearButtonEnabled(true);
    m_tree->setHeaderHidden(true);
    m_tree->setDragEnabled(true);
    m_tree->setDragDropMode(QAbstractItemView::DragOnly);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setIconSize({22, 22});
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_search);
    layout->addWidget(m_tree);
    reload();
    connect(m_search, &QLineEdit::textChanged, this, &PaletteWidget::setFilter);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const QVariant id = item->data(0, kIdRole);
        if (!id.isNull())
            Q_EMIT partActivated(id.toString());
    });
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        QTreeWidgetItem *item = m_tree->itemAt(at);
        if (!item || item->data(0, kIdRole).isNull())
            return;
        const QString id = item->data(0, kIdRole).toString();
        QMenu menu;
        menu.addAction(tr("Duplicate and Edit..."), this,
                       [this, id] { Q_EMIT duplicateRequested(id); });
        menu.exec(m_tree->viewport()->mapToGlobal(at));
    });
}

void PaletteWidget::reload()
{
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    m_tree->clear();
    const Group groups[] = {
        {QT_TR_NOOP("Hosts"), {catalog::Kind::Host}, ":/icons/host.svg"},
        {QT_TR_NOOP("GPUs"), {catalog::Kind::Gpu}, ":/icons/gpu.svg"},
        {QT_TR_NOOP("NVMe drives"), {catalog::Kind::Nvme}, ":/icons/nvme.svg"},
        {QT_TR_NOOP("NICs"), {catalog::Kind::Nic}, ":/icons/nic.svg"},
        {QT_TR_NOOP("PCIe switches"), {catalog::Kind::PcieSwitch}, ":/icons/pcieswitch.svg"},
        {QT_TR_NOOP("PCIe chassis"), {catalog::Kind::Chassis}, ":/icons/chassis.svg"},
        {QT_TR_NOOP("Network switches"),
         {catalog::Kind::NetworkSwitch},
         ":/icons/networkswitch.svg"},
        {QT_TR_NOOP("NVSwitch boards"), {catalog::Kind::NvSwitch}, ":/icons/nvswitch.svg"},
        {QT_TR_NOOP("Cables (drop on a link)"), {catalog::Kind::Link}, ":/icons/cable.svg"},
    };
    auto addPart = [&](QTreeWidgetItem *top, const catalog::Entry *e, const char *icon) {
        auto *item = new QTreeWidgetItem(top, {QString::fromStdString(e->name)});
        item->setData(0, kIdRole, QString::fromStdString(e->id));
        item->setIcon(0, QIcon(QLatin1String(icon)));
        item->setToolTip(0, QStringLiteral("%1\n%2").arg(QString::fromStdString(e->id),
                                                         QString::fromStdString(e->source)));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    };
    // The user's own parts first, when there are any.
    QTreeWidgetItem *mine = nullptr;
    for (const Group &g : groups) {
        for (catalog::Kind kind : g.kinds) {
            for (const catalog::Entry *e : catalog.entries(kind)) {
                if (!e->user)
                    continue;
                if (!mine) {
                    mine = new QTreeWidgetItem(m_tree, {tr("My parts")});
                    mine->setFlags(Qt::ItemIsEnabled);
                    mine->setExpanded(true);
                }
                addPart(mine, e, g.icon);
            }
        }
    }
    for (const Group &g : groups) {
        auto *top = new QTreeWidgetItem(m_tree, {tr(g.title)});
        top->setIcon(0, QIcon(QLatin1String(g.icon)));
        top->setFlags(Qt::ItemIsEnabled);
        for (catalog::Kind kind : g.kinds) {
            for (const catalog::Entry *e : catalog.entries(kind)) {
                if (e->user)
                    continue;
                if (kind == catalog::Kind::Link) {
                    const catalog::LinkKind *l = catalog.link(e->id);
                    if (!l || l->family == catalog::LinkFamily::Socket)
                        continue; // socket links are inside a host, not cables
                }
                addPart(top, e, g.icon);
            }
        }
        top->setExpanded(g.kinds.front() != catalog::Kind::Link);
    }
    if (mine)
        mine->setExpanded(true);
    if (!m_search->text().isEmpty())
        setFilter(m_search->text());
}

void PaletteWidget::setFilter(const QString &text)
{
    if (m_search->text() != text)
        m_search->setText(text);
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem *group = m_tree->topLevelItem(g);
        int shown = 0;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem *item = group->child(i);
            const QString hay = item->text(0) + QLatin1Char(' ') + item->data(0, kIdRole).toString()
                                + QLatin1Char(' ') + group->text(0);
            bool match = true;
            for (const QString &w : words)
                match = match && hay.contains(w, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match;
        }
        group->setHidden(shown == 0);
        if (!words.isEmpty())
            group->setExpanded(true);
    }
}

QStringList PaletteWidget::visibleParts() const
{
    QStringList ids;
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem *group = m_tree->topLevelItem(g);
        if (group->isHidden())
            continue;
        for (int i = 0; i < group->childCount(); ++i)
            if (!group->child(i)->isHidden())
                ids << group->child(i)->data(0, kIdRole).toString();
    }
    return ids;
}

} // namespace clab::views
