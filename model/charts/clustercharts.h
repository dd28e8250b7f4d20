#pragma once

// Charts of the scale-out topologies (model/cluster/comparison.h): charts build on the cluster
// code, never the other way round.

#include "charts/chartdata.h"
#include "cluster/comparison.h"
#include "cluster/placementstudy.h"

#include <string>
#include <vector>

namespace clab::charts {

// All-reduce bandwidth S/T per accelerator against the message size, one line per report.
ChartData allreduceChart(const std::vector<cluster::LabelledReport> &reports,
                         const std::string &title);
// Network cost per accelerator against the all-reduce bandwidth at the largest message, one
// point (a series of its own, for the legend) per report.
ChartData costChart(const std::vector<cluster::LabelledReport> &reports, const std::string &title,
                    const std::string &currency);

// Utilisation (the median over the study's seeds, in %) against the number of faulty boards, one
// line per policy, and the points `published` (faulty boards, utilisation 0-1) under
// `publishedLabel` when there are any.
ChartData placementChart(const cluster::PlacementStudy &study, const std::string &title,
                         const std::vector<std::pair<long long, double>> &published = {},
                         const std::string &publishedLabel = {});

// Runs the study of `params` for all three policies (fault levels placementFaultLevels when none
// are given) and charts it, titled after `system`, with the paper's published points when the
// queue is the paper's and the system one of its (boards of boardA×boardB accelerators).
ChartData placementStudyChart(cluster::PlacementStudyParams params, int boardA, int boardB,
                              const std::string &system);

} // namespace clab::charts
