#include "mainwindow.h"
#include "views/canvas/canvasscene.h"
#include "views/canvas/canvasview.h"
#include "views/palette/palettewidget.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialog>
#include <QDrag>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>

#include <random>

using namespace clab;

// A seeded monkey: thousands of random real input events on the main window (clicks, double
// clicks, drags on and between the canvas and the docks, palette drops, wheel turns, keys and
// shortcuts, menu actions), with every modal dialog, popup menu and drag answered by a watchdog.
// Any crash or sanitizer report fails the run (CI runs it under ASan); the seed is printed first
// so that a failure can be replayed: CLAB_MONKEY_SEED=N CLAB_MONKEY_EVENTS=M tst_monkey.
//
// Every few hundred events it also checks what a user relies on: the design can be saved and
// read back unchanged, and undoing every step gives back the design as it was loaded, and
// redoing them gives back the current one.
class TestMonkey : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void randomSession_data();
    void randomSession();

private:
    void oneEvent();
    void clickSomewhere(bool doubleClick);
    void dragSomewhere();
    void dropPart();
    void pressKey();
    void turnWheel();
    void triggerAction();
    void answerWhatIsOpen();
    void checkInvariants(int event);
    void followStack(QUndoStack *stack);
    QPoint randomPoint(QWidget *within);
    QWidget *randomWidget();

    QTemporaryDir m_settings;
    std::unique_ptr<MainWindow> m_window;
    std::mt19937 m_random;
    design::Design m_loaded; // the design when the undo stack was last empty
    // The design's text at each index of the undo stack, and the command that led there: an
    // undo or redo must come back to exactly the text it left.
    std::vector<std::string> m_states;
    std::vector<const QUndoCommand *> m_commands;
    int m_lastIndex = 0;
    QString m_undoProblem;
    int m_pushed = 0, m_opened = 0; // for the summary line
};

void TestMonkey::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
}

void TestMonkey::randomSession_data()
{
    QTest::addColumn<unsigned>("seed");
    QTest::addColumn<int>("events");
    bool fromEnv = false;
    const unsigned seed = qEnvironmentVariableIntValue("CLAB_MONKEY_SEED", &fromEnv);
    const int events = qEnvironmentVariableIsSet("CLAB_MONKEY_EVENTS")
                           ? qEnvironmentVariableIntValue("CLAB_MONKEY_EVENTS")
                           : 1500;
    if (fromEnv) {
        QTest::newRow("from CLAB_MONKEY_SEED") << seed << events;
        return;
    }
    for (unsigned s : {1u, 2u, 3u})
        QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(s))) << s << events;
}

void TestMonkey::randomSession()
{
    QFETCH(unsigned, seed);
    QFETCH(int, events);
    // Printed before anything can crash, so a dead run still names its seed.
    fprintf(stderr, "tst_monkey: seed %u, %d events (replay: CLAB_MONKEY_SEED=%u)\n", seed, events,
            seed);
    m_random.seed(seed);
    m_pushed = m_opened = 0;
    m_window = std::make_unique<MainWindow>();
    QUndoStack *stack = m_window->document()->undoStack();
    connect(stack, &QUndoStack::indexChanged, this, [this, stack] { followStack(stack); });
    // Opening a design while the stack is already empty changes no index (QUndoStack::clear
    // returns early), but the document says its file changed.
    connect(m_window->document(), &Document::fileChanged, this, [this, stack] {
        if (stack->count() == 0)
            followStack(stack);
    });
    QVERIFY(m_window->openExample(QString::fromLatin1(design::kSeedExample)));
    m_loaded = m_window->document()->design();
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));

    // Whatever opens a nested event loop (a dialog, a menu, a drag) is answered from here.
    QTimer watchdog;
    connect(&watchdog, &QTimer::timeout, this, &TestMonkey::answerWhatIsOpen);
    watchdog.start(15);

    for (int i = 0; i < events; ++i) {
        oneEvent();
        if (!m_window->isVisible())
            m_window->show(); // Quit or Close answered "discard": keep monkeying
        if (i % 250 == 249) {
            checkInvariants(i);
            if (QTest::currentTestFailed())
                return;
        }
    }
    checkInvariants(events);
    watchdog.stop();
    fprintf(stderr, "tst_monkey: seed %u: %d steps pushed or merged, %d designs opened\n", seed,
            m_pushed, m_opened);
    m_window.reset();
}

void TestMonkey::oneEvent()
{
    switch (std::uniform_int_distribution<int>(0, 19)(m_random)) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
        clickSomewhere(false);
        break;
    case 5:
        clickSomewhere(true);
        break;
    case 6:
    case 7:
    case 8:
    case 9:
        dragSomewhere();
        break;
    case 10:
        dropPart();
        break;
    case 11:
    case 12:
    case 13:
    case 14:
        pressKey();
        break;
    case 15:
        turnWheel();
        break;
    default:
        triggerAction();
        break;
    }
    QCoreApplication::processEvents();
}

QWidget *TestMonkey::randomWidget()
{
    // Mostly the canvas, where most of the editing happens; otherwise anything under a point.
    if (std::uniform_int_distribution<int>(0, 2)(m_random) == 0)
        return m_window->canvasView()->viewport();
    const QPoint at(std::uniform_int_distribution<int>(0, m_window->width() - 1)(m_random),
                    std::uniform_int_distribution<int>(0, m_window->height() - 1)(m_random));
    QWidget *w = m_window->childAt(at);
    return w ? w : m_window.get();
}

QPoint TestMonkey::randomPoint(QWidget *within)
{
    return {std::uniform_int_distribution<int>(0, std::max(0, within->width() - 1))(m_random),
            std::uniform_int_distribution<int>(0, std::max(0, within->height() - 1))(m_random)};
}

void TestMonkey::clickSomewhere(bool doubleClick)
{
    QPointer<QWidget> w = randomWidget();
    const Qt::MouseButton button = std::uniform_int_distribution<int>(0, 5)(m_random) == 0
                                       ? Qt::RightButton
                                       : Qt::LeftButton;
    const Qt::KeyboardModifiers mods = std::uniform_int_distribution<int>(0, 4)(m_random) == 0
                                           ? Qt::ControlModifier
                                           : Qt::NoModifier;
    const QPoint at = randomPoint(w);
    if (doubleClick)
        QTest::mouseDClick(w, button, mods, at);
    else
        QTest::mouseClick(w, button, mods, at);
}

void TestMonkey::dragSomewhere()
{
    // Press, a few moves, release: on the canvas a move, a compose, a link (Shift) or a rubber
    // band; elsewhere a splitter, a header, a list selection. The release may land on another
    // widget, as a drag between docks would.
    QPointer<QWidget> w = randomWidget();
    const Qt::KeyboardModifiers mods = std::uniform_int_distribution<int>(0, 3)(m_random) == 0
                                           ? Qt::ShiftModifier
                                           : Qt::NoModifier;
    const QPoint from = randomPoint(w);
    const QPoint to = randomPoint(w);
    QTest::mousePress(w, Qt::LeftButton, mods, from);
    for (int step = 1; step <= 4 && w; ++step)
        QTest::mouseMove(w, from + (to - from) * step / 4);
    if (w)
        QTest::mouseRelease(w, Qt::LeftButton, mods, to);
}

void TestMonkey::dropPart()
{
    // The palette's own mime data for a random part, dropped at a random place of the canvas
    // (the drag itself runs in the platform's drag loop, which offscreen tests cannot drive).
    views::PaletteWidget *palette = m_window->palette();
    palette->setFilter({});
    QList<QTreeWidgetItem *> parts;
    for (QTreeWidgetItem *i :
         palette->tree()->findItems(QStringLiteral("*"), Qt::MatchWildcard | Qt::MatchRecursive))
        if (i->parent())
            parts.append(i);
    if (parts.isEmpty())
        return;
    QTreeWidgetItem *item
        = parts[std::uniform_int_distribution<int>(0, int(parts.size()) - 1)(m_random)];
    std::unique_ptr<QMimeData> mime(
        palette->tree()->model()->mimeData({palette->tree()->indexFromItem(item)}));
    if (!mime)
        return;
    QWidget *viewport = m_window->canvasView()->viewport();
    const QPoint at = randomPoint(viewport);
    QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &enter);
    QDragMoveEvent move(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &move);
    QDropEvent drop(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &drop);
}

void TestMonkey::pressKey()
{
    static const std::vector<std::pair<int, Qt::KeyboardModifiers>> keys = {
        {Qt::Key_Delete, Qt::NoModifier},     {Qt::Key_Backspace, Qt::NoModifier},
        {Qt::Key_F2, Qt::NoModifier},         {Qt::Key_Return, Qt::NoModifier},
        {Qt::Key_Escape, Qt::NoModifier},     {Qt::Key_Tab, Qt::NoModifier},
        {Qt::Key_Up, Qt::NoModifier},         {Qt::Key_Down, Qt::NoModifier},
        {Qt::Key_Left, Qt::NoModifier},       {Qt::Key_Right, Qt::NoModifier},
        {Qt::Key_Space, Qt::NoModifier},      {Qt::Key_Home, Qt::NoModifier},
        {Qt::Key_Z, Qt::ControlModifier},     {Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier},
        {Qt::Key_C, Qt::ControlModifier},     {Qt::Key_V, Qt::ControlModifier},
        {Qt::Key_X, Qt::ControlModifier},     {Qt::Key_A, Qt::ControlModifier},
        {Qt::Key_G, Qt::ControlModifier},     {Qt::Key_L, Qt::ControlModifier},
        {Qt::Key_0, Qt::ControlModifier},     {Qt::Key_Equal, Qt::ControlModifier},
        {Qt::Key_Minus, Qt::ControlModifier}, {Qt::Key_A, Qt::NoModifier},
        {Qt::Key_7, Qt::NoModifier},          {Qt::Key_Q, Qt::NoModifier},
    };
    const auto &[key, mods]
        = keys[std::uniform_int_distribution<std::size_t>(0, keys.size() - 1)(m_random)];
    QWidget *target = QApplication::focusWidget();
    if (!target || !m_window->isAncestorOf(target))
        target = std::uniform_int_distribution<int>(0, 1)(m_random) ? m_window->canvasView()
                                                                    : randomWidget();
    QTest::keyClick(target, Qt::Key(key), mods);
}

void TestMonkey::turnWheel()
{
    QPointer<QWidget> w = randomWidget();
    const QPoint at = randomPoint(w);
    const int delta = std::uniform_int_distribution<int>(0, 1)(m_random) ? 120 : -120;
    const Qt::KeyboardModifiers mods
        = std::uniform_int_distribution<int>(0, 1)(m_random) ? Qt::ControlModifier : Qt::NoModifier;
    QWheelEvent wheel(at, w->mapToGlobal(at), {}, {0, delta}, Qt::NoButton, mods, Qt::NoScrollPhase,
                      false);
    QApplication::sendEvent(w, &wheel);
}

void TestMonkey::triggerAction()
{
    // A menu action as the menu would fire it. Quit is left out: the window would only hide.
    QList<QAction *> actions;
    for (QAction *menu : m_window->menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction *a : menu->menu()->actions()) {
            if (a->menu()) {
                for (QAction *sub : a->menu()->actions())
                    actions.append(sub);
            } else if (!a->isSeparator() && a->shortcut() != QKeySequence::Quit) {
                actions.append(a);
            }
        }
    }
    if (actions.isEmpty())
        return;
    QAction *a = actions[std::uniform_int_distribution<int>(0, int(actions.size()) - 1)(m_random)];
    // Opening a design (New, an example, a recent file) ends the undo history; keep it rare so
    // that histories grow long.
    const bool opens
        = a->shortcut() == QKeySequence::New
          || (a->parent() != m_window.get() && a->text().endsWith(QLatin1String(".clab")));
    if (opens && std::uniform_int_distribution<int>(0, 9)(m_random) != 0)
        return;
    if (a->isEnabled())
        a->trigger();
}

void TestMonkey::answerWhatIsOpen()
{
    // A drag in its own loop: let it go.
    QDrag::cancel();
    if (QWidget *popup = QApplication::activePopupWidget()) {
        // A context menu or a combo box's list: usually closed, sometimes a key inside it.
        if (std::uniform_int_distribution<int>(0, 2)(m_random) == 0)
            QTest::keyClick(popup, std::uniform_int_distribution<int>(0, 1)(m_random)
                                       ? Qt::Key_Down
                                       : Qt::Key_Return);
        else
            popup->close();
        return;
    }
    QWidget *modal = QApplication::activeModalWidget();
    auto *dialog = qobject_cast<QDialog *>(modal);
    if (!dialog)
        return;
    // Message boxes get a random button (Save is a file dialog, answered the same way);
    // input dialogs are accepted half of the time with what they propose; others are cancelled.
    if (auto *box = qobject_cast<QMessageBox *>(dialog)) {
        const QList<QAbstractButton *> buttons = box->buttons();
        if (!buttons.isEmpty()) {
            buttons[std::uniform_int_distribution<int>(0, int(buttons.size()) - 1)(m_random)]
                ->click();
            return;
        }
    }
    if (dialog->inherits("QInputDialog") && std::uniform_int_distribution<int>(0, 1)(m_random))
        dialog->accept();
    else
        dialog->reject();
}

void TestMonkey::followStack(QUndoStack *stack)
{
    const int index = stack->index();
    const std::string text = design::writeDesign(m_window->document()->design());
    if (stack->count() == 0) {
        m_loaded = m_window->document()->design();
        m_states = {text};
        ++m_opened;
        m_commands.clear();
    } else if (index > 0
               && (std::size_t(index) > m_commands.size()
                   || m_commands[std::size_t(index) - 1] != stack->command(index - 1)
                   || index == m_lastIndex)) {
        // A new command (or one merged into the top one): its state is what we see now.
        ++m_pushed;
        m_states.resize(std::size_t(index));
        m_states.push_back(text);
        m_commands.resize(std::size_t(index) - 1);
        m_commands.push_back(stack->command(index - 1));
    } else if (std::size_t(index) < m_states.size() && m_states[std::size_t(index)] != text
               && m_undoProblem.isEmpty()) {
        m_undoProblem
            = QStringLiteral("%1 to step %2 (%3) did not give back its design")
                  .arg(index < m_lastIndex ? QStringLiteral("undo") : QStringLiteral("redo"))
                  .arg(index)
                  .arg(index > 0 ? stack->text(index - 1) : QStringLiteral("loaded"));
    }
    m_lastIndex = index;
}

void TestMonkey::checkInvariants(int event)
{
    const QString where = QStringLiteral("after event %1").arg(event);
    QVERIFY2(m_undoProblem.isEmpty(), qPrintable(where + QStringLiteral(": ") + m_undoProblem));
    Document *doc = m_window->document();
    const design::Design now = doc->design();
    // Whatever the canvas allowed can be saved and opened again, unchanged.
    QVERIFY2(design::limitProblem(now).empty(), qPrintable(where));
    const std::string text = design::writeDesign(now);
    design::Design reread;
    try {
        reread = design::readDesign(text, "monkey");
    } catch (const std::exception &e) {
        QFAIL(qPrintable(where + QStringLiteral(": the design does not read back: ")
                         + QString::fromStdString(e.what())));
    }
    QVERIFY2(design::writeDesign(reread) == text, qPrintable(where));
    // Undo all gives the design as loaded; redo all gives this one back.
    QUndoStack *stack = doc->undoStack();
    const int index = stack->index();
    QStringList steps;
    for (int i = 0; i < stack->count(); ++i)
        steps << stack->text(i);
    stack->setIndex(0);
    QVERIFY2(m_undoProblem.isEmpty(), qPrintable(where + QStringLiteral(": ") + m_undoProblem));
    QVERIFY2(design::writeDesign(doc->design()) == design::writeDesign(m_loaded),
             qPrintable(where + QStringLiteral(": undoing every step (")
                        + steps.join(QStringLiteral(" | "))
                        + QStringLiteral(") does not give back the design as loaded")));
    stack->setIndex(index);
    QVERIFY2(design::writeDesign(doc->design()) == text,
             qPrintable(where
                        + QStringLiteral(": redoing every step does not give back the "
                                         "design")));
}

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
