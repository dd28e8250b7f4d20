#pragma once

#include <QWidget>

class QLineEdit;
class QTreeWidget;

namespace clab::catalog {
class Catalog;
}

namespace clab::views {

// The parts a user can drag onto the canvas, from the catalog, grouped by kind (hosts, GPUs,
// drives, NICs, switches, chassis, cables) and filtered by a search field. A drag carries the
// catalog id as kPartMimeType; double-click asks to add the part at the canvas' centre.
class PaletteWidget : public QWidget
{
    Q_OBJECT

public:
    explicit PaletteWidget(const catalog::Catalog &catalog, QWidget *parent = nullptr);

    void setFilter(const QString &text);
    // Catalog ids of the entries the filter leaves visible, in order.
    QStringList visibleParts() const;
    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    void partActivated(const QString &model);

private:
    QLineEdit *m_search;
    QTreeWidget *m_tree;
};

} // namespace clab::views
