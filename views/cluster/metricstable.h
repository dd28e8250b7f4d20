#pragma once

#include "cluster/comparison.h"

#include <QStringList>

class QTableWidget;

namespace clab::views {

// The Cluster view's metrics: one column per topology (the chosen one first), one row per
// figure of model/cluster's TopologyReport. Only shows numbers; computes none.
void fillMetricsTable(QTableWidget *table, const std::vector<cluster::LabelledReport> &reports,
                      const std::string &currency);

// The rows' labels, costs in `currency`.
QStringList metricNames(const QString &currency);

} // namespace clab::views
