#include "views/charts/chartexport.h"

#include "views/charts/chartwidget.h"

#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <cmath>
#include <cstdio>

namespace clab::views {

namespace {

constexpr double screenDpi = 96; // the chart's pixel size is meant at this resolution

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

// Vector output: QCustomPlot draws through a QCPPainter in vectorized mode (no pixmap caches).
void paintVector(ChartWidget &chart, QPaintDevice *device, int w, int h)
{
    QCPPainter painter;
    painter.begin(device);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    chart.toPainter(&painter, w, h);
    painter.end();
}

} // namespace

bool exportChart(ChartWidget &chart, const QString &path, int dpi, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("pdf")
        && suffix != QLatin1String("svg"))
        return fail(error, path + QStringLiteral(": unknown format (use .png, .pdf or .svg)"));
    if (dpi < 10 || dpi > 2400)
        return fail(error, QStringLiteral("DPI %1 is outside 10 to 2400").arg(dpi));
    const int w = chart.width(), h = chart.height();
    const QString title = QString::fromStdString(chart.chart().title);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, path + QStringLiteral(": cannot write: ") + file.errorString());

    if (suffix == QLatin1String("png")) {
        QImage image = chart.toPixmap(w, h, dpi / screenDpi).toImage();
        const int dpm = qRound(dpi / 0.0254);
        image.setDotsPerMeterX(dpm);
        image.setDotsPerMeterY(dpm);
        if (!image.save(&file, "PNG"))
            return fail(error, path + QStringLiteral(": cannot encode PNG"));
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter writer(&file);
        writer.setCreator(QStringLiteral("ComposeLab"));
        writer.setTitle(title);
        // One device unit = one screen pixel, so that text and lines keep their on-screen sizes.
        writer.setResolution(int(screenDpi));
        writer.setPageSize(QPageSize(QSizeF(w * 72.0 / screenDpi, h * 72.0 / screenDpi),
                                     QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        paintVector(chart, &writer, w, h);
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(QSize(w, h));
        svg.setViewBox(QRect(0, 0, w, h));
        svg.setResolution(int(screenDpi));
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("ComposeLab chart"));
        paintVector(chart, &svg, w, h);
    }
    if (!file.commit())
        return fail(error, path + QStringLiteral(": cannot write: ") + file.errorString());
    return true;
}

bool parseChartSize(const std::string &text, int &width, int &height)
{
    double w = 0, h = 0;
    char unit[3] = {};
    int used = 0;
    if (std::sscanf(text.c_str(), "%lfx%lf%2[a-z]%n", &w, &h, unit, &used) != 3
        || used != int(text.size()))
        return false;
    const std::string u = unit;
    const double perUnit = u == "in"   ? screenDpi
                           : u == "cm" ? screenDpi / 2.54
                           : u == "px" ? 1.0
                                       : 0.0;
    w *= perUnit, h *= perUnit;
    if (!(w >= 192 && h >= 144 && w <= 9600 && h <= 9600))
        return false;
    width = int(std::lround(w));
    height = int(std::lround(h));
    return true;
}

bool exportChartData(const charts::ChartData &chart, const ExportLayout &layout,
                     const QString &path, int dpi, QString *error)
{
    ChartWidget widget;
    widget.setTextScale(layout.textScale);
    const int width = layout.width > 0 ? layout.width : 900;
    widget.resize(width, layout.height > 0
                             ? layout.height
                             : ChartWidget::preferredHeight(chart, layout.textScale, width));
    widget.setChart(chart);
    return exportChart(widget, path, dpi, error);
}

} // namespace clab::views
