#include "autosave.h"

#include "document.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace clab {

namespace {

constexpr int kDefaultIntervalMs = 30'000;
const char *kSuffix = ".clabrecovery";

} // namespace

Autosave::Autosave(Document *document, QObject *parent)
    : QObject(parent)
    , m_document(document)
{
    // One file per running window; the process id in the name keeps two ComposeLab windows
    // from overwriting each other.
    m_path = QDir(recoveryDirectory())
                 .filePath(QStringLiteral("%1-%2%3")
                               .arg(QCoreApplication::applicationPid())
                               .arg(QUuid::createUuid().toString(QUuid::Id128).left(8))
                               .arg(QLatin1String(kSuffix)));
    m_timer.setInterval(kDefaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &Autosave::saveNow);
    connect(document, &Document::changed, this, [this] {
        m_dirty = true;
        if (m_document->isModified() && !m_timer.isActive())
            m_timer.start();
    });
    connect(document, &Document::fileChanged, this, [this] {
        if (!m_document->isModified()) {
            m_timer.stop();
            discard();
        }
    });
    m_timer.setSingleShot(true);
}

Autosave::~Autosave()
{
    discard(); // a normal close: nothing to recover
}

QString Autosave::recoveryDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
           + QStringLiteral("/recovery");
}

void Autosave::setInterval(int milliseconds)
{
    m_timer.setInterval(milliseconds);
}

bool Autosave::saveNow()
{
    if (!m_document->isModified() || !m_dirty)
        return false;
    QJsonObject o;
    o[QStringLiteral("origin")] = m_document->filePath();
    o[QStringLiteral("name")] = m_document->displayName();
    o[QStringLiteral("savedAt")] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    o[QStringLiteral("design")] = QString::fromStdString(design::writeDesign(m_document->design()));
    QDir().mkpath(recoveryDirectory());
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(QJsonDocument(o).toJson(QJsonDocument::Compact)) < 0 || !file.commit())
        return false; // autosave is a safety net: a failure must not interrupt the user
    m_dirty = false;
    return true;
}

void Autosave::discard()
{
    QFile::remove(m_path);
}

Recovery Autosave::read(const QString &path, QString *error)
{
    Recovery r;
    r.path = path;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("%1: %2").arg(path, file.errorString());
        return r;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    const QJsonObject o = doc.object();
    if (parse.error != QJsonParseError::NoError || !o.value(QStringLiteral("design")).isString()) {
        *error = QObject::tr("%1: not a ComposeLab recovery file (%2)")
                     .arg(path, parse.error != QJsonParseError::NoError
                                    ? parse.errorString()
                                    : QObject::tr("no design in it"));
        return r;
    }
    r.origin = o.value(QStringLiteral("origin")).toString();
    r.name = o.value(QStringLiteral("name")).toString();
    r.savedAt = QDateTime::fromString(o.value(QStringLiteral("savedAt")).toString(), Qt::ISODate);
    r.design = o.value(QStringLiteral("design")).toString().toUtf8();
    return r;
}

QList<Recovery> Autosave::pending(QStringList *problems)
{
    QList<Recovery> found;
    const QString prefix = QStringLiteral("%1-").arg(QCoreApplication::applicationPid());
    const QDir dir(recoveryDirectory());
    for (const QString &name :
         dir.entryList({QLatin1String("*") + QLatin1String(kSuffix)}, QDir::Files)) {
        if (name.startsWith(prefix))
            continue; // this session's own
        QString error;
        Recovery r = read(dir.filePath(name), &error);
        if (!error.isEmpty()) {
            if (problems)
                problems->append(error);
            continue;
        }
        found.append(r);
    }
    std::sort(found.begin(), found.end(),
              [](const Recovery &a, const Recovery &b) { return a.savedAt > b.savedAt; });
    return found;
}

} // namespace clab
