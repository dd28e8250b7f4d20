#include "store/predictedruns.h"

#include "store/sha256.h"
#include "store/store.h"

#include <nlohmann/json.hpp>

namespace clab::store {

int savePredictions(Store &store, const std::string &designPath, const PredictedSystem &system,
                    const std::vector<PredictedRun> &runs)
{
    // Everything that makes these numbers what they are goes into the hash.
    std::string identity = system.design + "\n" + system.name + "\n";
    for (const PredictedRun &r : runs)
        identity += r.benchmark + "|" + r.precision + "|" + std::to_string(r.globalBatch) + "|"
                    + r.details + "\n";
    const std::string hash = sha256Hex(identity);
    Transaction t(store);
    if (store.findSource(hash)) {
        t.commit();
        return 0;
    }
    const std::int64_t source = store.addSource({designPath, hash, "prediction"});
    const std::int64_t systemId = store.addSystem(
        {system.name, "ComposeLab design", system.description, system.design}, source);
    int added = 0;
    for (const PredictedRun &r : runs) {
        RunRecord run;
        run.systemId = systemId;
        run.benchmark = r.benchmark;
        run.precision = r.precision;
        run.globalBatch = r.globalBatch;
        run.measured = false;
        run.details = r.details;
        run.place = "system " + system.name;
        if (r.timeToTrainMin) {
            run.metric = "time_to_train";
            run.value = *r.timeToTrainMin;
            run.unit = "min";
            store.addRun(run, source);
            ++added;
        }
        run.metric = "throughput";
        run.value = r.throughput;
        run.unit = "samples/s";
        store.addRun(run, source);
        ++added;
    }
    t.commit();
    return added;
}

int saveRowPredictions(Store &store, const std::string &label,
                       const std::vector<RowPrediction> &rows)
{
    std::string identity = label + "\n";
    for (const RowPrediction &r : rows)
        identity += r.where + "|" + std::to_string(r.predicted) + "\n";
    const std::string hash = sha256Hex(identity);
    Transaction t(store);
    if (store.findSource(hash)) {
        t.commit();
        return 0;
    }
    const std::int64_t source = store.addSource({label, hash, "validation"});
    int added = 0;
    for (const RowPrediction &r : rows) {
        RunRecord run;
        run.systemId = store.addSystem({r.system, r.submitter, "{}", {}}, source);
        run.benchmark = r.benchmark;
        run.metric = r.minutes ? "time_to_train" : "throughput";
        run.value = r.predicted;
        run.unit = r.minutes ? "min" : r.unit;
        run.globalBatch = r.globalBatch;
        run.precision = r.precision;
        run.round = r.round;
        run.measured = false;
        run.tags = R"(["validate"])";
        nlohmann::json details{{"predicts", r.where}, {"measured", r.measured}};
        if (r.gpus > 0)
            details["gpus"] = r.gpus;
        run.details = details.dump();
        run.place = r.where;
        store.addRun(run, source);
        ++added;
    }
    t.commit();
    return added;
}

} // namespace clab::store
