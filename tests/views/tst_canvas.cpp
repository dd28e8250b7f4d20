#include "canvascontroller.h"
#include "commands/removeitemscommand.h"
#include "mainwindow.h"
#include "views/canvas/canvasscene.h"
#include "design/autolayout.h"
#include "views/canvas/canvasview.h"
#include "views/findings/findingspanel.h"
#include "views/inspector/inspectorwidget.h"
#include "views/palette/palettewidget.h"
#include "views/systems/systemsview.h"

#include <QClipboard>
#include <QComboBox>
#include <QListWidget>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace clab;

// The canvas as a user drives it: drop a part from the palette, drag it onto a host, link two
// GPUs, undo; the Results panel follows every step.
class TestCanvas : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void dropComposeLinkUndo();
    void inspectorComposes();
    void dragBackReleases();
    void findingSelectsItems();
    void deleteCopyPaste();
    void selectedLinkFollowsItsId();
    void editsStayWithinFileLimits();
    void paletteFilters();
    void exportsCanvas();
    void followsDarkPalette();

private:
    QPoint viewPoint(const QPointF &scenePos) const;
    void dropPart(const QString &model, QPointF scenePos);
    void drag(QPointF from, QPointF to, Qt::KeyboardModifiers modifiers = Qt::NoModifier);

    QTemporaryDir m_settings;
    std::unique_ptr<MainWindow> m_window;
};

void TestCanvas::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
}

void TestCanvas::init()
{
    m_window = std::make_unique<MainWindow>();
    QVERIFY(m_window->openExample(QString::fromLatin1(design::kSeedExample)));
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->canvasView()->resetTransform(); // one scene unit = one pixel
    m_window->canvasView()->centerOn(m_window->canvasScene()->node("pool"));
}

QPoint TestCanvas::viewPoint(const QPointF &scenePos) const
{
    return m_window->canvasView()->mapFromScene(scenePos);
}

void TestCanvas::dropPart(const QString &model, QPointF scenePos)
{
    // The mime data the palette itself makes for a drag of this part.
    views::PaletteWidget *palette = m_window->palette();
    palette->setFilter(model);
    const QList<QTreeWidgetItem *> found
        = palette->tree()->findItems(QStringLiteral("*"), Qt::MatchWildcard | Qt::MatchRecursive);
    QTreeWidgetItem *item = nullptr;
    for (QTreeWidgetItem *i : found)
        if (!i->isHidden() && i->parent() && i->toolTip(0).startsWith(model))
            item = i;
    QVERIFY2(item, qPrintable(model));
    std::unique_ptr<QMimeData> mime(
        palette->tree()->model()->mimeData({palette->tree()->indexFromItem(item)}));
    QVERIFY(mime && mime->hasFormat(QLatin1String(views::kPartMimeType)));

    QWidget *viewport = m_window->canvasView()->viewport();
    const QPoint at = viewPoint(scenePos);
    QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &enter);
    QDragMoveEvent move(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &move);
    QDropEvent drop(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &drop);
}

void TestCanvas::drag(QPointF fromScene, QPointF toScene, Qt::KeyboardModifiers modifiers)
{
    QWidget *viewport = m_window->canvasView()->viewport();
    const QPoint from = viewPoint(fromScene), to = viewPoint(toScene);
    auto send = [&](QEvent::Type type, QPoint p, Qt::MouseButtons buttons) {
        QMouseEvent e(type, p, viewport->mapToGlobal(p), Qt::LeftButton, buttons, modifiers);
        QApplication::sendEvent(viewport, &e);
    };
    send(QEvent::MouseButtonPress, from, Qt::LeftButton);
    for (int step = 1; step <= 5; ++step)
        send(QEvent::MouseMove, from + (to - from) * step / 5, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, to, Qt::NoButton);
}

void TestCanvas::dropComposeLinkUndo()
{
    Document *doc = m_window->document();
    views::CanvasScene *scene = m_window->canvasScene();
    const design::Design before = doc->design();
    QSignalSpy updated(m_window.get(), &MainWindow::analysisUpdated);

    // 0. The seed's pool is full: delete nic1 to free slot 15.
    scene->selectIds({"nic1"});
    m_window->controller()->deleteSelection();
    QCOMPARE(doc->design().devices.size(), before.devices.size() - 1);

    // 1. Drop an A100 onto the pool's free slot 15.
    views::NodeItem *pool = scene->node("pool");
    QVERIFY(pool);
    const design::Position slot15 = design::slotOffset(15);
    dropPart(QStringLiteral("A100-PCIe-80GB"),
             pool->mapToScene(QPointF(slot15.x + 40, slot15.y + 28)));
    QCOMPARE(doc->design().devices.size(), before.devices.size());
    const design::Device added = doc->design().devices.back();
    QCOMPARE(added.model, std::string("A100-PCIe-80GB"));
    QCOMPARE(added.chassis, std::string("pool"));
    QCOMPARE(added.slot, 15);
    QVERIFY(scene->node(added.id));
    QCOMPARE(updated.count(), 2);

    // 2. Drag it onto host A: it is composed to host A's system, and the results show it.
    const int systemA = 0;
    QCOMPARE(doc->design().systems[systemA].host, std::string("hostA"));
    const std::size_t gpusBefore = doc->design().systems[systemA].devices.size();
    views::NodeItem *gpu = scene->node(added.id);
    views::NodeItem *host = scene->node("hostA");
    drag(gpu->mapToScene(QPointF(43, 28)), host->mapToScene(QPointF(90, 30)));
    QCOMPARE(doc->design().systems[systemA].devices.size(), gpusBefore + 1);
    QCOMPARE(doc->design().systems[systemA].devices.back(), added.id);
    QCOMPARE(updated.count(), 3);
    m_window->systemsView()->selectSystem(systemA);
    QCOMPARE(m_window->systemsView()->peerTable()->model()->rowCount(),
             5); // four GPUs and the new one
    // It went back to its slot: composing does not move hardware.
    QCOMPARE(doc->design().device(added.id)->slot, 15);

    // 3. Shift+drag from gpu0 to gpu1: an NVLink bridge.
    const std::size_t linksBefore = doc->design().links.size();
    views::NodeItem *g0 = scene->node("gpu0");
    views::NodeItem *g1 = scene->node("gpu1");
    drag(g0->mapToScene(QPointF(43, 40)), g1->mapToScene(QPointF(43, 40)), Qt::ShiftModifier);
    QCOMPARE(doc->design().links.size(), linksBefore + 1);
    QCOMPARE(doc->design().links.back().kind, std::string("nvlink3"));
    QCOMPARE(updated.count(), 4);

    // 4. Undo all four: the design is exactly as it was, and the results follow.
    QUndoStack *stack = doc->undoStack();
    QCOMPARE(stack->count(), 4);
    for (int i = 0; i < 4; ++i)
        stack->undo();
    QVERIFY(doc->design() == before);
    QCOMPARE(updated.count(), 8);
    QVERIFY(!scene->node(added.id));
    m_window->systemsView()->selectSystem(systemA);
    QCOMPARE(m_window->systemsView()->peerTable()->model()->rowCount(), 4);
    // Redo the delete and the drop: one step each.
    stack->redo();
    stack->redo();
    QCOMPARE(doc->design().devices.back().id, added.id);
}

void TestCanvas::inspectorComposes()
{
    Document *doc = m_window->document();
    views::CanvasScene *scene = m_window->canvasScene();
    // gpu10 belongs to host D; choose host C in the inspector.
    scene->selectIds({"gpu10"});
    auto *host = qobject_cast<QComboBox *>(m_window->inspector()->editor(QStringLiteral("host")));
    QVERIFY(host);
    QCOMPARE(host->currentData().toString(), QStringLiteral("hostD"));
    const int c = host->findData(QStringLiteral("hostC"));
    QVERIFY(c > 0);
    host->setCurrentIndex(c);
    Q_EMIT host->activated(c);
    const design::System &sc = doc->design().systems[2];
    QCOMPARE(sc.host, std::string("hostC"));
    QVERIFY(std::find(sc.devices.begin(), sc.devices.end(), "gpu10") != sc.devices.end());
    const design::System &sd = doc->design().systems[3];
    QVERIFY(std::find(sd.devices.begin(), sd.devices.end(), "gpu10") == sd.devices.end());
    QCOMPARE(doc->undoStack()->count(), 1);
}

void TestCanvas::dragBackReleases()
{
    // gpu0 (host A's) dragged a little within its own chassis goes back to the pool.
    Document *doc = m_window->document();
    views::NodeItem *g0 = m_window->canvasScene()->node("gpu0");
    const QPointF start = g0->mapToScene(QPointF(43, 28));
    drag(start, start + QPointF(0, 3));
    for (const design::System &s : doc->design().systems)
        QVERIFY(std::find(s.devices.begin(), s.devices.end(), "gpu0") == s.devices.end());
    QCOMPARE(doc->design().device("gpu0")->slot, 0); // still in its slot
    doc->undoStack()->undo();
    QCOMPARE(doc->design().systems[0].devices.front(), std::string("gpu0"));
}

void TestCanvas::findingSelectsItems()
{
    Document *doc = m_window->document();
    views::CanvasScene *scene = m_window->canvasScene();
    // Compose gpu0 (host A's) to host B as well, by editing the design: a rule error.
    design::Design broken = doc->design();
    broken.systems[1].devices.push_back("gpu0");
    doc->setDesign(broken);
    views::FindingsPanel *findings = m_window->findingsPanel();
    QVERIFY(findings->errorCount() > 0);
    QVERIFY(scene->node("gpu0")->look().errors > 0); // a badge on the item
    QSignalSpy activated(findings, &views::FindingsPanel::itemsActivated);
    QListWidgetItem *first = findings->list()->item(0);
    Q_EMIT findings->list()->itemClicked(first);
    QCOMPARE(activated.count(), 1);
    const std::vector<std::string> selected = scene->selectedIds();
    QVERIFY(std::find(selected.begin(), selected.end(), "gpu0") != selected.end());
}

void TestCanvas::deleteCopyPaste()
{
    Document *doc = m_window->document();
    views::CanvasScene *scene = m_window->canvasScene();
    CanvasController *controller = m_window->controller();
    const design::Design before = doc->design();
    scene->selectIds({"hostC"});
    controller->copySelection();
    controller->paste();
    QCOMPARE(doc->design().hosts.size(), before.hosts.size() + 1);
    const std::string copy = doc->design().hosts.back().id;
    QVERIFY(copy != "hostC");
    QCOMPARE(scene->selectedIds(), std::vector<std::string>{copy});
    controller->deleteSelection();
    QCOMPARE(doc->design().hosts.size(), before.hosts.size());
    scene->selectIds({"pool"});
    controller->deleteSelection(); // the chassis, its devices, their links and composition
    QVERIFY(doc->design().devices.empty());
    doc->undoStack()->undo();
    QVERIFY(doc->design().devices == before.devices);
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    QVERIFY(doc->design() == before);
}

// The canvas knows links by id: when another link goes (or comes back), the selected one stays
// selected and keeps its own item, drawn between its own ends.
void TestCanvas::selectedLinkFollowsItsId()
{
    Document *doc = m_window->document();
    views::CanvasScene *scene = m_window->canvasScene();
    const auto itemOf = [scene](const std::string &id) -> views::LinkItem * {
        for (QGraphicsItem *item : scene->items())
            if (item->type() == views::LinkItem::Type
                && static_cast<views::LinkItem *>(item)->linkId() == id)
                return static_cast<views::LinkItem *>(item);
        return nullptr;
    };
    views::LinkItem *link3 = itemOf("link3");
    QVERIFY(link3);
    const QPointF middle = link3->midpoint();
    link3->setSelected(true);
    QCOMPARE(scene->selectedLinks(), std::vector<std::string>{"link3"});
    doc->undoStack()->push(new commands::RemoveItemsCommand(doc, {}, {"link1"}));
    QVERIFY(!itemOf("link1"));
    QCOMPARE(itemOf("link3"), link3);
    QCOMPARE(scene->selectedLinks(), std::vector<std::string>{"link3"});
    QCOMPARE(link3->midpoint(), middle);
    doc->undoStack()->undo();
    QVERIFY(itemOf("link1"));
    QCOMPARE(scene->selectedLinks(), std::vector<std::string>{"link3"});
    QCOMPARE(m_window->inspector()->editor(QStringLiteral("kind")) != nullptr, true);
}

// An edit after which the design could not be opened again (here: more than 10^6 ordered device
// pairs) is refused with a message and leaves no undo step; one within the limit goes through.
void TestCanvas::editsStayWithinFileLimits()
{
    Document *doc = m_window->document();
    views::CanvasScene *scene = m_window->canvasScene();
    design::Design big = doc->design();
    const std::string model = big.device("gpu0")->model;
    for (int i = 0; big.systems[0].devices.size() < 1000; ++i) {
        const std::string id = "extra" + std::to_string(i);
        big.devices.push_back({id, model, {}, {}, -1});
        big.systems[0].devices.push_back(id);
    }
    doc->setDesign(big);
    QVERIFY(design::limitProblem(big).empty()); // 1000 * 999 pairs and the other systems' few

    QSignalSpy messages(m_window->controller(), &CanvasController::message);
    Q_EMIT scene->composeRequested("gpu10", "hostA"); // host A's system would list 1001
    QCOMPARE(messages.count(), 1);
    QVERIFY2(messages[0][0].toString().contains(QStringLiteral("too many devices")),
             qPrintable(messages[0][0].toString()));
    QVERIFY(doc->design() == big);
    QCOMPARE(doc->undoStack()->count(), 0);

    Q_EMIT scene->composeRequested("gpu10", "hostC"); // a small system: fine
    QCOMPARE(doc->undoStack()->count(), 1);
    QVERIFY(!(doc->design() == big));

    // Pasting a host from the canvas' far edge: the paste's 40-unit shift would take it past
    // 1e9, which no design file may hold.
    const design::Design edited = doc->design();
    design::Design clip;
    clip.hosts.push_back(*edited.host("hostC"));
    clip.layout["hostC"] = {1e9, 0};
    QApplication::clipboard()->setText(QString::fromStdString(design::writeDesign(clip)));
    m_window->controller()->paste();
    QCOMPARE(messages.count(), 2);
    QVERIFY2(messages[1][0].toString().contains(QStringLiteral("outside the canvas")),
             qPrintable(messages[1][0].toString()));
    QVERIFY(doc->design() == edited);
    QCOMPARE(doc->undoStack()->count(), 1);

    // A GPU dropped on host A: added and cabled, but host A's system is full, so it stays in the
    // pool (one step, and a message).
    CanvasController *controller = m_window->controller();
    const std::string added
        = controller->addPart(QStringLiteral("A100-PCIe-40GB"), {0, 0}, "hostA", -1);
    QVERIFY(doc->design().device(added)); // on the canvas, but not composed
    QCOMPARE(messages.count(), 3);
    QVERIFY(messages[2][0].toString().contains(QStringLiteral("too many devices")));
    QCOMPARE(doc->undoStack()->count(), 2);
    QCOMPARE(doc->design().devices.size(), edited.devices.size() + 1);
    QCOMPARE(doc->design().systems[0].devices.size(), std::size_t(1000));
    doc->undoStack()->undo();
    QVERIFY(doc->design() == edited);

    // Dropped on a host at the canvas' edge: the GPU would go under it, past 1e9. Neither the
    // add nor the compose stands, and no empty step is left behind.
    design::Design edge = doc->design();
    edge.layout["hostC"] = {0, 1e9 - 10};
    doc->setDesign(edge);
    doc->undoStack()->clear();
    QVERIFY(controller->addPart(QStringLiteral("A100-PCIe-40GB"), {0, 0}, "hostC", -1).empty());
    QCOMPARE(messages.count(), 4);
    QVERIFY(messages[3][0].toString().contains(QStringLiteral("outside the canvas")));
    QCOMPARE(doc->undoStack()->count(), 0);
    QVERIFY(doc->design() == edge);
}

void TestCanvas::paletteFilters()
{
    views::PaletteWidget *palette = m_window->palette();
    palette->setFilter(QStringLiteral("H100"));
    const QStringList shown = palette->visibleParts();
    QVERIFY(!shown.isEmpty());
    for (const QString &id : shown)
        QVERIFY2(id.contains(QLatin1String("H100"), Qt::CaseInsensitive)
                     || id.startsWith(QLatin1String("nvlink-bridge-h100"))
                     || id.startsWith(QLatin1String("hgx-h100")),
                 qPrintable(id));
    palette->setFilter(QStringLiteral("no such part"));
    QVERIFY(palette->visibleParts().isEmpty());
    palette->setFilter({});
    QVERIFY(palette->visibleParts().size() > 40);
}

void TestCanvas::exportsCanvas()
{
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("canvas.png"));
    QVERIFY(m_window->exportCanvas(png, 96));
    QImage image(png);
    QVERIFY(!image.isNull());
    const QRectF bounds = m_window->canvasScene()->itemsBoundingRect();
    QVERIFY(image.width() >= bounds.width() && image.width() <= bounds.width() + 80);
    const QString svg = dir.filePath(QStringLiteral("canvas.svg"));
    QVERIFY(m_window->exportCanvas(svg, 96));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("Host A")); // labels are text, searchable in the drawing
    QVERIFY(!m_window->exportCanvas(dir.filePath(QStringLiteral("canvas.bmpx")), 96));
}

void TestCanvas::followsDarkPalette()
{
    // The canvas draws with the application palette, so a dark system theme gives a dark canvas.
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Base, QColor(0x2a, 0x2a, 0x2a));
    dark.setColor(QPalette::Text, Qt::white);
    const QPalette old = QApplication::palette();
    QApplication::setPalette(dark);
    QImage image(200, 200, QImage::Format_ARGB32);
    QPainter painter(&image);
    m_window->canvasScene()->render(&painter, QRectF(0, 0, 200, 200),
                                    QRectF(-10000, -10000, 200, 200)); // empty corner
    painter.end();
    QApplication::setPalette(old);
    QCOMPARE(QColor(image.pixel(105, 105)).lightness() < 60, true);
}

QTEST_MAIN(TestCanvas)
#include "tst_canvas.moc"
