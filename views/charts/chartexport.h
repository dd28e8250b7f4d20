#pragma once

#include <QString>

namespace clab::views {

class ChartWidget;

// Writes the chart to `path`, the format chosen by the extension: .png (raster at `dpi`; the
// chart's size in pixels is taken at 96 dpi and scaled), .pdf and .svg (vector). The file appears
// whole or not at all (QSaveFile). On failure returns false with a message naming the file.
bool exportChart(ChartWidget &chart, const QString &path, int dpi, QString *error);

} // namespace clab::views
