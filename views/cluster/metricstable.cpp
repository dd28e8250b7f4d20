#include "views/cluster/metricstable.h"

#include <QLocale>
#include <QTableWidget>

#include <cmath>

namespace clab::views {

namespace {

QString whole(double v)
{
    return QLocale(QLocale::English).toString(std::llround(v));
}

QString fixed(double v, int decimals)
{
    return QLocale(QLocale::English).toString(v, 'f', decimals);
}

// One row's value for one report, as text.
QStringList values(const cluster::TopologyReport &r)
{
    const auto &s = r.structure;
    const double allreduce = r.allreduce.empty() ? 0 : r.allreduce.back().GBps;
    return {
        whole(double(s.accelerators)),
        whole(double(s.switches)),
        whole(double(s.links[0])),
        whole(double(s.links[1])),
        whole(double(s.links[2])),
        QString::number(r.diameter),
        whole(r.bisection.GBps),
        fixed(r.injectionGBps, 0),
        fixed(r.alltoall.GBps, 2) + QStringLiteral(" (") + QString::fromStdString(r.alltoall.limit)
            + QLatin1Char(')'),
        fixed(allreduce, 1),
        whole(r.cost.total()),
        whole(r.costPerAccelerator),
        fixed(r.costPerAllreduceGBps, 1),
        fixed(r.costPerAlltoallGBps, 1),
    };
}

} // namespace

QStringList metricNames(const QString &currency)
{
    const QString unit = QStringLiteral(" (%1)").arg(currency);
    return {
        QObject::tr("Accelerators"),
        QObject::tr("Switches"),
        QObject::tr("Links: board traces"),
        QObject::tr("Links: copper"),
        QObject::tr("Links: optical"),
        QObject::tr("Diameter (links)"),
        QObject::tr("Bisection (GB/s)"),
        QObject::tr("Injection per accelerator (GB/s)"),
        QObject::tr("Global (alltoall) per accelerator (GB/s)"),
        QObject::tr("All-reduce S/T at 1 GiB (GB/s)"),
        QObject::tr("Network cost") + unit,
        QObject::tr("Cost per accelerator") + unit,
        QObject::tr("Cost per GB/s of all-reduce") + unit,
        QObject::tr("Cost per GB/s of global bandwidth") + unit,
    };
}

void fillMetricsTable(QTableWidget *table, const std::vector<cluster::LabelledReport> &reports,
                      const std::string &currency)
{
    const QStringList names = metricNames(QString::fromStdString(currency));
    table->clear();
    table->setRowCount(int(names.size()));
    table->setColumnCount(int(reports.size()));
    table->setVerticalHeaderLabels(names);
    QStringList columns;
    for (int c = 0; c < int(reports.size()); ++c) {
        columns << QString::fromStdString(reports[std::size_t(c)].label);
        const QStringList v = values(reports[std::size_t(c)].report);
        for (int r = 0; r < v.size(); ++r) {
            auto *item = new QTableWidgetItem(v[r]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(QString::fromStdString(reports[std::size_t(c)].report.description));
            table->setItem(r, c, item);
        }
    }
    table->setHorizontalHeaderLabels(columns);
    table->resizeColumnsToContents();
}

} // namespace clab::views
