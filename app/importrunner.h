#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>

class QThread;

namespace clab {

// Runs an import into the experiment store on a worker thread, so the window never freezes, and
// reports progress; cancel() stops it between rows and the store is left as it was.
class ImportRunner : public QObject
{
    Q_OBJECT

public:
    explicit ImportRunner(QObject *parent = nullptr);
    ~ImportRunner() override;

    // `system`: the machine tool outputs were taken on (store::ImportControl::system), or none.
    void start(const QStringList &paths, const QString &storePath, const QString &system = {});
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_thread != nullptr; }

Q_SIGNALS:
    void progress(int done, int total, const QString &file);
    // failed: files that were malformed and left out (the others were imported); summary: one
    // line per imported item, per skipped and per failed file with its reason and place
    void finished(int imported, int skipped, int failed, const QString &summary);
    void failed(const QString &message);
    void cancelled();

private:
    QThread *m_thread = nullptr;
    std::atomic<bool> m_cancel = false;
};

} // namespace clab
