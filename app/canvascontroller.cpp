#include "canvascontroller.h"

#include "commands/additemscommand.h"
#include "commands/addlinkcommand.h"
#include "commands/composecommand.h"
#include "commands/editlinkcommand.h"
#include "commands/groupsystemcommand.h"
#include "commands/moveitemscommand.h"
#include "commands/removeitemscommand.h"
#include "commands/renamecommand.h"
#include "commands/renamesystemcommand.h"
#include "commands/setdesigninfocommand.h"
#include "commands/setmodelcommand.h"
#include "commands/setslotcommand.h"
#include "document.h"
#include "catalog/catalog.h"
#include "design/autolayout.h"
#include "design/designindex.h"
#include "design/edit.h"
#include "design/linking.h"
#include "design/placement.h"
#include "util/inputerror.h"
#include "views/canvas/canvasscene.h"
#include "views/canvas/canvasview.h"
#include "views/inspector/inspectorwidget.h"
#include "views/palette/palettewidget.h"
#include "views/common/qtext.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QSettings>

#include <cmath>
#include <set>

namespace clab {

using views::toQString;

namespace {

const char *kDesignMime = "application/x-composelab-design";

} // namespace

CanvasController::CanvasController(Document *document, views::CanvasScene *scene,
                                   views::CanvasView *view, views::InspectorWidget *inspector,
                                   views::PaletteWidget *palette, QObject *parent)
    : QObject(parent)
    , m_document(document)
    , m_scene(scene)
    , m_view(view)
    , m_inspector(inspector)
{
    // Every command checks its edit against the file limits (Document::applyChecked), so what
    // the user saves always opens again; a refused edit leaves no step and says why.
    connect(m_document, &Document::refused, this,
            [this](const QString &problem) { Q_EMIT message(tr("Not done: %1.").arg(problem)); });
    connect(scene, &views::CanvasScene::moveRequested, this,
            [this](const std::map<std::string, design::Position> &to) {
                m_document->push(new commands::MoveItemsCommand(m_document, to));
            });
    connect(scene, &views::CanvasScene::composeRequested, this,
            [this](const std::string &device, const std::string &host) { compose(device, host); });
    connect(scene, &views::CanvasScene::slotRequested, this,
            [this](const std::string &device, const std::string &chassis, int slot) {
                m_document->push(new commands::SetSlotCommand(m_document, device, chassis, slot));
            });
    connect(scene, &views::CanvasScene::linkRequested, this, &CanvasController::link);
    connect(scene, &views::CanvasScene::partDropped, this,
            [this](const QString &model, QPointF pos, const std::string &target, int slot) {
                addPart(model, pos, target, slot);
            });
    connect(scene, &views::CanvasScene::linkKindDropped, this, &CanvasController::changeLinkKind);
    connect(scene, &views::CanvasScene::message, this, &CanvasController::message);
    connect(scene, &QGraphicsScene::selectionChanged, this, &CanvasController::showInspector);
    connect(m_document, &Document::changed, this, [this](const Change &change) {
        if (!change.only(Change::Layout)) // the Inspector shows no positions
            showInspector();
    });

    connect(inspector, &views::InspectorWidget::renameRequested, this,
            [this](const std::string &id, const std::string &name) {
                m_document->push(new commands::RenameCommand(m_document, id, name));
            });
    connect(inspector, &views::InspectorWidget::modelRequested, this,
            [this](const std::string &id, const std::string &model) {
                m_document->push(new commands::SetModelCommand(m_document, id, model));
            });
    connect(inspector, &views::InspectorWidget::hostRequested, this,
            [this](const std::string &device, const std::string &host) { compose(device, host); });
    connect(inspector, &views::InspectorWidget::slotRequested, this,
            [this](const std::string &device, const std::string &chassis, int slot) {
                m_document->push(new commands::SetSlotCommand(m_document, device, chassis, slot));
            });
    connect(inspector, &views::InspectorWidget::linkEditRequested, this,
            [this](const design::Link &l) {
                m_document->push(new commands::EditLinkCommand(m_document, l));
            });
    connect(inspector, &views::InspectorWidget::systemRenameRequested, this,
            [this](const std::string &from, const std::string &to) {
                if (m_document->design().system(to)) {
                    Q_EMIT message(tr("There is already a system named %1.").arg(toQString(to)));
                    return;
                }
                m_document->push(new commands::RenameSystemCommand(m_document, from, to));
            });
    connect(inspector, &views::InspectorWidget::designInfoRequested, this,
            [this](const std::string &name, const std::string &description) {
                m_document->push(new commands::SetDesignInfoCommand(m_document, name, description));
            });
    connect(palette, &views::PaletteWidget::partActivated, this, [this](const QString &model) {
        const QPointF centre = m_view->mapToScene(m_view->viewport()->rect().center());
        addPart(model, centre, {}, -1);
    });
}

void CanvasController::showInspector()
{
    m_inspector->showSelection(m_document->design(), m_scene->selectedIds(),
                               m_scene->selectedLinks());
}

std::string CanvasController::addPart(const QString &modelText, QPointF pos,
                                      const std::string &target, int slot)
{
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    const std::string model = modelText.toStdString();
    const design::PlacedPart placed
        = design::placePart(m_document->design(), catalog, model, {pos.x(), pos.y()}, target, slot);
    if (!placed.problem.empty()) {
        QString text = toQString(placed.problem);
        text[0] = text[0].toUpper();
        Q_EMIT message(text + QLatin1Char('.'));
        return {};
    }
    QUndoStack *stack = m_document->undoStack();
    const QString name = toQString(catalog.entry(model)->name);
    const auto add
        = new commands::AddItemsCommand(m_document, placed.fragment, tr("Add %1").arg(name));
    if (!placed.composeTo.empty()) {
        if (!m_document->wouldStand(add)) {
            delete add; // refused: no step, and the redo history stays (a macro would drop it)
            return {};
        }
        stack->beginMacro(tr("Add %1 to %2").arg(name, toQString(placed.composeTo)));
        stack->push(add);
        stack->push(new commands::ComposeCommand(m_document, placed.id, placed.composeTo));
        stack->endMacro();
    } else if (!m_document->push(add)) {
        return {};
    }
    if (!design::hasItem(m_document->design(), placed.id))
        return {}; // refused: the document said why
    m_scene->selectIds({placed.id});
    return placed.id;
}

void CanvasController::link(const std::string &from, const std::string &to)
{
    const design::DesignIndex index(m_document->design());
    const design::LinkChoice choice
        = design::chooseLink(index, catalog::Catalog::builtin(), from, to);
    if (!choice.ok()) {
        Q_EMIT message(tr("Cannot link %1 to %2: %3")
                           .arg(toQString(from), toQString(to), toQString(choice.error)));
        return;
    }
    const design::Link link{from, to, choice.kind, choice.count, {}};
    m_document->push(new commands::AddLinkCommand(m_document, link));
}

void CanvasController::compose(const std::string &device, const std::string &host)
{
    m_document->push(new commands::ComposeCommand(m_document, device, host));
}

void CanvasController::changeLinkKind(const QString &kindText, const std::string &linkId)
{
    const design::Link *link = m_document->design().link(linkId);
    if (!link)
        return;
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    const catalog::LinkKind *now = catalog.link(link->kind);
    const catalog::LinkKind *wanted = catalog.link(kindText.toStdString());
    if (!wanted || (now && now->family != wanted->family)) {
        Q_EMIT message(tr("A %1 cable cannot replace this link: it joins other kinds of ports.")
                           .arg(kindText));
        return;
    }
    design::Link l = *link;
    l.kind = wanted->id;
    m_document->push(new commands::EditLinkCommand(m_document, l));
}

void CanvasController::deleteSelection()
{
    const std::vector<std::string> ids = m_scene->selectedIds();
    const std::vector<std::string> links = m_scene->selectedLinks();
    if (ids.empty() && links.empty())
        return;
    m_document->push(new commands::RemoveItemsCommand(m_document, ids, links));
}

void CanvasController::copySelection()
{
    const std::vector<std::string> ids = m_scene->selectedIds();
    if (ids.empty())
        return;
    const std::string text = design::writeDesign(design::copyItems(m_document->design(), ids));
    auto *mime = new QMimeData;
    mime->setData(QLatin1String(kDesignMime), QByteArray::fromStdString(text));
    mime->setText(toQString(text));
    QApplication::clipboard()->setMimeData(mime);
    Q_EMIT message(tr("Copied %n item(s).", nullptr, int(ids.size())));
}

void CanvasController::paste()
{
    const QMimeData *mime = QApplication::clipboard()->mimeData();
    if (!mime)
        return;
    const QByteArray data = mime->hasFormat(QLatin1String(kDesignMime))
                                ? mime->data(QLatin1String(kDesignMime))
                                : mime->text().toUtf8();
    design::Design fragment;
    try {
        fragment = design::readDesign(data.toStdString(), tr("the clipboard").toStdString());
    } catch (const InputError &e) {
        Q_EMIT message(tr("Nothing to paste: %1").arg(toQString(e.what())));
        return;
    }
    fragment = design::prepareForPaste(m_document->design(), std::move(fragment), 40, 40);
    const std::set<std::string> pasted = design::itemIds(fragment);
    const std::vector<std::string> ids(pasted.begin(), pasted.end());
    if (m_document->push(new commands::AddItemsCommand(
            m_document, fragment, tr("Paste %n item(s)", nullptr, int(ids.size())))))
        m_scene->selectIds(ids); // a refused paste keeps the selection
}

bool CanvasController::groupSelection(const QString &name)
{
    const design::Design &d = m_document->design();
    design::System system;
    system.name = name.toStdString();
    for (const std::string &id : m_scene->selectedIds()) {
        if (d.host(id)) {
            if (!system.host.empty()) {
                Q_EMIT message(tr("Select one host (and its devices) to group a system."));
                return false;
            }
            system.host = id;
        } else if (d.device(id)) {
            system.devices.push_back(id);
        }
    }
    if (system.host.empty() || system.name.empty()) {
        Q_EMIT message(tr("Select a host and the devices to compose to it, then group them."));
        return false;
    }
    if (d.system(system.name)) {
        Q_EMIT message(tr("There is already a system named %1.").arg(name));
        return false;
    }
    return m_document->push(new commands::GroupSystemCommand(m_document, system));
}

void CanvasController::tidyLayout()
{
    const auto positions
        = design::autoLayout(m_document->design(), catalog::Catalog::builtin(), false);
    if (positions.empty())
        return;
    auto *command = new commands::MoveItemsCommand(m_document, positions);
    command->setText(tr("Tidy layout"));
    m_document->push(command);
    m_view->fitAll();
}

void CanvasController::addEditActions(QMenu *edit)
{
    edit->addSeparator();
    edit->addAction(tr("Cu&t"), QKeySequence::Cut, this, [this] {
        copySelection();
        deleteSelection();
    });
    edit->addAction(tr("&Copy"), QKeySequence::Copy, this, &CanvasController::copySelection);
    edit->addAction(tr("&Paste"), QKeySequence::Paste, this, &CanvasController::paste);
    QAction *del = edit->addAction(tr("&Delete"), this, &CanvasController::deleteSelection);
    del->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    del->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(del); // only while the canvas has focus, so text fields keep Delete
    edit->addAction(tr("Select &All"), QKeySequence::SelectAll, this, [this] {
        for (QGraphicsItem *item : m_scene->items())
            if (item->flags() & QGraphicsItem::ItemIsSelectable)
                item->setSelected(true);
    });
    edit->addSeparator();
    edit->addAction(tr("&Rename"), QKeySequence(Qt::Key_F2), this, [this] {
        if (QWidget *w = m_inspector->editor(QStringLiteral("name"))) {
            w->setFocus();
        }
    });
    edit->addAction(tr("&Group into System..."), QKeySequence(tr("Ctrl+G")), this, [this] {
        QString host;
        for (const std::string &id : m_scene->selectedIds())
            if (m_document->design().host(id))
                host = toQString(id);
        bool ok = false;
        const QString name = QInputDialog::getText(
            m_view, tr("Group into a composed system"), tr("System name:"), QLineEdit::Normal,
            host.isEmpty() ? tr("system") : host + tr(" system"), &ok);
        if (ok)
            groupSelection(name);
    });
}

void CanvasController::addViewActions(QMenu *view)
{
    view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] { m_view->zoomBy(1.25); });
    view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] { m_view->zoomBy(0.8); });
    view->addAction(tr("&Fit to Window"), QKeySequence(tr("Ctrl+0")), this,
                    [this] { m_view->fitAll(); });
    view->addSeparator();
    m_snap = view->addAction(tr("&Snap to Grid"));
    m_snap->setCheckable(true);
    m_snap->setChecked(QSettings().value(QStringLiteral("canvas/snap"), true).toBool());
    m_scene->setSnapToGrid(m_snap->isChecked());
    connect(m_snap, &QAction::toggled, this, [this](bool on) {
        m_scene->setSnapToGrid(on);
        QSettings().setValue(QStringLiteral("canvas/snap"), on);
    });
    view->addAction(tr("&Tidy Layout"), QKeySequence(tr("Ctrl+L")), this,
                    &CanvasController::tidyLayout);
}

} // namespace clab
