#pragma once

#include "charts/chartdata.h"

#include "views/charts/qcp.h"

namespace clab::views {

// Draws one charts::ChartData and nothing else: every number comes from model/charts
// (STYLE.md §11). Bars for category charts (side by side, or stacked), points and lines for x/y
// charts, a colour map with a colour scale for heat maps. Okabe-Ito colours on a light background
// so that the charts read for colour-blind readers and in print.
class ChartWidget : public QCustomPlot
{
    Q_OBJECT

public:
    explicit ChartWidget(QWidget *parent = nullptr);

    void setChart(const charts::ChartData &chart);
    const charts::ChartData &chart() const { return m_chart; }

    // What setChart made, for tests: bars per series, graphs per series, the colour map.
    int barCount() const { return int(m_bars.size()); }
    QCPColorMap *colorMap() const { return m_colorMap; }
    QCPColorScale *colorScale() const { return m_colorScale; }
    QStringList legendNames() const;

    // The height a chart needs to show every category label apart (560 unless bars lie flat).
    static int preferredHeight(const charts::ChartData &chart);
    // Category labels longer than this (pixels) lose their middle to "…".
    static constexpr int kMaxLabelWidth = 300;
    // A legend of more entries goes beside the plot instead of into a corner of it.
    static constexpr int kMaxLegendInside = 6;
    bool legendOutside() const { return m_legendOutside; }

    // The Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), black last.
    static QColor paletteColor(int index);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitTitle(int width); // wrapped, never cut
    void placeLegend(bool outside);
    void clearChart();
    void drawBars();
    void drawLines();
    void drawHeatmap();
    void useCategoryTicks(QCPAxis *axis, const std::vector<std::string> &labels);
    void useLogTicks(QCPAxis *axis);

    charts::ChartData m_chart;
    QCPTextElement *m_title = nullptr;
    std::vector<QCPBars *> m_bars;
    QCPColorMap *m_colorMap = nullptr;
    QCPColorScale *m_colorScale = nullptr;
    QCPMarginGroup *m_marginGroup = nullptr;
    bool m_legendOutside = false;
    QCPLayoutGrid *m_legendColumn = nullptr; // holds the legend when it is outside
};

} // namespace clab::views
