#include "autosave.h"
#include "document.h"
#include "mainwindow.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace clab;

// Autosave and recovery: unsaved work survives a crash, and nothing is left behind after a
// normal save or close.
class TestAutosave : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void writesOnlyUnsavedWork();
    void recoversAfterCrash();
    void savingDeletesRecoveryFile();
    void badRecoveryFileIsSkipped();

private:
    QTemporaryDir m_settings;
};

namespace {

design::Design edited(design::Design d)
{
    d.hosts.push_back({"hostE", "epyc-7742-2s", "Recovered host"});
    return d;
}

} // namespace

void TestAutosave::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
}

void TestAutosave::init()
{
    QDir(Autosave::recoveryDirectory()).removeRecursively();
}

void TestAutosave::writesOnlyUnsavedWork()
{
    Document doc;
    Autosave autosave(&doc);
    doc.loadText(design::writeDesign(design::seedTestbed()), QStringLiteral("seed.clab"));
    QVERIFY(!autosave.saveNow()); // nothing unsaved
    QVERIFY(!QFile::exists(autosave.recoveryPath()));
    // A modification, as a command would make it.
    doc.undoStack()->resetClean();
    doc.setDesign(edited(doc.design()));
    QVERIFY(autosave.saveNow());
    QVERIFY(QFile::exists(autosave.recoveryPath()));
    QVERIFY(!autosave.saveNow()); // nothing new since
    QString error;
    const Recovery r = Autosave::read(autosave.recoveryPath(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(design::readDesign(r.design.toStdString(), "r") == doc.design());
    QCOMPARE(r.name, QStringLiteral("seed.clab"));
}

void TestAutosave::recoversAfterCrash()
{
    QTemporaryDir dir;
    const QString origin = dir.filePath(QStringLiteral("mine.clab"));
    design::saveDesign(design::seedTestbed(), origin.toStdString());
    const QByteArray onDisk = [&] {
        QFile f(origin);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();
    // A session that "crashes": its recovery file stays (as if the process died), written with
    // another process id so that this process sees it as a previous session's.
    QString leftBehind;
    {
        Document doc;
        doc.load(origin);
        doc.undoStack()->resetClean();
        doc.setDesign(edited(doc.design()));
        auto *autosave = new Autosave(&doc);
        QVERIFY(autosave->saveNow());
        leftBehind = QDir(Autosave::recoveryDirectory())
                         .filePath(QStringLiteral("1-crashed.clabrecovery"));
        QVERIFY(QFile::copy(autosave->recoveryPath(), leftBehind));
        delete autosave; // its own file goes; the copy plays the crashed session's
    }
    const QList<Recovery> pending = Autosave::pending();
    QCOMPARE(pending.size(), 1);
    QCOMPARE(pending.front().origin, origin);

    MainWindow w;
    QVERIFY(w.recover(pending.front()));
    QVERIFY(w.document()->design() == edited(design::seedTestbed()));
    QVERIFY(w.document()->isModified()); // unsaved work until saved
    QCOMPARE(w.document()->filePath(), origin);
    QVERIFY(!QFile::exists(leftBehind)); // taken
    QVERIFY(Autosave::pending().isEmpty());
    // The user's file was never touched by autosave.
    QFile f(origin);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), onDisk);
}

void TestAutosave::savingDeletesRecoveryFile()
{
    QTemporaryDir dir;
    Document doc;
    Autosave autosave(&doc);
    doc.loadText(design::writeDesign(design::seedTestbed()), QStringLiteral("seed.clab"));
    doc.undoStack()->resetClean();
    doc.setDesign(edited(doc.design()));
    QVERIFY(autosave.saveNow());
    doc.save(dir.filePath(QStringLiteral("saved.clab")));
    QVERIFY(!QFile::exists(autosave.recoveryPath()));
}

void TestAutosave::badRecoveryFileIsSkipped()
{
    QDir().mkpath(Autosave::recoveryDirectory());
    QFile junk(QDir(Autosave::recoveryDirectory()).filePath(QStringLiteral("2-junk.clabrecovery")));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("{ not json");
    junk.close();
    QStringList problems;
    QVERIFY(Autosave::pending(&problems).isEmpty());
    QCOMPARE(problems.size(), 1);
    QVERIFY(problems.front().contains(QLatin1String("2-junk.clabrecovery")));
    // A recovery file whose design is malformed is refused with the reason; the window keeps
    // its document.
    MainWindow w;
    QVERIFY(w.openExample(QString::fromLatin1(design::kSeedExample)));
    Recovery r;
    r.path = junk.fileName();
    r.design = "{\"formatVersion\": 1";
    QSignalSpy errors(&w, &MainWindow::errorShown);
    QVERIFY(!w.recover(r));
    QCOMPARE(errors.count(), 1);
    QVERIFY(w.document()->design() == design::seedTestbed());
}

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
