#include "mainwindow.h"
#include "views/canvas/canvasitems.h"
#include "views/canvas/canvasscene.h"
#include "views/canvas/canvasview.h"
#include "views/inspector/inspectorwidget.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

// Every Inspector editor driven as a person drives it: a mouse click on the canvas selects, a
// click opens a combo box, keys move and choose, text is typed and Return pressed. The first
// case is the crash of the Model combo box (open, Down, Return killed the window): its command's
// refresh deleted the combo box while its own `activated` signal was still running. Under ASan
// (CI's second part) any such use-after-free fails the test.
class TestInspector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void modelComboByPopup();
    void modelComboByKeys();
    void hostComboComposes();
    void chassisAndSlot();
    void renameByTyping();
    void systemRename();
    void linkKindAndCount();
    void designInfo();

private:
    void clickItem(const std::string &id);
    void clickLink(const std::string &linkId);
    template<typename T>
    T *editor(const char *name) const;
    void chooseByPopup(QComboBox *combo, int downs);
    void typeInto(QWidget *field, const QString &text);

    QTemporaryDir m_settings;
    std::unique_ptr<MainWindow> m_window;
};

void TestInspector::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
}

void TestInspector::init()
{
    m_window = std::make_unique<MainWindow>();
    QVERIFY(m_window->openExample(QString::fromLatin1(design::kSeedExample)));
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->canvasView()->resetTransform();
}

void TestInspector::cleanup()
{
    m_window.reset();
}

void TestInspector::clickItem(const std::string &id)
{
    views::NodeItem *item = m_window->canvasScene()->node(id);
    QVERIFY(item);
    views::CanvasView *view = m_window->canvasView();
    view->centerOn(item);
    // A corner of the item, away from its ports and slots.
    const QPoint at
        = view->mapFromScene(item->mapToScene(item->boundingRect().topLeft() + QPointF(6, 6)));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    const std::vector<std::string> selected = m_window->canvasScene()->selectedIds();
    QCOMPARE(selected, std::vector<std::string>{id});
}

void TestInspector::clickLink(const std::string &linkId)
{
    views::LinkItem *link = nullptr;
    for (QGraphicsItem *item : m_window->canvasScene()->items())
        if (item->type() == views::LinkItem::Type
            && static_cast<views::LinkItem *>(item)->linkId() == linkId)
            link = static_cast<views::LinkItem *>(item);
    QVERIFY(link);
    views::CanvasView *view = m_window->canvasView();
    view->centerOn(link->midpoint());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier,
                      view->mapFromScene(link->midpoint()));
    QCOMPARE(m_window->canvasScene()->selectedLinks(), std::vector<std::string>{linkId});
}

template<typename T>
T *TestInspector::editor(const char *name) const
{
    return qobject_cast<T *>(m_window->inspector()->editor(QLatin1String(name)));
}

void TestInspector::chooseByPopup(QComboBox *combo, int downs)
{
    QTest::mouseClick(combo, Qt::LeftButton);
    QTRY_VERIFY(combo->view()->isVisible());
    for (int i = 0; i < downs; ++i)
        QTest::keyClick(combo->view(), Qt::Key_Down);
    QTest::keyClick(combo->view(), Qt::Key_Return);
}

void TestInspector::typeInto(QWidget *field, const QString &text)
{
    field->setFocus(); // as a click into the field would
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

void TestInspector::modelComboByPopup()
{
    // The reported steps: click gpu0, open Model, Down, Return.
    clickItem("gpu0");
    auto *model = editor<QComboBox>("model");
    QVERIFY(model);
    const int from = model->currentIndex();
    QVERIFY(from + 1 < model->count());
    const QString wanted = model->itemData(from + 1).toString();
    chooseByPopup(model, 1);
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QCOMPARE(QString::fromStdString(m_window->document()->design().device("gpu0")->model), wanted);
    QCOMPARE(m_window->document()->undoStack()->count(), 1);
    // The Inspector shows the new model, in the same (living) editor or a new one.
    auto *shown = editor<QComboBox>("model");
    QVERIFY(shown);
    QCOMPARE(shown->currentData().toString(), wanted);
    // Undo through the keyboard puts the old model back and the Inspector follows.
    m_window->document()->undoStack()->undo();
    QTRY_COMPARE(editor<QComboBox>("model")->currentIndex(), from);
}

void TestInspector::modelComboByKeys()
{
    clickItem("gpu1");
    auto *model = editor<QComboBox>("model");
    QVERIFY(model);
    const QString before = model->currentData().toString();
    model->setFocus();
    QTest::keyClick(model, Qt::Key_Down); // changes the choice and activates it, no popup
    QTest::keyClick(model, Qt::Key_Down);
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    const std::string now = m_window->document()->design().device("gpu1")->model;
    QVERIFY(QString::fromStdString(now) != before);
    QCOMPARE(QString::fromStdString(now), editor<QComboBox>("model")->currentData().toString());
    QCOMPARE(m_window->document()->undoStack()->count(), 2);
}

void TestInspector::hostComboComposes()
{
    // gpu10 belongs to host D, the last entry; one up is host C.
    clickItem("gpu10");
    auto *host = editor<QComboBox>("host");
    QVERIFY(host);
    QCOMPARE(host->currentData().toString(), QStringLiteral("hostD"));
    QTest::mouseClick(host, Qt::LeftButton);
    QTRY_VERIFY(host->view()->isVisible());
    QTest::keyClick(host->view(), Qt::Key_Up);
    QTest::keyClick(host->view(), Qt::Key_Return);
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    const design::Design &d = m_window->document()->design();
    bool inC = false;
    for (const design::System &s : d.systems)
        if (s.host == "hostC")
            inC = std::find(s.devices.begin(), s.devices.end(), "gpu10") != s.devices.end();
    QVERIFY(inC);
    QCOMPARE(editor<QComboBox>("host")->currentData().toString(), QStringLiteral("hostC"));
    // Back to the pool: the first entry.
    auto *again = editor<QComboBox>("host");
    QTest::mouseClick(again, Qt::LeftButton);
    QTRY_VERIFY(again->view()->isVisible());
    QTest::keyClick(again->view(), Qt::Key_Home);
    QTest::keyClick(again->view(), Qt::Key_Return);
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    for (const design::System &s : m_window->document()->design().systems)
        QVERIFY(std::find(s.devices.begin(), s.devices.end(), "gpu10") == s.devices.end());
}

void TestInspector::chassisAndSlot()
{
    Document *doc = m_window->document();
    clickItem("nvme0");
    auto *slot = editor<QSpinBox>("slot");
    QVERIFY(slot);
    const int occupied = slot->value();
    // Typed into the slot box: the device moves there (a slot used twice is the design rules'
    // finding, not the editor's business), and the editor shows what the document holds.
    clickItem("gpu0");
    slot = editor<QSpinBox>("slot");
    QCOMPARE(slot->value(), 0);
    typeInto(slot, QString::number(occupied));
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QCOMPARE(doc->design().device("gpu0")->slot, occupied);
    QCOMPARE(editor<QSpinBox>("slot")->value(), occupied);
    doc->undoStack()->undo();
    QCOMPARE(doc->design().device("gpu0")->slot, 0);
    QTRY_COMPARE(editor<QSpinBox>("slot")->value(), 0);
    // Out of the chassis by the chassis combo box: the device becomes linked directly.
    auto *chassis = editor<QComboBox>("chassis");
    QVERIFY(chassis);
    QTest::mouseClick(chassis, Qt::LeftButton);
    QTRY_VERIFY(chassis->view()->isVisible());
    QTest::keyClick(chassis->view(), Qt::Key_Home);
    QTest::keyClick(chassis->view(), Qt::Key_Return);
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QCOMPARE(doc->design().device("gpu0")->chassis, std::string());
    QCOMPARE(editor<QComboBox>("chassis")->currentIndex(), 0);
    doc->undoStack()->undo();
    QCOMPARE(doc->design().device("gpu0")->chassis, std::string("pool"));
    QTRY_COMPARE(editor<QComboBox>("chassis")->currentData().toString(), QStringLiteral("pool"));
}

void TestInspector::renameByTyping()
{
    clickItem("gpu2");
    auto *name = editor<QLineEdit>("name");
    QVERIFY(name);
    typeInto(name, QStringLiteral("Third A100"));
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QCOMPARE(m_window->document()->design().device("gpu2")->name, std::string("Third A100"));
    QCOMPARE(editor<QLineEdit>("name")->text(), QStringLiteral("Third A100"));
    QCOMPARE(m_window->document()->undoStack()->count(), 1);
    // Return again with nothing changed adds no step.
    QTest::keyClick(editor<QLineEdit>("name"), Qt::Key_Return);
    QCOMPARE(m_window->document()->undoStack()->count(), 1);
    // Undo (Edit menu) while the field still has the focus: the field shows the name again, and
    // Return then does not put the undone name back.
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTRY_VERIFY(editor<QLineEdit>("name")->isVisible()); // a rebuilt row is shown by a posted event
    editor<QLineEdit>("name")->setFocus();
    QVERIFY(editor<QLineEdit>("name")->hasFocus());
    m_window->document()->undoStack()->undo();
    QCOMPARE(editor<QLineEdit>("name")->text(), QString());
    QCOMPARE(m_window->canvasScene()->node("gpu2")->look().title, QStringLiteral("gpu2"));
    QTest::keyClick(editor<QLineEdit>("name"), Qt::Key_Return);
    QCOMPARE(m_window->document()->design().device("gpu2")->name, std::string());
}

void TestInspector::systemRename()
{
    clickItem("hostA");
    auto *system = editor<QLineEdit>("system");
    QVERIFY(system);
    typeInto(system, QStringLiteral("Renamed A"));
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QVERIFY(m_window->document()->design().system("Renamed A"));
    QCOMPARE(editor<QLineEdit>("system")->text(), QStringLiteral("Renamed A"));
}

void TestInspector::linkKindAndCount()
{
    Document *doc = m_window->document();
    clickLink("link1");
    auto *kind = editor<QComboBox>("kind");
    auto *count = editor<QSpinBox>("count");
    QVERIFY(kind && count);
    const design::Link before = doc->design().links[0];
    const int at = kind->currentIndex();
    chooseByPopup(kind, at + 1 < kind->count() ? 1 : 0);
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QVERIFY(doc->design().links[0].kind != before.kind);
    QCOMPARE(QString::fromStdString(doc->design().links[0].kind),
             editor<QComboBox>("kind")->currentData().toString());
    typeInto(editor<QSpinBox>("count"), QStringLiteral("2"));
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QCOMPARE(doc->design().links[0].count, 2);
    QCOMPARE(editor<QSpinBox>("count")->value(), 2);
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    QVERIFY(doc->design().links[0] == before);
    QTRY_COMPARE(editor<QSpinBox>("count")->value(), before.count);
}

void TestInspector::designInfo()
{
    // A click on empty canvas shows the design.
    views::CanvasView *view = m_window->canvasView();
    const QPointF empty = m_window->canvasScene()->itemsBoundingRect().topLeft() - QPointF(30, 30);
    view->centerOn(empty);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, view->mapFromScene(empty));
    QVERIFY(m_window->canvasScene()->selectedIds().empty());
    auto *name = editor<QLineEdit>("designName");
    QVERIFY(name);
    typeInto(name, QStringLiteral("My testbed"));
    QTRY_VERIFY(!m_window->inspector()->rebuildPending());
    QCOMPARE(m_window->document()->design().name, std::string("My testbed"));
    typeInto(editor<QLineEdit>("description"), QStringLiteral("Edited"));
    QCOMPARE(m_window->document()->design().description, std::string("Edited"));
    QCOMPARE(m_window->document()->undoStack()->count(), 2);
}

QTEST_MAIN(TestInspector)
#include "tst_inspector.moc"
