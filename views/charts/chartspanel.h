#pragma once

#include "charts/chartdata.h"
#include "views/charts/chartexport.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;

namespace clab::views {

class ChartWidget;

// A chart of the experiment store in the window: the kind to draw, and the runs the experiments
// browser has selected (all runs when none is). The numbers come from model/charts.
class ChartsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget *parent = nullptr);

    void setStorePath(const QString &path);
    void setRunIds(const std::vector<std::int64_t> &ids);
    void setKind(charts::ChartKind kind);
    void reload();
    ChartWidget *chart() const { return m_chart; }
    QString message() const;
    // PNG (at `dpi`), PDF or SVG by the extension, laid out at `layout`; false with the reason
    // in `error`.
    bool exportTo(const QString &path, int dpi, const ExportLayout &layout, QString *error);

private:
    QString m_storePath;
    std::vector<std::int64_t> m_runIds;
    QComboBox *m_kind;
    QLabel *m_message;
    ChartWidget *m_chart;
};

} // namespace clab::views
