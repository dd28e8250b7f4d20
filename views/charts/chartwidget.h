#pragma once

#include "charts/chartdata.h"

#include "views/charts/qcp.h"

namespace clab::views {

// Draws one charts::ChartData and nothing else: every number comes from model/charts.
// Bars for category charts (side by side, or stacked), points and lines for x/y
// charts, a colour map with a colour scale for heat maps. Okabe-Ito colours on a light background
// so that the charts read for colour-blind readers and in print.
class ChartWidget : public QCustomPlot
{
    Q_OBJECT

public:
    explicit ChartWidget(QWidget *parent = nullptr);

    void setChart(const charts::ChartData &chart);
    const charts::ChartData &chart() const { return m_chart; }
    // Text and lines of the next setChart() at `scale` times their screen size: 1 for the
    // screen and paper, 1.5 for slides seen from the back of a room.
    void setTextScale(double scale) { m_textScale = scale; }

    // What setChart made, for tests: bars per series, graphs per series, the colour map.
    int barCount() const { return int(m_bars.size()); }
    QCPColorMap *colorMap() const { return m_colorMap; }
    QCPColorScale *colorScale() const { return m_colorScale; }
    QStringList legendNames() const;

    // The height a chart `width` pixels wide needs to show every category label and legend
    // entry apart (560 unless bars lie flat or a narrow chart's legend lies below it), its text
    // at `textScale` (setTextScale).
    static int preferredHeight(const charts::ChartData &chart, double textScale = 1,
                               int width = 900);
    // Category labels longer than this (pixels) lose their middle to "…".
    static constexpr int kMaxLabelWidth = 300;
    // A legend of more entries goes beside the plot instead of into a corner of it.
    static constexpr int kMaxLegendInside = 6;
    // Narrower than this (pixels at 96 dpi), a legend outside the plot goes below it.
    static constexpr int kNarrowWidth = 760;
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
    void drawBoxes();
    void useCategoryTicks(QCPAxis *axis, const std::vector<std::string> &labels);
    void useLogTicks(QCPAxis *axis);
    bool fitTicks();
    void replotFitted();
    QFont textFont(double points, bool bold = false) const; // at the text scale
    double penWidth(double width) const { return width * m_textScale; }

    charts::ChartData m_chart;
    QCPTextElement *m_title = nullptr;
    std::vector<QCPBars *> m_bars;
    QCPColorMap *m_colorMap = nullptr;
    QCPColorScale *m_colorScale = nullptr;
    QCPMarginGroup *m_marginGroup = nullptr;
    bool m_legendOutside = false;
    double m_textScale = 1;
    bool m_fitPending = false;               // a tick fit after a resize is queued
    double m_basePoints = 9;                 // the application's font size
    QCPLayoutGrid *m_legendColumn = nullptr; // holds the legend when it is outside
    QString m_yLabel; // whole; the axis shows it elided when the plot is shorter
};

} // namespace clab::views
