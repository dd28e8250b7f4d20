// ChartWidget's axis ticks: category labels, log axes with 1-2-5 ticks and message sizes, and
// number axes thinned until their labels stand apart.
#include "views/charts/chartwidget.h"
#include "views/common/qtext.h"

#include <algorithm>
#include <cmath>

namespace clab::views {

namespace {

// Log-axis ticks at 1, 2 and 5 times a power of ten, labelled; 1 and 3, then decades alone, when
// those would crowd (more than maxTicks), and a sub-grid line at every whole multiple in between.
class OneTwoFiveTicker : public QCPAxisTicker
{
public:
    int maxTicks = 12; // labelled ticks inside the range, at most

protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        QVector<double> ticks;
        if (range.lower <= 0 || range.upper <= range.lower)
            return ticks;
        const int first = int(std::floor(std::log10(range.lower)));
        const int last = int(std::ceil(std::log10(range.upper)));
        // One tick beyond each end, so that the sub-grid reaches the edges (QCustomPlot trims
        // what lies outside the range).
        for (const std::initializer_list<double> &steps :
             {std::initializer_list<double>{1, 2, 5}, std::initializer_list<double>{1, 3},
              std::initializer_list<double>{1}}) {
            ticks.clear();
            int inside = 0;
            for (int e = first - 1; e <= last; ++e)
                for (double m : steps) {
                    const double v = m * std::pow(10.0, e);
                    const bool in = v >= range.lower && v <= range.upper;
                    inside += in;
                    if (in || (v < range.lower && v * 10.1 > range.lower)
                        || (v > range.upper && ticks.size() && ticks.back() <= range.upper))
                        ticks << v;
                }
            if (inside <= maxTicks)
                break;
        }
        return ticks;
    }
    QVector<double> createSubTickVector(int, const QVector<double> &ticks) override
    {
        QVector<double> sub;
        for (int i = 0; i + 1 < ticks.size(); ++i) {
            const double decade = std::pow(10.0, std::floor(std::log10(ticks[i]) + 1e-9));
            for (double v = ticks[i] + decade; v < ticks[i + 1] * (1 - 1e-9); v += decade)
                sub << v;
        }
        return sub;
    }
};

QString bytesLabel(double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4)
        bytes /= 1024, ++u;
    return QString::number(bytes, 'g', 4) + QLatin1Char(' ') + QLatin1String(units[u]);
}

} // namespace

bool ChartWidget::fitTicks()
{
    // After a layout: a number axis whose neighbouring tick labels touch (slides text on a 6 in
    // chart, bars beside long labels) takes fewer ticks. True when one did: lay out again.
    bool changed = false;
    for (QCPAxis *axis : {xAxis, yAxis}) {
        const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
        if (!ticker || qSharedPointerDynamicCast<QCPAxisTickerText>(ticker))
            continue; // categories and message sizes place their own
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        const QFontMetrics metrics(axis->tickLabelFont());
        const bool across = axis->orientation() == Qt::Horizontal;
        bool crowded = false;
        for (int i = 1; i < ticks.size() && i < labels.size(); ++i) {
            const double gap
                = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
            const double need = across ? (metrics.horizontalAdvance(labels[i])
                                          + metrics.horizontalAdvance(labels[i - 1]))
                                                 / 2.0
                                             + metrics.averageCharWidth()
                                       : 1.1 * metrics.height();
            crowded = crowded || gap < need;
        }
        if (!crowded)
            continue;
        if (auto oneTwoFive = qSharedPointerDynamicCast<OneTwoFiveTicker>(ticker)) {
            if (oneTwoFive->maxTicks <= 2)
                continue;
            oneTwoFive->maxTicks = std::max(2, int(ticks.size()) - 1);
        } else {
            if (ticker->tickCount() <= 2)
                continue;
            ticker->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
            ticker->setTickCount(std::min(ticker->tickCount(), int(ticks.size())) - 1);
        }
        changed = true;
    }
    return changed;
}

void ChartWidget::replotFitted()
{
    // A widget never shown (an export) has not yet taken its size as its viewport.
    if (viewport() != rect())
        setViewport(rect());
    // The top tick label is centred on the plot's top edge: room for its upper half below the
    // title.
    const QFontMetrics metrics(yAxis->tickLabelFont());
    QMargins margins = axisRect()->minimumMargins();
    margins.setTop(std::max(margins.top(), metrics.height() / 2 + 2));
    axisRect()->setMinimumMargins(margins);
    replot();
    for (int i = 0; i < 6 && fitTicks(); ++i)
        replot();
}

void ChartWidget::useCategoryTicks(QCPAxis *axis, const std::vector<std::string> &labels)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    // Long rows of categories turn, and so do labels wider than their share of the axis (large
    // slides text); short ones break "system / benchmark" over two lines.
    const QFontMetrics font(axis->tickLabelFont());
    int widestLine = 0;
    for (const std::string &l : labels)
        for (const QString &line : toQString(l).split(QLatin1String(" / ")))
            widestLine = std::max(widestLine, font.horizontalAdvance(line));
    const double share
        = double(QWidget::width() - 150) / double(std::max<std::size_t>(1, labels.size()));
    const bool many
        = labels.size() > 6 || (axis->orientation() == Qt::Horizontal && widestLine > 0.9 * share);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        QString label = toQString(labels[i]);
        if (!many)
            label.replace(QLatin1String(" / "), QLatin1String("\n"));
        else // the full text is in the tooltip (and the CSV); the middle goes, the ends stay
            label = font.elidedText(label, Qt::ElideMiddle, kMaxLabelWidth);
        ticker->addTick(double(i), label);
    }
    axis->setTicker(ticker);
    const bool turned = many && axis->orientation() == Qt::Horizontal;
    axis->setTickLabelRotation(turned ? -40 : 0);
    if (turned) {
        // A turned label ends at its tick and reaches left by its width × cos 40°; without room
        // QCustomPlot drops the first labels, which then stick out of the widget.
        const QFontMetrics metrics(axis->tickLabelFont());
        int widest = 0;
        for (const std::string &l : labels)
            widest = std::max(widest,
                              std::min(kMaxLabelWidth, metrics.horizontalAdvance(toQString(l))));
        QMargins margins = axisRect()->minimumMargins();
        margins.setLeft(std::max(margins.left(), int(widest * 0.77)));
        axisRect()->setMinimumMargins(margins);
    }
    axis->setSubTicks(false);
    axis->grid()->setVisible(false);
}

void ChartWidget::useLogTicks(QCPAxis *axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    const QString label = axis->label();
    if (label.contains(QLatin1String("bytes"))) {
        // Message sizes: a tick at every power of 2 would crowd; every fourth (x16) reads well.
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (int k = 0; k <= 40; k += 4)
            ticker->addTick(std::ldexp(1.0, k), bytesLabel(std::ldexp(1.0, k)));
        axis->setTicker(ticker);
        axis->setSubTicks(false);
        return;
    }
    if (label.startsWith(QLatin1String("GPUs"))) {
        // GPU counts are powers of two in practice.
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(2);
        ticker->setSubTickCount(0);
        axis->setTicker(ticker);
    } else {
        axis->setTicker(QSharedPointer<OneTwoFiveTicker>::create());
    }
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(6);
    axis->grid()->setSubGridVisible(true);
    axis->grid()->setSubGridPen(QPen(QColor(0xEE, 0xEE, 0xEE), 0, Qt::SolidLine));
}

} // namespace clab::views
