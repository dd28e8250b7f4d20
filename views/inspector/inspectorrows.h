#pragma once

#include <QString>

#include <functional>
#include <utility>
#include <vector>

namespace clab::views {

// One row of the Inspector's form, as a value: what it shows and what a commit does. The
// Inspector compares the rows it shows with the rows of the next refresh; when they have the same
// shape (labels, editor kinds, names, choices) it only sets the values, so no editor dies while
// one of its own signals runs.
struct InspectorRow
{
    enum class Editor { Text, Heading, Line, Combo, Spin };

    QString label; // form label; empty for a row that spans the form
    QString name;  // the editor's objectName ("name", "model", ...); empty for text rows
    Editor editor = Editor::Text;
    QString text;                                     // Text, Heading, Line
    std::vector<std::pair<QString, QString>> choices; // Combo: shown text, data
    QString current;                                  // Combo: data of the current choice
    int value = 0, minimum = 0, maximum = 0;          // Spin
    QString specialValueText;                         // Spin: shown for the minimum
    // Runs when the user commits the editor (Return, focus out, a choice): reads the editors'
    // values through the Inspector and asks for a command.
    std::function<void()> commit;

    // Same editor in the same place with the same choices: the values may be set in place.
    bool sameShape(const InspectorRow &other) const
    {
        return label == other.label && name == other.name && editor == other.editor
               && choices == other.choices && minimum == other.minimum && maximum == other.maximum
               && specialValueText == other.specialValueText;
    }
};

} // namespace clab::views
