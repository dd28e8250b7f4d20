#include "document.h"

#include "design/edit.h"

#include <QFileInfo>

namespace clab {

Document::Document(QObject *parent)
    : QObject(parent)
{
    connect(&m_undoStack, &QUndoStack::cleanChanged, this, &Document::fileChanged);
}

Document::~Document()
{
    // ~QUndoStack clears the stack and emits cleanChanged, which would reach the window's title
    // through fileChanged after this document's strings, and the window around it, are gone
    // (heap-use-after-free under ASan in tst_canvas).
    m_undoStack.blockSignals(true);
}

QString Document::displayName() const
{
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    return m_displayName.isEmpty() ? tr("Untitled") : m_displayName;
}

void Document::load(const QString &path)
{
    design::Design loaded = design::loadDesign(path.toStdString()); // throws, keeping ours
    m_design = std::move(loaded);
    m_filePath = path;
    m_displayName.clear();
    m_undoStack.clear();
    Q_EMIT fileChanged();
    Q_EMIT changed(Change{});
}

void Document::loadText(std::string_view text, const QString &displayName)
{
    design::Design loaded = design::readDesign(text, displayName.toStdString());
    design::registerParts(loaded, displayName.toStdString());
    m_design = std::move(loaded);
    m_filePath.clear();
    m_displayName = displayName;
    m_undoStack.clear();
    Q_EMIT fileChanged();
    Q_EMIT changed(Change{});
}

void Document::loadRecovered(std::string_view text, const QString &origin,
                             const QString &displayName)
{
    design::Design loaded = design::readDesign(text, displayName.toStdString());
    design::registerParts(loaded, displayName.toStdString());
    m_design = std::move(loaded);
    m_filePath = origin;
    m_displayName = displayName;
    m_undoStack.clear();
    m_undoStack.resetClean(); // unsaved work until the user saves it
    Q_EMIT fileChanged();
    Q_EMIT changed(Change{});
}

void Document::save(const QString &path)
{
    // The file carries the definitions of the user parts it uses, so it opens anywhere.
    design::saveDesign(design::withUserParts(m_design), path.toStdString());
    m_filePath = path;
    m_undoStack.setClean();
    Q_EMIT fileChanged();
}

void Document::setDesign(design::Design design)
{
    design::assignLinkIds(design); // a design built in code: commands find links by id
    m_design = std::move(design);
    Q_EMIT changed(Change{});
}

void Document::apply(const std::function<void(design::Design &)> &edit, const Change &change)
{
    edit(m_design);
    if (!m_quiet)
        announce(change);
}

bool Document::applyChecked(const std::function<bool(design::Design &)> &edit,
                            const std::function<void(design::Design &)> &revert,
                            const Change &change)
{
    if (!edit(m_design))
        return false;
    if (const std::string problem = design::limitProblem(m_design); !problem.empty()) {
        revert(m_design);
        Q_EMIT refused(QString::fromStdString(problem));
        return false;
    }
    if (!m_quiet)
        announce(change);
    return true;
}

bool Document::wouldStand(QUndoCommand *command)
{
    m_quiet = true;
    command->redo();
    const bool stood = !command->isObsolete();
    if (stood)
        command->undo();
    m_quiet = false;
    return stood;
}

void Document::announce(const Change &change)
{
    ++m_announced;
    Q_EMIT changed(change);
}

bool Document::push(QUndoCommand *command)
{
    if (m_undoStack.canRedo() && !wouldStand(command)) {
        delete command;
        return false;
    }
    const unsigned long before = m_announced;
    m_undoStack.push(command); // may delete it: a refusal, or a merge into the step before
    return m_announced != before;
}

} // namespace clab
