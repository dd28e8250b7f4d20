// ChartWidget's box charts (the error chart), apart from the bars, lines and heat maps.
#include "views/charts/chartwidget.h"

#include <algorithm>

namespace clab::views {

namespace {
const QColor kZeroLineColor(0x55, 0x55, 0x55); // the grey of ideal lines
} // namespace

// One box per category: whiskers from P10 to P90, the quartiles, the median, the values beyond
// the whiskers as points, and the zero line a perfect prediction lies on.
void ChartWidget::drawBoxes()
{
    const QColor c = paletteColor(0);
    double lo = 0, hi = 0;
    for (std::size_t i = 0; i < m_chart.boxes.size(); ++i) {
        const charts::Box &b = m_chart.boxes[i];
        auto *box = new QCPStatisticalBox(xAxis, yAxis);
        box->setName(i == 0 ? tr("P10, quartiles, median, P90; beyond: points") : QString());
        if (i > 0)
            box->removeFromLegend();
        box->setWidth(0.5);
        box->setPen(QPen(c.darker(130), penWidth(1.2)));
        box->setBrush(c.lighter(170));
        box->setMedianPen(QPen(c.darker(160), penWidth(2.5)));
        box->setWhiskerPen(QPen(c.darker(130), penWidth(1.2), Qt::SolidLine));
        box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c.darker(130)),
                                             Qt::NoBrush, penWidth(5)));
        box->addData(double(i), b.p10, b.q1, b.median, b.q3, b.p90,
                     QVector<double>(b.outliers.begin(), b.outliers.end()));
        lo = std::min({lo, b.p10, b.outliers.empty() ? b.p10 : b.outliers.front()});
        hi = std::max({hi, b.p90, b.outliers.empty() ? b.p90 : b.outliers.back()});
    }
    auto *zero = new QCPItemStraightLine(this);
    zero->point1->setCoords(0, 0);
    zero->point2->setCoords(1, 0);
    zero->setPen(QPen(kZeroLineColor, penWidth(1), Qt::DashLine));
    useCategoryTicks(xAxis, m_chart.categories);
    xAxis->setRange(-0.6, double(m_chart.categories.size()) - 0.4);
    const double pad = std::max(5.0, (hi - lo) * 0.08);
    yAxis->setRange(lo - pad, hi + pad * 3); // room above for the legend
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
}

} // namespace clab::views
