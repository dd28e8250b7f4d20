// Kill during save: `composelab upgrade` writes a 4.5 MB design over an existing file again and
// again and is SIGKILLed at different moments (while the temporary file fills, once it is full,
// after a delay that may fall before or after the save). Each time the target must hold exactly
// the old or the new content, and the next save must work and leave no temporary file behind.
// Two saves of one file at the same time must also leave one of the two whole.
#include "design/design.h"
#include "design/examples.h"

#include <QtTest>

#include <QElapsedTimer>
#include <QProcess>
#include <QThread>

using namespace clab;

namespace {

QByteArray readBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeBytes(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(data), data.size());
}

QByteArray canonical(int devices)
{
    const std::string text = design::writeDesign(design::generatePool(devices));
    return QByteArray(text.data(), qsizetype(text.size()));
}

void startUpgrade(QProcess &p, const QString &from, const QString &to)
{
    p.setProgram(QStringLiteral(CLAB_BINARY));
    p.setArguments({QStringLiteral("upgrade"), from, QStringLiteral("--out"), to});
    p.start();
    QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
}

} // namespace

class TestKillSave : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_a, m_b, m_target, m_temp;
    QByteArray m_textA, m_textB;

    // Polls (no fixed sleep decides anything) until `ready` holds or the process ends; kills it
    // if it is still running then. Returns whether the kill landed on a running process.
    template<typename Ready>
    bool killWhen(QProcess &p, Ready ready)
    {
        QElapsedTimer clock;
        clock.start();
        while (p.state() == QProcess::Running && !ready(clock.elapsed())) {
            if (clock.elapsed() > 60000)
                return false;
            QThread::usleep(200);
        }
        if (p.state() != QProcess::Running)
            return false;
        p.kill();
        p.waitForFinished(10000);
        return p.exitStatus() == QProcess::CrashExit;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral(CLAB_BINARY)), CLAB_BINARY " is not built");
        m_a = m_dir.filePath(QStringLiteral("a.clab"));
        m_b = m_dir.filePath(QStringLiteral("b.clab"));
        m_target = m_dir.filePath(QStringLiteral("target.clab"));
        m_temp = m_target + QStringLiteral(".saving");
        // Two canonical designs of about 4.5 MB that differ, so old and new can be told apart.
        m_textA = canonical(20000);
        m_textB = canonical(20001);
        QVERIFY(m_textA != m_textB);
        writeBytes(m_a, m_textA);
        writeBytes(m_b, m_textB);
    }

    void killAtDifferentMoments()
    {
        writeBytes(m_target, m_textA);
        int killedWhileWriting = 0;
        int killedWhenWritten = 0;
        for (int round = 0; round < 12; ++round) {
            const QByteArray old = readBytes(m_target);
            const bool toB = old == m_textA;
            const QByteArray &next = toB ? m_textB : m_textA;
            QProcess p;
            startUpgrade(p, toB ? m_b : m_a, m_target);
            bool killed = false;
            switch (round % 4) {
            case 0: // as soon as the temporary file exists: in the middle of writing it
                killed = killWhen(p, [&](qint64) { return QFile::exists(m_temp); });
                killedWhileWriting += killed;
                break;
            case 1: // once the temporary file is complete: before or during fsync and rename
                killed
                    = killWhen(p, [&](qint64) { return QFileInfo(m_temp).size() == next.size(); });
                killedWhenWritten += killed;
                break;
            case 2: // after a delay that falls anywhere from reading the source to renaming
                killed = killWhen(p, [&](qint64 ms) { return ms >= 40 * (round + 1); });
                break;
            default: // not killed
                QVERIFY(p.waitForFinished(60000));
                QCOMPARE(p.exitCode(), 0);
                break;
            }
            const QByteArray now = readBytes(m_target);
            QVERIFY2(now == old || now == next,
                     qPrintable(QStringLiteral("round %1: the target holds %2 bytes, neither the "
                                               "old (%3) nor the new (%4) content")
                                    .arg(round)
                                    .arg(now.size())
                                    .arg(old.size())
                                    .arg(next.size())));
            if (!killed)
                QCOMPARE(now, next);
        }
        // At least one kill landed while the temporary file existed (the others may have come
        // too early or too late on a busy machine): the checks saw a torn save and its survival.
        QVERIFY(killedWhileWriting + killedWhenWritten > 0);
        // A save after all this works, takes over whatever temporary file a kill left, and
        // leaves none.
        QProcess p;
        startUpgrade(p, m_b, m_target);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(readBytes(m_target), m_textB);
        QVERIFY(!QFile::exists(m_temp));
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden),
                 (QStringList{QStringLiteral("a.clab"), QStringLiteral("b.clab"),
                              QStringLiteral("target.clab")}));
    }

    void twoSavesAtOnceLeaveOneWhole()
    {
        // Both write through the same temporary name; without the lock on it one would truncate
        // and overwrite the other's half-written file, and the rename could publish a mix.
        for (int round = 0; round < 4; ++round) {
            QProcess first, second;
            startUpgrade(first, m_a, m_target);
            startUpgrade(second, m_b, m_target);
            QVERIFY(first.waitForFinished(60000));
            QVERIFY(second.waitForFinished(60000));
            QCOMPARE(first.exitCode(), 0);
            QCOMPARE(second.exitCode(), 0);
            const QByteArray now = readBytes(m_target);
            QVERIFY2(now == m_textA || now == m_textB, qPrintable(QString::number(now.size())));
            QVERIFY(!QFile::exists(m_temp));
        }
    }
};

QTEST_GUILESS_MAIN(TestKillSave)
#include "tst_killsave.moc"
