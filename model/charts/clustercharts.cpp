#include "charts/clustercharts.h"

#include "cluster/paperqueue.h"

#include <algorithm>
#include <cmath>

namespace clab::charts {

ChartData allreduceChart(const std::vector<cluster::LabelledReport> &reports,
                         const std::string &title)
{
    ChartData c;
    // Collective: a bandwidth curve rising to the right, which the chart widget knows.
    c.kind = ChartKind::Collective;
    c.title = title;
    c.x = {"message size (bytes)", true};
    c.y = {"all-reduce bandwidth S/T per accelerator (GB/s)", true};
    for (const cluster::LabelledReport &r : reports) {
        Series s{r.label, SeriesKind::Predicted, {}, {}};
        for (const cluster::AllreducePoint &p : r.report.allreduce) {
            s.x.push_back(p.bytes);
            s.values.push_back(p.GBps);
        }
        c.series.push_back(std::move(s));
    }
    return c;
}

ChartData costChart(const std::vector<cluster::LabelledReport> &reports, const std::string &title,
                    const std::string &currency)
{
    ChartData c;
    // Collective as well: cheap and fast sits bottom right, so the top left is free for the
    // legend.
    c.kind = ChartKind::Collective;
    c.title = title;
    std::string largest = "the largest message";
    if (!reports.empty() && !reports.front().report.allreduce.empty()) {
        const double bytes = reports.front().report.allreduce.back().bytes;
        largest = bytes >= 0x1p30 ? std::to_string(std::lround(bytes / 0x1p30)) + " GiB"
                                  : std::to_string(std::lround(bytes / 0x1p20)) + " MiB";
    }
    c.x = {"all-reduce bandwidth S/T per accelerator at " + largest + " (GB/s)", false};
    c.y = {"network cost per accelerator (" + currency + ")", true};
    for (const cluster::LabelledReport &r : reports) {
        if (r.report.allreduce.empty())
            continue;
        c.series.push_back({r.label,
                            SeriesKind::Predicted,
                            {r.report.allreduce.back().GBps},
                            {r.report.costPerAccelerator}});
    }
    return c;
}

namespace {

std::string policyLabel(cluster::PlacementPolicy policy)
{
    switch (policy) {
    case cluster::PlacementPolicy::Submesh:
        return "submesh: any rows and columns";
    case cluster::PlacementPolicy::Sorted:
        return "sorted: contiguous, largest first";
    case cluster::PlacementPolicy::Greedy:
        return "greedy: contiguous, in arrival order";
    }
    return cluster::policyName(policy);
}

} // namespace

ChartData placementChart(const cluster::PlacementStudy &study, const std::string &title,
                         const std::vector<std::pair<long long, double>> &published,
                         const std::string &publishedLabel)
{
    ChartData c;
    c.kind = ChartKind::Placement;
    c.title = title;
    c.x = {"faulty boards", false};
    c.y = {"utilisation (% of healthy boards)", false};
    for (const cluster::PlacementRun &run : study.runs) {
        const std::string name = policyLabel(run.policy);
        auto it = std::find_if(c.series.begin(), c.series.end(),
                               [&](const Series &s) { return s.name == name; });
        if (it == c.series.end()) {
            c.series.push_back({name, SeriesKind::Predicted, {}, {}});
            it = c.series.end() - 1;
        }
        it->x.push_back(double(run.faultyBoards));
        it->values.push_back(100 * run.medianUtilisation());
    }
    if (!published.empty()) {
        Series s{publishedLabel, SeriesKind::Measured, {}, {}};
        for (const auto &[faulty, utilisation] : published) {
            s.x.push_back(double(faulty));
            s.values.push_back(100 * utilisation);
        }
        c.series.push_back(std::move(s));
    }
    return c;
}

ChartData placementStudyChart(cluster::PlacementStudyParams p, int boardA, int boardB,
                              const std::string &system)
{
    if (p.faultyCounts.empty())
        p.faultyCounts = cluster::placementFaultLevels(1LL * p.x * p.y);
    p.policies = {cluster::PlacementPolicy::Submesh, cluster::PlacementPolicy::Sorted,
                  cluster::PlacementPolicy::Greedy};
    const bool paper = p.queue == cluster::JobQueue::Paper;
    return placementChart(cluster::studyPlacement(p),
                          "Job placement on " + system + ", "
                              + (paper ? "the paper's" : "trace-like") + " queue, median of "
                              + std::to_string(p.seeds) + " seeds",
                          paper ? cluster::paperUtilisation(boardA, boardB, p.x, p.y)
                                : std::vector<std::pair<long long, double>>{},
                          "paper, sorted (published)");
}

} // namespace clab::charts
