#include "mainwindow.h"
#include "views/canvas/canvasscene.h"
#include "views/inspector/inspectorwidget.h"
#include "views/palette/palettewidget.h"
#include "views/palette/partdialog.h"

#include "catalog/catalog.h"
#include "util/fileio.h"

#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace clab;

// "Duplicate and Edit…" as a person uses it: right-click a GPU in the palette, choose the menu
// entry, type into the form, press the button; a wrong value keeps the form open and names the
// field; the new part appears under My Parts, in the Inspector's model list, and inside the
// design file that uses it.
class TestPartDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void duplicateEditUse();

private:
    QTemporaryDir m_home;
};

void TestPartDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_home.path());
    // The user's catalog folder lives under $XDG_DATA_HOME: keep the real one untouched.
    qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
}

namespace {

QTreeWidgetItem *partItem(views::PaletteWidget *palette, const QString &id)
{
    const QList<QTreeWidgetItem *> all
        = palette->tree()->findItems(QStringLiteral("*"), Qt::MatchWildcard | Qt::MatchRecursive);
    for (QTreeWidgetItem *i : all)
        if (i->toolTip(0).startsWith(id + QLatin1Char('\n')))
            return i;
    return nullptr;
}

void typeInto(QWidget *field, const QString &text)
{
    field->setFocus();
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(field, text);
}

} // namespace

void TestPartDialog::duplicateEditUse()
{
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    views::PaletteWidget *palette = w.palette();
    QTreeWidgetItem *a100 = partItem(palette, QStringLiteral("A100-PCIe-40GB"));
    QVERIFY(a100);
    palette->tree()->scrollToItem(a100);
    const QPoint at = palette->tree()->visualItemRect(a100).center();

    QString problemSeen;
    bool dialogSeen = false;
    // Once the context menu is up: choose its entry by keyboard. Once the form is up: a wrong
    // bandwidth first (the form must stay and say where), then a right one.
    QTimer::singleShot(0, this, [&] {
        QTRY_VERIFY(qobject_cast<QMenu *>(QApplication::activePopupWidget()));
        QMenu *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        QTimer::singleShot(0, this, [&] {
            QTRY_VERIFY(qobject_cast<views::PartDialog *>(QApplication::activeModalWidget()));
            auto *dialog = qobject_cast<views::PartDialog *>(QApplication::activeModalWidget());
            dialogSeen = true;
            auto *bandwidth
                = qobject_cast<QLineEdit *>(dialog->field(QStringLiteral("/memBwGBps")));
            auto *measured
                = qobject_cast<QLineEdit *>(dialog->field(QStringLiteral("/achieved/memBwGBps")));
            auto *id = qobject_cast<QLineEdit *>(dialog->field(QStringLiteral("/id")));
            QVERIFY(bandwidth && measured && id);
            typeInto(id, QStringLiteral("A100-PCIe-2xHBM"));
            typeInto(bandwidth, QStringLiteral("-1"));
            QPushButton *ok = nullptr;
            for (QPushButton *b : dialog->findChildren<QPushButton *>())
                if (b->text().contains(QLatin1String("My Parts")))
                    ok = b;
            QVERIFY(ok);
            QTest::mouseClick(ok, Qt::LeftButton);
            QVERIFY(dialog->isVisible()); // refused, still open
            problemSeen = dialog->problem();
            typeInto(bandwidth, QStringLiteral("3110"));
            typeInto(measured, QStringLiteral("2600"));
            QTest::mouseClick(ok, Qt::LeftButton);
        });
        QTest::keyClick(menu, Qt::Key_Down);
        QTest::keyClick(menu, Qt::Key_Return);
    });
    // A right click: the press, and the context-menu event the window system makes of it.
    QWidget *viewport = palette->tree()->viewport();
    QTest::mousePress(viewport, Qt::RightButton, Qt::NoModifier, at);
    QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, at, viewport->mapToGlobal(at));
    QApplication::sendEvent(viewport, &menuEvent);
    // The menu ran its loop inside the event; the menu entry ran the form's.
    QVERIFY(dialogSeen);
    QVERIFY2(problemSeen.contains(QLatin1String("/gpus/0/memBwGBps")), qPrintable(problemSeen));

    // In the catalog, in the folder, under My Parts.
    const catalog::Gpu *g = catalog::Catalog::builtin().gpu("A100-PCIe-2xHBM");
    QVERIFY(g);
    QVERIFY(g->user);
    QCOMPARE(g->memBwGBps, 3110.0);
    QCOMPARE(*g->achieved.memBwGBps, 2600.0);
    QVERIFY(QFileInfo::exists(
        m_home.filePath(QStringLiteral("ComposeLab/catalog/A100-PCIe-2xHBM.json"))));
    QTreeWidgetItem *mine = partItem(palette, QStringLiteral("A100-PCIe-2xHBM"));
    QVERIFY(mine);
    QCOMPARE(mine->parent()->text(0), QStringLiteral("My parts"));

    // The Inspector offers it for gpu0; choosing it makes the design use it.
    w.canvasScene()->selectIds({"gpu0"});
    auto *model = qobject_cast<QComboBox *>(w.inspector()->editor(QStringLiteral("model")));
    QVERIFY(model);
    const int index = model->findData(QStringLiteral("A100-PCIe-2xHBM"));
    QVERIFY(index >= 0);
    model->setFocus();
    while (model->currentIndex() != index)
        QTest::keyClick(model, model->currentIndex() < index ? Qt::Key_Down : Qt::Key_Up);
    QTRY_COMPARE(w.document()->design().device("gpu0")->model, std::string("A100-PCIe-2xHBM"));

    // Saved, the design carries the part's definition.
    const QString path = m_home.filePath(QStringLiteral("uses-my-part.clab"));
    w.document()->save(path);
    const std::string text = readTextFile(path.toStdString());
    QVERIFY(text.find("\"parts\"") != std::string::npos);
    QVERIFY(text.find("A100-PCIe-2xHBM") != std::string::npos);
}

QTEST_MAIN(TestPartDialog)
#include "tst_partdialog.moc"
