// predict, calibrate and validate: the performance model on the command line.
#include "cli/commands.h"

#include "catalog/catalog.h"
#include "cluster/clusterspec.h"
#include "cluster/topology.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "perf/clusterplatform.h"
#include "perf/fit.h"
#include "perf/report.h"
#include "predictions.h"
#include "store/predictedruns.h"
#include "store/store.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <ostream>

namespace clab::cli {

namespace {

std::string today()
{
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
    return buf;
}

std::string contentHash(const std::string &text)
{
    std::uint64_t h = 1469598103934665603ull; // FNV-1a, to tell files apart, not to secure them
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace

int predictCommand(const PredictOptions &o, std::ostream &out, std::ostream &err)
{
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    design::Design design;
    try {
        design = design::loadDesign(o.file);
    } catch (const InputError &e) {
        err << "composelab predict: " << e.what() << "\n";
        return 1;
    }
    const workload::Workload *w = workload::Library::builtin().find(o.benchmark);
    if (!w) {
        err << "composelab predict: unknown benchmark \"" << o.benchmark << "\"; known:";
        for (const auto &[id, wl] : workload::Library::builtin().all())
            err << " " << id;
        err << "\n";
        return 2;
    }
    const fabric::Analysis analysis = fabric::analyze(design, cat);
    std::size_t index = 0;
    if (!o.system.empty()) {
        index = analysis.systems.size();
        for (std::size_t i = 0; i < analysis.systems.size(); ++i) {
            if (analysis.systems[i].name == o.system)
                index = i;
        }
        if (index == analysis.systems.size()) {
            err << "composelab predict: " << o.file << ": no composed system named \"" << o.system
                << "\"\n";
            return 1;
        }
    }
    if (analysis.systems.empty()) {
        err << "composelab predict: " << o.file << ": the design has no composed system\n";
        return 1;
    }
    perf::Platform platform = perf::platformOf(design, analysis, index, cat);
    platform.nodes = o.nodes;
    if (!platform.gpu) {
        err << "composelab predict: " << o.file << ": system \"" << analysis.systems[index].name
            << "\" has no GPU\n";
        return 1;
    }
    if (!o.cluster.empty()) {
        try {
            platform.cluster = cluster::clusterNetwork(o.cluster, o.nodes, platform.gpusPerNode);
        } catch (const InputError &e) {
            err << "composelab predict: " << e.what() << "\n";
            return 1;
        }
    }
    if (o.nodes > 1 && platform.networkGBps <= 0 && !platform.cluster) {
        err << "composelab predict: " << o.file << ": system \"" << analysis.systems[index].name
            << "\" has no network path to another system; give --cluster or add NICs and a "
               "network switch\n";
        return 1;
    }
    auto precision = perf::parsePrecision(o.precision.empty() ? w->defaultPrecision : o.precision);
    if (!precision) {
        err << "composelab predict: unknown precision \"" << o.precision
            << "\" (expected fp32, tf32, fp16 or bf16)\n";
        return 2;
    }
    // The design's own cluster, predicted beside the system (at the default global batch of all
    // its GPUs: a batch given for one node would starve a large cluster).
    std::optional<perf::ClusterPlatform> clusterPlatform;
    try {
        clusterPlatform = perf::clusterPlatformOf(design::DesignIndex(design), analysis, cat);
    } catch (const InputError &e) {
        err << "composelab predict: " << o.file << ": " << e.what() << "\n";
        return 1;
    }
    const int gpus = platform.gpusPerNode * platform.nodes;
    const int batch = o.globalBatch > 0 ? o.globalBatch : perf::defaultGlobalBatch(*w, gpus);
    perf::Prediction p
        = perf::predict(platform, *w, batch, *precision, perf::Calibration::builtin());
    if (o.globalBatch <= 0)
        p.notes.push_back("global batch not given: used " + std::to_string(batch));
    p.notes.insert(p.notes.end(), platform.notes.begin(), platform.notes.end());
    const std::string name = analysis.systems[index].name;
    if (!o.saveDb.empty()) {
        try {
            store::Store db(o.saveDb);
            const int added
                = store::savePredictions(db, o.file,
                                         {name, systemDescription(analysis.systems[index], o.nodes),
                                          design::writeDesign(design)},
                                         {predictedRun(name, {w, *precision, p})});
            err << (added ? "Saved the prediction to " : "The prediction is already in ")
                << o.saveDb << "\n";
        } catch (const std::exception &e) {
            err << "composelab predict: " << e.what() << "\n";
            return 1;
        }
    }
    std::optional<perf::Prediction> clusterPrediction;
    if (clusterPlatform) {
        const perf::Platform &cp = clusterPlatform->platform;
        const int clusterGpus = cp.gpusPerNode * cp.nodes;
        clusterPrediction = perf::predict(cp, *w, perf::defaultGlobalBatch(*w, clusterGpus),
                                          *precision, perf::Calibration::builtin());
        clusterPrediction->notes.push_back("global batch: the default for "
                                           + std::to_string(clusterGpus) + " GPUs");
        clusterPrediction->notes.insert(clusterPrediction->notes.end(), cp.notes.begin(),
                                        cp.notes.end());
    }
    if (o.json) {
        OrderedJson j = perf::predictionToJson(name, *w, p);
        if (clusterPrediction) {
            const design::Cluster &c = *design.cluster;
            const perf::Platform &cp = clusterPlatform->platform;
            j["cluster"]
                = {{"system", c.system},
                   {"nodes", c.nodes},
                   {"gpus", cp.gpusPerNode * cp.nodes},
                   {"topology", c.topology},
                   {"network", cp.cluster->description},
                   {"prediction", perf::predictionToJson(c.system, *w, *clusterPrediction)}};
        }
        out << j.dump(2) << "\n";
    } else {
        out << perf::predictionToText(name, *w, p);
        if (clusterPrediction) {
            const design::Cluster &c = *design.cluster;
            const perf::Platform &cp = clusterPlatform->platform;
            out << "\nCluster: " << c.nodes << " nodes of " << c.system << " ("
                << cp.gpusPerNode * cp.nodes << " GPUs) joined by " << c.topology << ": "
                << cp.cluster->description << "\n";
            out << perf::predictionToText(c.system + " x " + std::to_string(c.nodes) + " nodes", *w,
                                          *clusterPrediction);
        }
    }
    return 0;
}

namespace {

bool loadTables(const std::vector<std::string> &files, perf::ObservationSet &set,
                std::vector<std::string> &inputs, std::ostream &err, const char *command)
{
    for (const auto &f : files) {
        try {
            const std::string text = readTextFile(f);
            perf::addCsv(CsvTable::parse(text, f), set);
            inputs.push_back(std::filesystem::path(f).filename().string() + " (fnv1a "
                             + contentHash(text) + ")");
        } catch (const InputError &e) {
            err << "composelab " << command << ": " << e.what() << "\n";
            return false;
        }
    }
    return true;
}

} // namespace

int calibrateCommand(const CalibrateOptions &o, std::ostream &out, std::ostream &err)
{
    perf::ObservationSet set;
    std::vector<std::string> inputs;
    if (!loadTables(o.files, set, inputs, err, "calibrate"))
        return 1;
    std::vector<const perf::Observation *> rows;
    for (const auto &r : set.rows)
        rows.push_back(&r);
    perf::Calibration c = perf::fitCalibration(rows);
    c.inputs = inputs;
    c.fittedAt = today();
    std::vector<perf::RowResult> inSample;
    for (const auto &r : set.rows)
        inSample.push_back({&r, perf::predictObservation(r, c)});
    OrderedJson doc = OrderedJson::parse(c.toJson());
    doc["inSample"] = perf::statsToJson(perf::summarize(inSample));
    out << "Fitted on " << rows.size() << " rows (" << set.skipped.size() << " skipped).\n";
    if (o.crossValidate) {
        const perf::CrossValidation cv = perf::crossValidate(set);
        doc["crossValidation"] = {{"bySystemFolds", perf::statsToJson(cv.bySystemFolds)},
                                  {"byRoundLeftOut", perf::statsToJson(cv.byRound)}};
        out << "Cross-validation (5 folds, a system's rows together): median / p90 abs error\n";
        for (const auto &[name, s] : cv.bySystemFolds)
            out << "  " << name << ": " << s.rows << " rows, " << int(std::round(s.median * 100))
                << " % / " << int(std::round(s.p90 * 100)) << " %\n";
        out << "Each MLPerf round left out in turn:\n";
        for (const auto &[name, s] : cv.byRound)
            out << "  " << name << ": " << s.rows << " rows, " << int(std::round(s.median * 100))
                << " % / " << int(std::round(s.p90 * 100)) << " %\n";
    }
    try {
        writeFileAtomically(o.out, doc.dump(2) + "\n");
    } catch (const std::exception &e) {
        err << "composelab calibrate: " << e.what() << "\n";
        return 1;
    }
    out << "Wrote " << o.out << "\n";
    return 0;
}

int validateCommand(const ValidateOptions &o, std::ostream &out, std::ostream &err)
{
    perf::ObservationSet set;
    std::vector<std::string> inputs;
    try {
        const std::string text = readTextFile(o.file);
        perf::addMlperfRows(CsvTable::parse(text, o.file), set);
    } catch (const InputError &e) {
        err << "composelab validate: " << e.what() << "\n";
        return 1;
    }
    perf::Calibration calibration = perf::Calibration::builtin();
    if (!o.calibration.empty()) {
        try {
            calibration = perf::Calibration::fromJson(readTextFile(o.calibration), o.calibration);
        } catch (const InputError &e) {
            err << "composelab validate: " << e.what() << "\n";
            return 1;
        }
    }
    std::vector<perf::RowResult> results;
    for (const auto &r : set.rows)
        results.push_back({&r, perf::predictObservation(r, calibration)});
    if (o.json)
        out << perf::validationToJson(set, results).dump(2) << "\n";
    else
        out << perf::validationToText(set, results);
    return 0;
}

} // namespace clab::cli
