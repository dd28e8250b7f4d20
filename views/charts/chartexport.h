#pragma once

#include "charts/chartdata.h"

#include <QString>

namespace clab::views {

class ChartWidget;

// Writes the chart to `path`, the format chosen by the extension: .png (raster at `dpi`; the
// chart's size in pixels is taken at 96 dpi and scaled), .pdf and .svg (vector). The file appears
// whole or not at all (QSaveFile). On failure returns false with a message naming the file.
bool exportChart(ChartWidget &chart, const QString &path, int dpi, QString *error);

// How an exported chart is laid out: its size in pixels at 96 dpi (0: the chart's preferred
// height, 900 px wide) and its text scale (1 paper, 1.5 slides).
struct ExportLayout
{
    int width = 0;
    int height = 0;
    double textScale = 1;
};

// "6x4in", "15x10cm", "900x560px" as pixels at 96 dpi, between 2x1.5 and 100x100 inches; false
// when the text is not such a size.
bool parseChartSize(const std::string &text, int &width, int &height);

// Lays the chart out afresh at `layout` in a widget of its own and writes it as exportChart
// does: what is on screen keeps its size.
bool exportChartData(const charts::ChartData &chart, const ExportLayout &layout,
                     const QString &path, int dpi, QString *error);

} // namespace clab::views
