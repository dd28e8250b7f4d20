#include "predictions.h"

#include "catalog/catalog.h"
#include "perf/report.h"
#include "perf/service.h"

namespace clab {

std::vector<std::vector<SystemPrediction>> defaultPredictions(const design::Design &design,
                                                              const fabric::Analysis &analysis,
                                                              const std::vector<std::string> &ids,
                                                              perf::PredictionMemo *memo)
{
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    const design::DesignIndex index(design);
    std::vector<const workload::Workload *> workloads;
    for (const std::string &id : ids)
        if (const workload::Workload *w = workload::Library::builtin().find(id))
            workloads.push_back(w);
    std::vector<std::vector<SystemPrediction>> out;
    for (std::size_t i = 0; i < analysis.systems.size(); ++i) {
        std::vector<SystemPrediction> rows;
        if (!analysis.systems[i].gpus.empty()) {
            // The same service `composelab predict` calls, with its defaults: the batch that
            // trains fastest, the benchmark's precision, the newest calibrated software.
            std::vector<perf::Prediction> p
                = perf::predictSystem(index, analysis, i, workloads, perf::Request{},
                                      perf::Calibration::builtin(), cat, {}, memo);
            for (std::size_t k = 0; k < p.size(); ++k)
                rows.push_back({workloads[k], p[k].precision, std::move(p[k])});
        }
        out.push_back(std::move(rows));
    }
    return out;
}

store::PredictedRun predictedRun(const std::string &system, const SystemPrediction &p)
{
    const workload::Workload &w = *p.workload;
    // Stored under MLPerf's benchmark name where there is one, so predictions pair with the
    // measured runs of the same benchmark.
    return {w.aliases.empty() ? w.id : w.aliases.front(),
            perf::precisionName(p.precision),
            p.prediction.globalBatch,
            p.prediction.timeToTrainMin,
            p.prediction.throughput,
            perf::predictionToJson(system, w, p.prediction).dump()};
}

std::string systemDescription(const fabric::SystemReport &system, int nodes)
{
    return OrderedJson{{"host", system.host}, {"gpus", system.gpus}, {"nodes", nodes}}.dump();
}

} // namespace clab
