#include "views/charts/chartwidget.h"
#include "views/common/qtext.h"

#include <QMouseEvent>
#include <QResizeEvent>
#include <QSet>
#include <QTimer>
#include <QToolTip>

#include <cmath>
#include <limits>

namespace clab::views {

namespace {

const QColor measuredColor(0x00, 0x72, 0xB2);  // Okabe-Ito blue
const QColor predictedColor(0xE6, 0x9F, 0x00); // Okabe-Ito orange
const QColor idealColor(0x55, 0x55, 0x55);
constexpr int kPaletteSize = 8;                  // Okabe-Ito colours
constexpr int kIdentitySlots = kPaletteSize * 5; // colours x markers

// Cividis (Nuñez, Anderton & Renslow 2018): readable with any colour vision and in grey scale.
// Seven stops sampled from matplotlib's table.
QCPColorGradient cividis()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x00, 0x22, 0x4E));
    g.setColorStopAt(1.0 / 6, QColor(0x1F, 0x38, 0x6E));
    g.setColorStopAt(2.0 / 6, QColor(0x4D, 0x54, 0x6C));
    g.setColorStopAt(3.0 / 6, QColor(0x7C, 0x7B, 0x78));
    g.setColorStopAt(4.0 / 6, QColor(0xA6, 0x9D, 0x75));
    g.setColorStopAt(5.0 / 6, QColor(0xD3, 0xC1, 0x64));
    g.setColorStopAt(1.0, QColor(0xFE, 0xE8, 0x38));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QColor seriesColor(const charts::Series &s, int index, bool byKind)
{
    if (s.kind == charts::SeriesKind::Ideal)
        return idealColor;
    if (byKind)
        return s.kind == charts::SeriesKind::Measured ? measuredColor : predictedColor;
    return ChartWidget::paletteColor(index);
}

// Breaks a title between words so that no line is wider than `width`.
QString wrapped(const QString &title, const QFontMetrics &metrics, int width)
{
    QStringList lines;
    QString line;
    for (const QString &word : title.split(QLatin1Char(' '))) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    lines << line;
    return lines.join(QLatin1Char('\n'));
}

} // namespace

void ChartWidget::resizeEvent(QResizeEvent *event)
{
    fitTitle(event->size().width());
    QCustomPlot::resizeEvent(event);
    // A smaller chart may crowd its tick labels: thin them once the new size is laid out. Only
    // ever fewer ticks (setChart starts afresh), so that sizes and ticks cannot chase each other.
    if (!m_fitPending) {
        m_fitPending = true;
        QTimer::singleShot(0, this, [this] {
            m_fitPending = false;
            if (fitTicks())
                replot(rpQueuedReplot);
        });
    }
}

void ChartWidget::fitTitle(int width)
{
    // The title sits above the plot only; a legend beside the plot takes its own column.
    if (m_legendColumn && width >= kNarrowWidth)
        width -= legend->minimumOuterSizeHint().width();
    m_title->setText(wrapped(toQString(m_chart.title), QFontMetrics(m_title->font()),
                             std::max(100, width - 24)));
}

ChartWidget::ChartWidget(QWidget *parent)
    : QCustomPlot(parent)
{
    // A category's full name and values where its label is cut short.
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        if (m_chart.categories.empty())
            return;
        QCPAxis *keyAxis = m_chart.horizontal ? yAxis : xAxis;
        const double at = keyAxis->pixelToCoord(m_chart.horizontal ? event->position().y()
                                                                   : event->position().x());
        const long i = std::lround(at);
        if (i < 0 || i >= long(m_chart.categories.size()) || std::abs(at - double(i)) > 0.45) {
            QToolTip::hideText();
            return;
        }
        QString tip = toQString(m_chart.categories[std::size_t(i)]);
        for (const charts::Series &s : m_chart.series)
            if (std::size_t(i) < s.values.size() && std::isfinite(s.values[std::size_t(i)]))
                tip += QStringLiteral("\n%1: %2")
                           .arg(toQString(s.name))
                           .arg(s.values[std::size_t(i)], 0, 'g', 4);
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
    });
    setBackground(Qt::white);
    setNoAntialiasingOnDrag(true);
    // Nothing is redrawn until setChart(): one replot per chart, as Wireshark batches its graphs.
    plotLayout()->insertRow(0);
    if (font().pointSizeF() > 0)
        m_basePoints = font().pointSizeF();
    m_title = new QCPTextElement(this, QString(), textFont(12, true));
    plotLayout()->addElement(0, 0, m_title);
    legend->setBrush(QColor(255, 255, 255, 230));
    legend->setBorderPen(QPen(QColor(0xBB, 0xBB, 0xBB)));
    // A chart in a short dock would cut a long vertical axis label at both ends, losing its
    // start: it loses its end to "…" instead, and gets it back when the chart grows.
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        yAxis->setLabel(QFontMetrics(yAxis->labelFont())
                            .elidedText(m_yLabel, Qt::ElideRight, axisRect()->height()));
    });
    resize(900, 560);
}

QFont ChartWidget::textFont(double points, bool bold) const
{
    QFont f(font().family());
    f.setPointSizeF(points * m_textScale);
    f.setBold(bold);
    return f;
}

QColor ChartWidget::paletteColor(int index)
{
    static const QColor okabeIto[]
        = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
           QColor(0xD5, 0x5E, 0x00), QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9),
           QColor(0xF0, 0xE4, 0x42), QColor(0x00, 0x00, 0x00)};
    return okabeIto[index % kPaletteSize];
}

QStringList ChartWidget::legendNames() const
{
    QStringList names;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
            names << item->plottable()->name();
    return names;
}

void ChartWidget::clearChart()
{
    placeLegend(false);
    clearPlottables();
    clearItems();
    axisRect()->setMinimumMargins(QMargins());
    m_bars.clear();
    m_colorMap = nullptr;
    if (m_colorScale) {
        plotLayout()->remove(m_colorScale);
        m_colorScale = nullptr;
    }
    if (m_marginGroup) {
        axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, nullptr);
        delete m_marginGroup;
        m_marginGroup = nullptr;
    }
    plotLayout()->simplify();
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setRangeReversed(false);
        axis->setTickLabelRotation(0);
        axis->grid()->setVisible(true);
        axis->grid()->setPen(QPen(QColor(0xDD, 0xDD, 0xDD), 0, Qt::SolidLine));
        axis->grid()->setSubGridVisible(false);
    }
    legend->setVisible(false);
}

void ChartWidget::setChart(const charts::ChartData &chart)
{
    m_chart = chart;
    clearChart();
    m_title->setFont(textFont(12, true));
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setTickLabelFont(textFont(m_basePoints));
        axis->setLabelFont(textFont(m_basePoints));
        axis->setBasePen(QPen(Qt::black, penWidth(1)));
    }
    legend->setFont(textFont(m_basePoints));
    fitTitle(width());
    xAxis->setLabel(toQString(chart.x.label));
    yAxis->setLabel(toQString(chart.y.label));
    if (chart.kind == charts::ChartKind::Heatmap)
        drawHeatmap();
    else if (!chart.boxes.empty())
        drawBoxes();
    else if (!chart.categories.empty())
        drawBars();
    else
        drawLines();
    fitTitle(width()); // the legend has its place now
    m_yLabel = yAxis->label();
    replotFitted();
}

void ChartWidget::drawBars()
{
    const auto &series = m_chart.series;
    const int n = int(series.size());
    // Measured beside predicted: the colours say which is which. Several series of one kind
    // (a study's benchmarks) take a colour each.
    QSet<int> kinds;
    bool oneOfEachKind = true;
    for (const charts::Series &s : series) {
        oneOfEachKind = oneOfEachKind && !kinds.contains(int(s.kind));
        kinds.insert(int(s.kind));
    }
    const bool byKind = !m_chart.stacked && oneOfEachKind;
    // Many or long labels: bars along x and the labels down the y axis, where they stay level.
    const bool flat = m_chart.horizontal;
    QCPAxis *keyAxis = flat ? yAxis : xAxis;
    QCPAxis *valueAxis = flat ? xAxis : yAxis;
    if (flat) {
        xAxis->setLabel(toQString(m_chart.y.label));
        yAxis->setLabel(toQString(m_chart.x.label));
    }
    QCPBarsGroup *group = m_chart.stacked ? nullptr : new QCPBarsGroup(this);
    const double width = m_chart.stacked ? 0.6 : 0.8 / std::max(1, n);
    // Values over decades (time to train from seconds to days) on a log axis; stacked parts
    // would not add up on one, so those stay linear.
    const bool logValues = m_chart.y.log && !m_chart.stacked;
    double lowest = std::numeric_limits<double>::infinity(); // the smallest bar, for log axes
    double top = 0;
    std::vector<double> stackTop(m_chart.categories.size(), 0.0);
    for (int i = 0; i < n; ++i) {
        auto *bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(toQString(series[i].name));
        bars->setWidth(width);
        const QColor c = seriesColor(series[i], i, byKind);
        bars->setPen(QPen(c.darker(130)));
        bars->setBrush(c);
        QVector<double> keys, values;
        for (std::size_t k = 0; k < series[i].values.size(); ++k) {
            const double v = series[i].values[k];
            if (!std::isfinite(v) || (logValues && v <= 0))
                continue;
            lowest = std::min(lowest, v);
            keys << series[i].x[k];
            values << v;
            if (m_chart.stacked)
                top = std::max(top, stackTop[k] += v);
            else
                top = std::max(top, v);
        }
        bars->setData(keys, values, true);
        if (group)
            bars->setBarsGroup(group);
        else if (!m_bars.empty())
            bars->moveAbove(m_bars.back());
        m_bars.push_back(bars);
    }
    if (group)
        group->setSpacing(flat ? 1 : 2);
    for (const charts::Annotation &a : m_chart.annotations) {
        auto *label = new QCPItemText(this);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(flat ? a.y : a.x, flat ? a.x : a.y);
        label->setPositionAlignment(flat ? (Qt::AlignLeft | Qt::AlignVCenter)
                                         : (Qt::AlignHCenter | Qt::AlignBottom));
        label->setPadding(flat ? QMargins(3, 0, 0, 0) : QMargins(0, 0, 0, 3));
        label->setText(toQString(a.text));
        label->setFont(textFont(flat ? 8 : 9));
    }
    useCategoryTicks(keyAxis, m_chart.categories);
    keyAxis->setRange(-0.6, double(m_chart.categories.size()) - 0.4);
    keyAxis->setRangeReversed(flat); // the first category on top
    // Room beyond the longest bar for its label and the legend.
    double base = 0;
    if (logValues && std::isfinite(lowest)) {
        // Bars rise from the decade below the smallest one.
        base = std::pow(10.0, std::floor(std::log10(lowest)));
        for (QCPBars *bars : m_bars)
            bars->setBaseValue(base);
        useLogTicks(valueAxis);
        valueAxis->setRange(base, top * std::pow(top / base, 0.3));
    } else {
        valueAxis->setRange(0, top > 0 ? top * 1.45 : 1);
    }
    if (flat) {
        // The value axis's last tick label is centred on the plot's right edge: room for half of
        // it, where nothing else (the right axis is hidden) makes the margin.
        QMargins margins = axisRect()->minimumMargins();
        const QFontMetrics metrics(valueAxis->tickLabelFont());
        margins.setRight(
            std::max(margins.right(), metrics.horizontalAdvance(QStringLiteral("00000")) / 2 + 4));
        axisRect()->setMinimumMargins(margins);
    }
    legend->setVisible(true);
    // The legend goes to the corner the bars leave free: the end of the value axis, beside the
    // shorter end of the categories.
    std::vector<double> reach(m_chart.categories.size(), 0.0);
    for (const charts::Series &s : series)
        for (std::size_t k = 0; k < s.values.size() && k < s.x.size(); ++k) {
            const auto at = std::size_t(std::max(0.0, s.x[k]));
            if (at < reach.size() && std::isfinite(s.values[k]))
                reach[at]
                    = m_chart.stacked ? reach[at] + s.values[k] : std::max(reach[at], s.values[k]);
        }
    if (base > 0) // how far a bar reaches across a log axis
        for (double &r : reach)
            r = r > base ? std::log10(r / base) : 0.0;
    const std::size_t quarter = std::max<std::size_t>(1, reach.size() / 4);
    double first = 0, last = 0;
    for (std::size_t k = 0; k < quarter && k < reach.size(); ++k) {
        first = std::max(first, reach[k]);
        last = std::max(last, reach[reach.size() - 1 - k]);
    }
    const double longest = reach.empty() ? 0.0 : *std::max_element(reach.begin(), reach.end());
    // Flat bars in a narrow chart: the bar labels reach under a corner legend.
    if ((!reach.empty() && std::min(first, last) > 0.5 * longest)
        || (flat && QWidget::width() < kNarrowWidth)) {
        placeLegend(true); // no free corner: beside (or below) the plot
        return;
    }
    const bool atStart = first <= last; // the first categories (top when flat, left when upright)
    axisRect()->insetLayout()->setInsetAlignment(
        0, flat ? ((atStart ? Qt::AlignTop : Qt::AlignBottom) | Qt::AlignRight)
                : (Qt::AlignTop | (atStart ? Qt::AlignLeft : Qt::AlignRight)));
}

int ChartWidget::preferredHeight(const charts::ChartData &chart, double textScale, int width)
{
    // A category row needs about a line and a half of 9 pt text; the rest is title and axes.
    int height = 560;
    if (chart.horizontal)
        height = std::max(height, int(textScale * (150 + 20 * int(chart.categories.size()))));
    // A narrow chart's long legend lies below the plot (placeLegend), in as many columns as fit,
    // a row of 8 pt text each: the plot keeps its height above it.
    const int entries = int(chart.series.size());
    if (width < kNarrowWidth && entries > kMaxLegendInside) {
        const int columns = std::max(1, (width - 40) / int(200 * textScale));
        height += int(textScale * 16 * ((entries + columns - 1) / columns));
    }
    return height;
}

void ChartWidget::drawLines()
{
    const auto &series = m_chart.series;
    bool allMeasured = true;
    for (const charts::Series &s : series)
        allMeasured = allMeasured && s.kind == charts::SeriesKind::Measured;
    // More entries than a corner holds: beside the plot, where it covers nothing (before the
    // graphs are made: their legend items take the legend's font).
    const bool outside = series.size() > std::size_t(kMaxLegendInside);
    placeLegend(outside);
    int colour = 0;
    // A series that stands for a system takes the slot its name hashes to (8 colours x 5 markers),
    // the next free one when taken: the same system looks the same in every chart. Lines that
    // stand for nothing (a Pareto front) are then grey, so they take no system's colour.
    const bool identities = std::any_of(
        series.begin(), series.end(), [](const charts::Series &s) { return !s.identity.empty(); });
    QSet<int> usedSlots;
    const auto slotOf = [&usedSlots](const std::string &identity) {
        std::uint32_t h = 2166136261u; // FNV-1a: stable across runs and machines
        for (unsigned char ch : identity)
            h = (h ^ ch) * 16777619u;
        int slot = int(h % kIdentitySlots);
        for (int i = 0; i < kIdentitySlots && usedSlots.contains(slot); ++i)
            slot = (slot + 1) % kIdentitySlots;
        usedSlots.insert(slot);
        return slot;
    };
    QSet<QString> named; // a band drawn as two lines has one legend entry
    for (const charts::Series &s : series) {
        QCPGraph *g = addGraph();
        // The legend gets the name with its middle cut when long; the CSV keeps it whole.
        g->setName(
            QFontMetrics(legend->font())
                .elidedText(toQString(s.name), Qt::ElideMiddle, outside ? 260 : kMaxLabelWidth));
        if (named.contains(toQString(s.name)))
            g->removeFromLegend();
        named.insert(toQString(s.name));
        QVector<double> keys, values;
        keys.reserve(qsizetype(s.x.size()));
        values.reserve(qsizetype(s.values.size()));
        for (std::size_t k = 0; k < s.values.size() && k < s.x.size(); ++k) {
            // A log axis cannot show zero or less.
            if (!std::isfinite(s.values[k]) || (m_chart.y.log && s.values[k] <= 0)
                || (m_chart.x.log && s.x[k] <= 0))
                continue;
            keys << s.x[k];
            values << s.values[k];
        }
        g->setData(keys, values, true);
        int slot = -1;
        QColor c = idealColor;
        if (!s.identity.empty()) {
            slot = slotOf(s.identity);
            c = paletteColor(slot % kPaletteSize);
        } else if (s.kind != charts::SeriesKind::Ideal && !identities) {
            c = paletteColor(colour++);
        }
        switch (s.kind) {
        case charts::SeriesKind::Measured:
            if (allMeasured) {
                g->setPen(QPen(c, penWidth(2)));
                if (keys.size() <= 200)
                    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, penWidth(5)));
            } else {
                // Shapes cycle with the colours (5 against 8): 40 series stay apart, and apart
                // without colour vision.
                static const QCPScatterStyle::ScatterShape shapes[]
                    = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                       QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
                       QCPScatterStyle::ssTriangleInverted};
                g->setPen(QPen(c, penWidth(2)));
                g->setLineStyle(QCPGraph::lsNone);
                const int shape = slot >= 0 ? slot / kPaletteSize : std::max(0, colour - 1) % 5;
                g->setScatterStyle(QCPScatterStyle(shapes[shape], QPen(c, penWidth(2)),
                                                   QBrush(c.lighter(150)), penWidth(9)));
            }
            break;
        case charts::SeriesKind::Predicted:
            g->setPen(QPen(c, penWidth(2)));
            break;
        case charts::SeriesKind::Ideal:
            g->setPen(QPen(c, penWidth(1.5), Qt::DashLine));
            break;
        }
        if (s.line != charts::LineStyle::Auto) {
            QPen pen = g->pen();
            pen.setStyle(s.line == charts::LineStyle::Solid    ? Qt::SolidLine
                         : s.line == charts::LineStyle::Dashed ? Qt::DashLine
                                                               : Qt::DotLine);
            g->setPen(pen);
        }
        // One point draws no line: mark it (the cluster view's cost chart has a point a series).
        if (keys.size() == 1 && g->scatterStyle().isNone())
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, penWidth(10)));
    }
    rescaleAxes();
    for (QCPAxis *axis : {xAxis, yAxis}) {
        const bool log = axis == xAxis ? m_chart.x.log : m_chart.y.log;
        QCPRange r = axis->range();
        if (log) {
            useLogTicks(axis);
            if (r.lower > 0)
                axis->setRange(r.lower / 1.25, r.upper * 1.25);
        } else {
            const double pad = r.size() > 0 ? r.size() * 0.05 : 1;
            // Bandwidth and time start at zero, so that bar and point heights compare.
            axis->setRange(axis == yAxis && r.lower >= 0 ? 0 : r.lower - pad, r.upper + pad);
        }
    }
    legend->setVisible(!series.empty());
    // Bandwidth curves rise to the right and time-to-train falls to the right: the empty corner
    // is top left for the first, top right for the second.
    // A parity chart's points lie along the diagonal: its top left is empty too.
    // Utilisation against faults stays near the top and falls to the right: bottom left.
    const bool left = m_chart.kind == charts::ChartKind::Collective
                      || m_chart.kind == charts::ChartKind::Parity
                      || m_chart.kind == charts::ChartKind::Placement;
    const Qt::Alignment vertical
        = m_chart.kind == charts::ChartKind::Placement ? Qt::AlignBottom : Qt::AlignTop;
    if (!m_legendOutside)
        axisRect()->insetLayout()->setInsetAlignment(
            0, vertical | (left ? Qt::AlignLeft : Qt::AlignRight));
}

void ChartWidget::placeLegend(bool outside)
{
    if (outside == m_legendOutside)
        return;
    if (outside) {
        axisRect()->insetLayout()->take(legend);
        m_legendColumn = new QCPLayoutGrid;
        if (width() < kNarrowWidth) {
            // A narrow chart (a paper's column) has no room beside the plot: below it, in as
            // many columns as fit.
            plotLayout()->addElement(2, 0, m_legendColumn);
            plotLayout()->setRowStretchFactor(2, 0.001);
            m_legendColumn->addElement(0, 0, legend);
            legend->setFillOrder(QCPLegend::foColumnsFirst);
            legend->setWrap(std::max(1, (width() - 40) / int(200 * m_textScale)));
        } else {
            // Beside the plot, at the top of a column whose empty rest takes the height, so
            // that its rows stay close.
            plotLayout()->addElement(1, 1, m_legendColumn);
            plotLayout()->setColumnStretchFactor(1, 0.001);
            m_legendColumn->addElement(0, 0, legend);
            legend->setFillOrder(QCPLegend::foRowsFirst);
            legend->setWrap(0);
            // A plain element below takes the spare height (an empty grid cannot grow), so
            // that the legend keeps its rows together.
            m_legendColumn->addElement(1, 0, new QCPLayoutElement(this));
            m_legendColumn->setRowStretchFactor(0, 0.001);
            m_legendColumn->setRowStretchFactor(1, 1);
        }
        legend->setFont(textFont(8));
        legend->setIconSize(18, 10);
        legend->setRowSpacing(-2);
    } else {
        m_legendColumn->take(legend);
        plotLayout()->remove(m_legendColumn);
        m_legendColumn = nullptr;
        plotLayout()->simplify();
        axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        legend->setFont(textFont(m_basePoints));
        legend->setIconSize(32, 18);
        legend->setRowSpacing(0);
        legend->setFillOrder(QCPLegend::foRowsFirst);
        legend->setWrap(0);
    }
    m_legendOutside = outside;
}

void ChartWidget::drawHeatmap()
{
    const charts::Matrix &m = m_chart.matrix;
    const int cols = int(m.columns.size()), rows = int(m.rows.size());
    if (rows == 0 || cols == 0)
        return;
    m_colorMap = new QCPColorMap(xAxis, yAxis);
    m_colorMap->setName(toQString(m.valueLabel));
    m_colorMap->data()->setSize(cols, rows);
    m_colorMap->data()->setRange(QCPRange(0, std::max(cols - 1, 1)),
                                 QCPRange(0, std::max(rows - 1, 1)));
    if (cols == 1 || rows == 1) // one cell: QCPColorMapData needs a non-empty range
        m_colorMap->data()->setRange(QCPRange(0, cols == 1 ? 0.0001 : cols - 1),
                                     QCPRange(0, rows == 1 ? 0.0001 : rows - 1));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            m_colorMap->data()->setCell(c, r, m.at(std::size_t(r), std::size_t(c)));
    m_colorMap->setInterpolate(false);
    m_colorMap->setGradient(cividis());
    m_colorScale = new QCPColorScale(this);
    plotLayout()->addElement(1, 1, m_colorScale);
    m_colorScale->setType(QCPAxis::atRight);
    m_colorScale->axis()->setLabel(toQString(m.valueLabel));
    m_colorMap->setColorScale(m_colorScale);
    // The scale owns gradient and range once the map is tied to it; the range comes from the
    // finite cells only (the diagonal is left empty), from 0 so that brightness is bandwidth.
    double highest = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const double v = m.at(std::size_t(r), std::size_t(c));
            if (std::isfinite(v))
                highest = std::max(highest, v);
        }
    const QCPRange range(0, highest > 0 ? highest : 1);
    m_colorScale->setGradient(cividis());
    m_colorScale->setDataRange(range);
    m_marginGroup = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, m_marginGroup);
    m_colorScale->setMarginGroup(QCP::msBottom | QCP::msTop, m_marginGroup);

    useCategoryTicks(xAxis, m.columns);
    useCategoryTicks(yAxis, m.rows);
    xAxis->setRange(-0.5, cols - 0.5);
    yAxis->setRange(-0.5, rows - 0.5);
    yAxis->setRangeReversed(true); // row 0 on top, as the tools print the matrix
    // The numbers in the cells when they fit: a colour alone is hard to read exactly.
    if (rows * cols <= 144) {
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const double v = m.at(std::size_t(r), std::size_t(c));
                if (!std::isfinite(v))
                    continue;
                auto *label = new QCPItemText(this);
                label->position->setType(QCPItemPosition::ptPlotCoords);
                label->position->setCoords(c, r);
                label->setText(QString::number(v, 'f', v < 10 ? 1 : 0));
                label->setFont(textFont(8));
                const double t = range.size() > 0 ? (v - range.lower) / range.size() : 0;
                label->setColor(t > 0.55 ? Qt::black : Qt::white);
            }
    }
}

} // namespace clab::views
