#pragma once

#include <QWidget>

class QLineEdit;
class QTreeWidget;

namespace clab::catalog {
class Catalog;
}

namespace clab::views {

// The parts a user can drag onto the canvas, from the program's catalog, grouped by kind (hosts,
// GPUs, drives, NICs, switches, chassis, cables; the user's own under "My parts") and filtered by
// a search field. A drag carries the catalog id as kPartMimeType; double-click asks to add the
// part at the canvas' centre; the context menu offers "Duplicate and Edit…".
class PaletteWidget : public QWidget
{
    Q_OBJECT

public:
    explicit PaletteWidget(QWidget *parent = nullptr);

    // Rebuilds the tree from the catalog as it is now (after user parts were added).
    void reload();
    void setFilter(const QString &text);
    // Catalog ids of the entries the filter leaves visible, in order.
    QStringList visibleParts() const;
    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    void partActivated(const QString &model);
    void duplicateRequested(const QString &model);

private:
    QLineEdit *m_search;
    QTreeWidget *m_tree;
};

} // namespace clab::views
