#include "importrunner.h"

#include "store/import.h"
#include "store/store.h"

#include <QThread>

#include <chrono>

namespace clab {

ImportRunner::ImportRunner(QObject *parent)
    : QObject(parent)
{
}

ImportRunner::~ImportRunner()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
    }
}

void ImportRunner::start(const QStringList &paths, const QString &storePath, const QString &system)
{
    if (m_thread)
        return;
    m_cancel = false;
    std::vector<std::string> files;
    for (const QString &p : paths)
        files.push_back(p.toStdString());
    const std::string db = storePath.toStdString();
    const std::string machine = system.toStdString();
    m_thread = QThread::create([this, files, db, machine] {
        // Progress arrives for every row; a tenth of a second between reports is plenty for a
        // progress bar and keeps the event queue short.
        auto last = std::chrono::steady_clock::now();
        store::ImportControl control;
        control.cancel = &m_cancel;
        // Each file is its own transaction: the good ones land, the bad ones are listed.
        control.onBadFile = store::OnBadFile::ReportEach;
        control.system = machine;
        control.progress
            = [this, &last](std::size_t done, std::size_t total, const std::string &file) {
                  const auto now = std::chrono::steady_clock::now();
                  if (now - last < std::chrono::milliseconds(100) && done < total)
                      return;
                  last = now;
                  Q_EMIT progress(int(done), int(total), QString::fromStdString(file));
              };
        // The store is closed (its log checkpointed) before anyone hears that the import ended.
        enum class Outcome { Done, Cancelled, Failed } outcome = Outcome::Done;
        QString summary;
        QString message;
        int imported = 0;
        int skipped = 0;
        int failedFiles = 0;
        try {
            store::Store s(db);
            const store::ImportReport report = store::importPaths(s, files, control);
            for (const auto &item : report.imported)
                summary
                    += QStringLiteral("imported: %1\n").arg(QString::fromStdString(item.dump()));
            for (const auto &skip : report.skipped)
                summary += QStringLiteral("skipped %1: %2\n")
                               .arg(QString::fromStdString(skip.path),
                                    QString::fromStdString(skip.reason));
            for (const auto &bad : report.failed)
                summary += QStringLiteral("failed %1: %2\n")
                               .arg(QString::fromStdString(bad.path),
                                    QString::fromStdString(bad.reason));
            imported = int(report.imported.size());
            skipped = int(report.skipped.size());
            failedFiles = int(report.failed.size());
        } catch (const store::ImportCancelled &) {
            outcome = Outcome::Cancelled;
        } catch (const std::exception &e) {
            outcome = Outcome::Failed;
            message = QString::fromStdString(e.what());
        }
        if (outcome == Outcome::Done)
            Q_EMIT finished(imported, skipped, failedFiles, summary);
        else if (outcome == Outcome::Cancelled)
            Q_EMIT cancelled();
        else
            Q_EMIT failed(message);
    });
    // A child of the runner: deleteLater() below needs the event loop, and a window closed right
    // after an import would otherwise leak the thread object (LeakSanitizer, tst_import).
    m_thread->setParent(this);
    connect(m_thread, &QThread::finished, this, [this] {
        m_thread->deleteLater();
        m_thread = nullptr;
    });
    m_thread->start();
}

} // namespace clab
