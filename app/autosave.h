#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

namespace clab {

class Document;

// What a recovery file holds: the design text and where it came from.
struct Recovery
{
    QString path;   // the recovery file itself
    QString origin; // the design's file, or empty for an unsaved design
    QString name;   // its display name
    QDateTime savedAt;
    QByteArray design; // .clab text
};

// Autosave: while the document has unsaved changes, its design is written to a recovery file
// every `interval` (atomically) so that a crash loses at most that much work. Saving, reverting
// to clean or closing normally deletes the file; one left behind at start-up means ComposeLab
// did not close normally, and MainWindow offers to recover it.
class Autosave : public QObject
{
    Q_OBJECT

public:
    explicit Autosave(Document *document, QObject *parent = nullptr);
    ~Autosave() override;

    static QString recoveryDirectory();
    // Recovery files left by earlier sessions (not this one's), newest first. Unreadable ones
    // are skipped and reported in `problems`.
    static QList<Recovery> pending(QStringList *problems = nullptr);
    static Recovery read(const QString &path, QString *error);

    QString recoveryPath() const { return m_path; }
    void setInterval(int milliseconds);
    // Writes the recovery file now if the document has changes it does not hold yet.
    bool saveNow();
    // Deletes this session's recovery file.
    void discard();

private:
    Document *m_document;
    QTimer m_timer;
    QString m_path;
    bool m_dirty = true; // the design has changes the recovery file does not hold
};

} // namespace clab
