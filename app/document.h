#pragma once

#include "design/design.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <functional>

namespace clab {

// What an edit changed, so that listeners redo only what depends on it.
enum class Change {
    Layout, // canvas positions only: nothing the rules, the fabric or the model read
    Design, // anything else (composition, parts, links, names, systems, design information)
};

// Owns the open design, its file name and the undo stack, and announces every change through
// one signal that says whether the edit was only a move on the canvas. Views never hold the
// design; they ask the document.
class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    const design::Design &design() const { return m_design; }
    QUndoStack *undoStack() { return &m_undoStack; }
    QString filePath() const { return m_filePath; }
    QString displayName() const;
    bool isModified() const { return !m_undoStack.isClean(); }

    // Replaces the design; on a bad file throws InputError and keeps the current design.
    void load(const QString &path);
    void loadText(std::string_view text, const QString &displayName);
    // Takes a design recovered from an autosave file: it belongs to `origin` (empty for a design
    // never saved) and counts as modified, so that closing asks to save it. Throws InputError.
    void loadRecovered(std::string_view text, const QString &origin, const QString &displayName);
    // Saves atomically; throws std::runtime_error with the reason.
    void save(const QString &path);
    // For commands: replace the design without touching the undo stack.
    void setDesign(design::Design design);
    // Applies an edit in place and announces it (for commands only).
    void apply(const std::function<void(design::Design &)> &edit, Change change = Change::Design);
    // Like apply, for an edit that may find nothing to do: announces it only when it returns true
    // (an edit that returns false must leave the design untouched).
    bool applyIf(const std::function<bool(design::Design &)> &edit);

Q_SIGNALS:
    void changed(clab::Change change);
    void fileChanged();

private:
    design::Design m_design;
    QUndoStack m_undoStack;
    QString m_filePath;
    QString m_displayName;
};

} // namespace clab
