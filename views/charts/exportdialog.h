#pragma once

#include "views/charts/chartexport.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace clab::views {

// What an exported chart looks like: its size (as on screen, or a page size in inches,
// centimetres or pixels), the resolution of a PNG, and paper or slides text. The choices are
// remembered for the next export.
class ChartExportDialog : public QDialog
{
    Q_OBJECT

public:
    // `raster`: the file is a PNG, so the resolution applies.
    ChartExportDialog(bool raster, QSize shown, QWidget *parent = nullptr);

    ExportLayout layout() const;
    int dpi() const;
    void remember() const; // keeps the choices in QSettings

    QCheckBox *asShown() const { return m_asShown; }
    QDoubleSpinBox *widthBox() const { return m_width; }
    QDoubleSpinBox *heightBox() const { return m_height; }
    QComboBox *unitBox() const { return m_unit; }
    QComboBox *styleBox() const { return m_style; }
    QSpinBox *dpiBox() const { return m_dpi; }

private:
    QSize m_shown;
    QCheckBox *m_asShown;
    QDoubleSpinBox *m_width;
    QDoubleSpinBox *m_height;
    QComboBox *m_unit;
    QComboBox *m_style;
    QSpinBox *m_dpi;
};

} // namespace clab::views
