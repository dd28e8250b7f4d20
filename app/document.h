#pragma once

#include "design/design.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <functional>
#include <string>
#include <vector>

namespace clab {

// What an edit changed, so that listeners redo only what depends on it: one or more kinds and
// the ids of the parts, links or systems it touched.
struct Change
{
    enum Kind : unsigned {
        Layout = 1u << 0,      // canvas positions: nothing the rules, the fabric or the model read
        Names = 1u << 1,       // display names of parts (the fabric and the model go by id)
        Composition = 1u << 2, // parts added or removed, a device's host, chassis or slot
        Links = 1u << 3,       // links added, removed or edited
        Models = 1u << 4,      // the catalog model of a part
        Systems = 1u << 5,     // systems' names, hosts and devices
        DesignInfo = 1u << 6,  // the design's own name and description
        Everything = (1u << 7) - 1,
    };

    unsigned kinds = Everything;
    // Part ids, link ids or system names; empty when the change does not say (a whole design).
    std::vector<std::string> ids;

    static Change of(unsigned kinds, std::vector<std::string> ids = {})
    {
        return {kinds, std::move(ids)};
    }
    // True when the change is of these kinds and no other.
    bool only(unsigned allowed) const { return kinds != 0 && (kinds & ~allowed) == 0; }
    bool has(unsigned kind) const { return (kinds & kind) != 0; }
    bool operator==(const Change &) const = default;
};

// Owns the open design, its file name and the undo stack, and announces every change with what
// it changed. Views never hold the design; they ask the document.
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
    void apply(const std::function<void(design::Design &)> &edit, const Change &change);
    // For a command's redo, every one of them: applies an edit (false: nothing to do, the design
    // untouched), then checks that the design can still be saved and opened again
    // (design::limitProblem). When it cannot, `revert` undoes the edit, `refused` says why, and
    // nothing is announced. Returns whether the edit stands. Undo needs no check: it goes back.
    bool applyChecked(const std::function<bool(design::Design &)> &edit,
                      const std::function<void(design::Design &)> &revert, const Change &change);
    // Pushes a command onto the undo stack; returns whether it stood (false: refused or nothing
    // to do, and the stack is as it was). QUndoStack::push drops the redo history before it sees
    // that a command came to nothing, so while there is redo history the command is first tried
    // and taken back without announcing anything.
    bool push(QUndoCommand *command);
    // Runs a command and takes it back without announcing anything (a refusal is still said):
    // whether it would stand. For a step made of several commands (a macro drops the redo
    // history as soon as it begins).
    bool wouldStand(QUndoCommand *command);

Q_SIGNALS:
    void changed(const clab::Change &change);
    void fileChanged();
    void refused(const QString &problem);

private:
    design::Design m_design;
    QUndoStack m_undoStack;
    QString m_filePath;
    QString m_displayName;
    bool m_quiet = false;          // a trial in push(): edits announce nothing
    unsigned long m_announced = 0; // edits announced, so push() can tell whether one stood
    void announce(const Change &change);
};

} // namespace clab
