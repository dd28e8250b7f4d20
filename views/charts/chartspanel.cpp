#include "views/charts/chartspanel.h"

#include "charts/storequery.h"
#include "store/store.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartwidget.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace clab::views {

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
    , m_kind(new QComboBox)
    , m_message(new QLabel)
    , m_chart(new ChartWidget)
{
    const std::pair<charts::ChartKind, QString> kinds[] = {
        {charts::ChartKind::Ttt, tr("Time to train: measured and predicted")},
        {charts::ChartKind::Scaling, tr("Scaling against GPU count")},
        {charts::ChartKind::Bandwidth, tr("Bandwidth per link")},
        {charts::ChartKind::Heatmap, tr("Peer-to-peer heatmap")},
        {charts::ChartKind::Collective, tr("Collective bus bandwidth")},
        {charts::ChartKind::Parity, tr("Predicted against measured")},
        {charts::ChartKind::Error, tr("Prediction error per benchmark")},
        {charts::ChartKind::Compare, tr("Study variants compared")},
        {charts::ChartKind::Pareto, tr("Time against cost")},
        {charts::ChartKind::ParetoEnergy, tr("Time against energy")},
    };
    for (const auto &[kind, label] : kinds)
        m_kind->addItem(label, int(kind));
    m_message->setWordWrap(true);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Chart")));
    top->addWidget(m_kind, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_message);
    // A long list of categories makes the chart taller than the dock: it scrolls.
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_chart);
    layout->addWidget(scroll, 1);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ChartsPanel::reload);
}

void ChartsPanel::setStorePath(const QString &path)
{
    m_storePath = path;
    reload();
}

void ChartsPanel::setRunIds(const std::vector<std::int64_t> &ids)
{
    m_runIds = ids;
    reload();
}

void ChartsPanel::setKind(charts::ChartKind kind)
{
    m_kind->setCurrentIndex(m_kind->findData(int(kind)));
}

QString ChartsPanel::message() const
{
    return m_message->text();
}

void ChartsPanel::reload()
{
    charts::ChartData chartData;
    chartData.kind = charts::ChartKind(m_kind->currentData().toInt());
    m_message->clear();
    if (m_storePath.isEmpty() || !QFileInfo::exists(m_storePath)) {
        m_message->setText(tr("No experiments yet: File > Import Results fills the store."));
    } else {
        try {
            charts::StoreQuery query(m_storePath.toStdString());
            store::RunFilter filter;
            if (!m_runIds.empty())
                filter.ids = m_runIds;
            chartData = charts::chartFromStore(query, chartData.kind, filter);
            m_message->setText(m_runIds.empty()
                                   ? tr("All runs of the store; select runs in Experiments to "
                                        "plot only those.")
                                   : tr("%n selected run(s).", nullptr, int(m_runIds.size())));
        } catch (const std::exception &e) {
            m_message->setText(QString::fromStdString(e.what()));
        }
    }
    m_chart->setMinimumHeight(chartData.horizontal ? ChartWidget::preferredHeight(chartData) : 0);
    m_chart->setChart(chartData);
}

bool ChartsPanel::exportTo(const QString &path, int dpi, const ExportLayout &layout, QString *error)
{
    return exportChartData(m_chart->chart(), layout, path, dpi, error);
}

} // namespace clab::views
