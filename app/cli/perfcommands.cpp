// predict, calibrate and validate: the performance model on the command line.
#include "cli/commands.h"

#include "catalog/catalog.h"
#include "cluster/clusterspec.h"
#include "cluster/topology.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "llm/published.h"
#include "perf/clusterplatform.h"
#include "perf/fit.h"
#include "perf/report.h"
#include "perf/service.h"
#include "predictions.h"
#include "store/linkfit.h"
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
#include <map>
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
    design::Design design;
    try {
        design = design::loadDesign(o.file);
    } catch (const InputError &e) {
        err << "composelab predict: " << e.what() << "\n";
        return 1;
    }
    // After loading: the design may have added its own parts to the catalog.
    const catalog::Catalog &cat = catalog::Catalog::builtin();
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
            err << "composelab predict: --cluster: " << e.what() << "\n";
            return 1;
        }
    }
    if (o.nodes > 1 && platform.networkGBps <= 0 && !platform.cluster) {
        err << "composelab predict: " << o.file << ": system \"" << analysis.systems[index].name
            << "\" has no NIC and no network path to another system; give --cluster or "
               "compose a NIC to it\n";
        return 1;
    }
    perf::Request request;
    request.globalBatch = o.globalBatch;
    if (!o.precision.empty()) {
        request.precision = perf::parsePrecision(o.precision);
        if (!request.precision) {
            err << "composelab predict: --precision: unknown precision \"" << o.precision
                << "\" (expected fp32, tf32, fp16, bf16 or fp8)\n";
            return 2;
        }
    }
    const perf::Calibration &calibration = perf::Calibration::builtin();
    if (!o.software.empty() && !calibration.knowsSoftware(o.software)
        && o.software.rfind("mlperf-", 0) != 0) {
        err << "composelab predict: --software: unknown software stack \"" << o.software
            << "\"; calibrated:";
        for (const auto &[stack, f] : calibration.software)
            err << " " << stack;
        err << " (or any mlperf-X.Y round)\n";
        return 2;
    }
    request.software = o.software;
    if (!o.loader.empty() && !workload::loader(*w, o.loader)) {
        err << "composelab predict: --loader: " << w->id << " has no loader \"" << o.loader
            << "\"; it has:";
        for (const workload::Loader &l : w->loaders)
            err << " " << l.name;
        err << "\n";
        return 2;
    }
    request.loader = o.loader;
    // The design's own cluster, predicted beside the system.
    const design::DesignIndex designIndex(design);
    std::optional<perf::ClusterPrediction> clusterPrediction;
    try {
        clusterPrediction
            = perf::predictDesignCluster(designIndex, analysis, *w, request, calibration, cat);
    } catch (const InputError &e) {
        err << "composelab predict: " << o.file << ": " << e.what() << "\n";
        return 1;
    }
    const perf::Prediction p = perf::predictSystem(designIndex, analysis, index, *w, request,
                                                   calibration, cat, {o.nodes, platform.cluster});
    const std::string name = analysis.systems[index].name;
    if (!o.saveDb.empty()) {
        try {
            store::Store db(o.saveDb);
            const int added
                = store::savePredictions(db, o.file,
                                         {name, systemDescription(analysis.systems[index], o.nodes),
                                          design::writeDesign(design)},
                                         {predictedRun(name, {w, p.precision, p})});
            err << (added ? "Saved the prediction to " : "The prediction is already in ")
                << o.saveDb << "\n";
        } catch (const std::exception &e) {
            err << "composelab predict: " << e.what() << "\n";
            return 1;
        }
    }
    if (o.json) {
        OrderedJson j = perf::predictionToJson(name, *w, p);
        if (clusterPrediction) {
            const design::Cluster &c = *design.cluster;
            j["cluster"] = {{"system", c.system},
                            {"nodes", c.nodes},
                            {"gpus", clusterPrediction->gpus},
                            {"topology", c.topology},
                            {"network", clusterPrediction->network},
                            {"prediction",
                             perf::predictionToJson(c.system, *w, clusterPrediction->prediction)}};
        }
        out << j.dump(2) << "\n";
    } else {
        out << perf::predictionToText(name, *w, p);
        if (clusterPrediction) {
            const design::Cluster &c = *design.cluster;
            out << "\nCluster: " << c.nodes << " nodes of " << c.system << " ("
                << clusterPrediction->gpus << " GPUs) joined by " << c.topology << ": "
                << clusterPrediction->network << "\n";
            out << perf::predictionToText(c.system + " x " + std::to_string(c.nodes) + " nodes", *w,
                                          clusterPrediction->prediction);
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

namespace {

std::string percent(double x)
{
    return std::to_string(int(std::round(x * 100)));
}

// One line per group of errors: "  resnet: 97 rows, median 5 %, p90 18 %".
std::string statsLines(const std::map<std::string, perf::ErrorStats> &stats)
{
    std::string text;
    for (const auto &[name, s] : stats)
        text += "  " + name + ": " + std::to_string(s.rows) + " rows, median " + percent(s.median)
                + " %, p90 " + percent(s.p90) + " %\n";
    return text;
}

} // namespace

namespace {

// calibrate --bandwidth DB: a table (or JSON) of each PCIe link's fitted achieved fraction beside
// the catalog's.
int calibrateBandwidth(const CalibrateOptions &o, std::ostream &out, std::ostream &err)
{
    if (!std::filesystem::exists(o.bandwidthDb)) {
        err << "composelab calibrate: " << o.bandwidthDb << ": no such experiment store\n";
        return 1;
    }
    std::vector<store::LinkFit> fits;
    try {
        store::Store db(o.bandwidthDb);
        fits = store::fitLinkFractions(db, catalog::Catalog::builtin());
    } catch (const std::exception &e) {
        err << "composelab calibrate: " << e.what() << "\n";
        return 1;
    }
    OrderedJson json = OrderedJson::array();
    for (const store::LinkFit &f : fits)
        json.push_back({{"link", f.link},
                        {"raw_GBps", f.rawGBps},
                        {"achievedFraction", std::round(f.fittedFraction * 1000) / 1000},
                        {"catalog_achievedFraction", f.catalogFraction},
                        {"measurements", f.measurements},
                        {"min_GBps", f.minGBps},
                        {"max_GBps", f.maxGBps},
                        {"from", f.from}});
    if (o.json) {
        out << OrderedJson{{"links", json}}.dump(2) << "\n";
    } else if (fits.empty()) {
        out << "No host-to-device measurement in " << o.bandwidthDb
            << " names its PCIe link (the shipped link table does: import datasets/ or use the "
               "store of a first start).\n";
    } else {
        char line[160];
        std::snprintf(line, sizeof line, "%-10s %6s %9s %8s %8s  %s\n", "link", "n", "raw GB/s",
                      "fitted", "catalog", "measured GB/s");
        out << line;
        for (const store::LinkFit &f : fits) {
            std::snprintf(line, sizeof line, "%-10s %6d %9.2f %8.3f %8.3f  %.2f-%.2f\n",
                          f.link.c_str(), f.measurements, f.rawGBps, f.fittedFraction,
                          f.catalogFraction, f.minGBps, f.maxGBps);
            out << line;
        }
        out << "fitted = median measurement / raw rate; the catalog's value is in "
               "resources/catalog/links.json (achievedFraction, with its sources)\n";
    }
    if (!o.out.empty()) {
        try {
            writeFileAtomically(o.out, OrderedJson{{"links", json}}.dump(2) + "\n");
        } catch (const std::exception &e) {
            err << "composelab calibrate: " << e.what() << "\n";
            return 1;
        }
        err << "Wrote " << o.out << "\n";
    }
    return 0;
}

// calibrate --llm FILES --out F: the LLM planner's one GEMM efficiency, fitted to every published
// run of the tables, with each table's errors in the fit and held out (fitted on the others).
int calibrateLlm(const CalibrateOptions &o, std::ostream &out, std::ostream &err)
{
    if (o.out.empty()) {
        err << "composelab calibrate: --llm needs --out FILE (datasets/llm_calibration.json)\n";
        return 2;
    }
    std::vector<std::vector<llm::PublishedRun>> tables;
    std::vector<llm::PublishedRun> all;
    try {
        tables = llm::readPublishedTables(o.llmFiles);
        for (const auto &t : tables)
            all.insert(all.end(), t.begin(), t.end());
    } catch (const std::exception &e) {
        err << "composelab calibrate: " << e.what() << "\n";
        return 1;
    }
    const auto errors = [](const std::vector<llm::PublishedRun> &runs, double efficiency) {
        std::vector<llm::PublishedCheck> checks;
        for (const llm::PublishedRun &r : runs)
            checks.push_back(llm::checkPublished(r, efficiency));
        return llm::summarize(checks);
    };
    if (all.empty()) {
        err << "composelab calibrate: the tables hold no published run to fit\n";
        return 1;
    }
    const auto rounded = [](double x) { return std::round(x * 10000) / 10000; };
    const double efficiency = llm::fitEfficiency(all);
    if (efficiency <= 0.5 || efficiency >= 1.0)
        err << "composelab calibrate: the efficiency sits at the edge of the range searched "
               "(0.5-1): the runs ask for more than one factor can give\n";
    OrderedJson inFit = OrderedJson::object(), heldOut = OrderedJson::object();
    char line[200];
    std::snprintf(line, sizeof line, "GEMM efficiency %.3f, fitted on %zu published runs\n",
                  efficiency, all.size());
    out << line;
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const std::string &name = tables[i].empty() ? o.llmFiles[i] : tables[i].front().table;
        const llm::ErrorSummary in = errors(tables[i], efficiency);
        inFit[name] = {
            {"runs", in.runs}, {"meanError", rounded(in.mean)}, {"worstError", rounded(in.worst)}};
        std::vector<llm::PublishedRun> others;
        for (std::size_t k = 0; k < tables.size(); ++k) {
            if (k != i)
                others.insert(others.end(), tables[k].begin(), tables[k].end());
        }
        std::snprintf(line, sizeof line, "  %-16s %2d runs: mean %4.1f %%, largest %4.1f %%",
                      name.c_str(), in.runs, 100 * in.mean, 100 * in.worst);
        out << line;
        if (!others.empty()) {
            const double without = llm::fitEfficiency(others);
            const llm::ErrorSummary held = errors(tables[i], without);
            heldOut[name] = {{"gemmEfficiency", without},
                             {"meanError", rounded(held.mean)},
                             {"worstError", rounded(held.worst)}};
            std::snprintf(line, sizeof line,
                          "; held out (efficiency %.3f from the others): mean %4.1f %%, largest "
                          "%4.1f %%",
                          without, 100 * held.mean, 100 * held.worst);
            out << line;
        }
        out << "\n";
    }
    OrderedJson j;
    j["about"] = "The LLM planner's one GEMM efficiency (model/llm/LLM.md): the share of each "
                 "GPU's measured GEMM rate, through the planner's own terms, whose worst input "
                 "table (one publication of Megatron-LM runs) has the least mean absolute error. "
                 "Written by composelab calibrate --llm <inputs> --out <this file>.";
    j["gemmEfficiency"] = efficiency;
    j["fittedAt"] = today();
    j["inputs"] = o.llmFiles;
    j["inFit"] = std::move(inFit);
    j["heldOut"] = std::move(heldOut);
    try {
        writeFileAtomically(o.out, j.dump(2) + "\n");
    } catch (const std::exception &e) {
        err << "composelab calibrate: " << e.what() << "\n";
        return 1;
    }
    out << "Wrote " << o.out << "\n";
    return 0;
}

} // namespace

int calibrateCommand(const CalibrateOptions &o, std::ostream &out, std::ostream &err)
{
    if (!o.bandwidthDb.empty())
        return calibrateBandwidth(o, out, err);
    if (!o.llmFiles.empty())
        return calibrateLlm(o, out, err);
    if (o.files.empty() || o.out.empty()) {
        err << "composelab calibrate: give the result tables and --out FILE (or --bandwidth DB "
               "to fit link fractions from bandwidth measurements)\n";
        return 2;
    }
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
    std::string report = "Fitted on " + std::to_string(rows.size()) + " rows ("
                         + std::to_string(set.skipped.size()) + " skipped); overlap "
                         + std::to_string(c.overlap).substr(0, 4) + ", host jitter "
                         + std::to_string(c.hostJitter).substr(0, 4) + ".\n";
    report += "In sample (time to train from the convergence tables; throughput rows apart):\n"
              + statsLines(perf::summarize(inSample));
    if (o.crossValidate) {
        // Held-out errors: they set the intervals every prediction carries.
        const auto folds = perf::heldOut(set, perf::GroupOut::System);
        c.intervals = perf::intervalsOf(folds);
        const auto archOut = perf::heldOut(set, perf::GroupOut::Architecture);
        const auto archIntervals = perf::intervalsOf(archOut);
        if (const auto it = archIntervals.find(""); it != archIntervals.end())
            c.intervals["arch-out"] = it->second;
        report += "Held out, 5 folds by system:\n" + statsLines(perf::summarize(folds));
        report
            += "Held out, each GPU architecture in turn:\n" + statsLines(perf::summarize(archOut));
    }
    c.report = report;
    out << report;
    try {
        writeFileAtomically(o.out, c.toJson());
    } catch (const std::exception &e) {
        err << "composelab calibrate: " << e.what() << "\n";
        return 1;
    }
    out << "Wrote " << o.out << "\n";
    return 0;
}

namespace {

// validate --save: each predicted row as a predicted run beside the measurement it predicts.
int saveValidation(const ValidateOptions &o, const std::vector<std::string> &inputs,
                   const std::vector<perf::RowResult> &results, std::ostream &out,
                   std::ostream &err)
{
    std::vector<store::RowPrediction> rows;
    for (const perf::RowResult &r : results) {
        if (!r.predicted || !(*r.predicted > 0))
            continue;
        const perf::Observation &row = *r.row;
        store::RowPrediction p;
        p.system = row.system;
        p.submitter = row.submitter;
        p.benchmark = row.benchmark;
        p.minutes = row.kind == perf::Observation::Kind::Minutes;
        // What the recorded tables carry: MLPerf rows a round, throughput rows a precision.
        p.round = p.minutes ? row.round : std::string();
        p.precision = p.minutes ? std::string() : perf::precisionName(row.precision);
        if (row.globalBatch > 0)
            p.globalBatch = row.globalBatch;
        p.gpus = row.platform.gpusPerNode * row.platform.nodes;
        p.unit = "samples/s";
        p.predicted = *r.predicted;
        p.measured = row.measured;
        p.where = row.where;
        rows.push_back(std::move(p));
    }
    std::string label = "composelab validate";
    for (const std::string &input : inputs)
        label += " " + input;
    label += o.groupOut.empty()
                 ? " (calibration "
                       + (o.calibration.empty() ? std::string("shipped") : o.calibration) + ")"
                 : " (--group-out " + o.groupOut + (o.physicsOnly ? " --physics-only" : "") + ")";
    if (o.recordedSamples)
        label += " (--recorded-samples)";
    try {
        store::Store db(o.save);
        const int added = store::saveRowPredictions(db, label, rows);
        out << (added ? "Saved " + std::to_string(added) + " predicted runs to " + o.save
                      : "These predictions are already in " + o.save)
            << "; `composelab chart --kind parity --db " << o.save
            << "` plots them against their measurements.\n";
    } catch (const std::exception &e) {
        err << "composelab validate: --save: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

} // namespace

int validateCommand(const ValidateOptions &o, std::ostream &out, std::ostream &err)
{
    perf::ObservationSet set;
    std::vector<std::string> inputs;
    if (!loadTables(o.files, set, inputs, err, "validate"))
        return 1;
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
    if (!o.groupOut.empty()) {
        perf::FitOptions options;
        options.physicsOnly = o.physicsOnly;
        options.recordedSamples = o.recordedSamples;
        results = perf::heldOut(set, *perf::parseGroupOut(o.groupOut), options);
    } else {
        if (o.physicsOnly) {
            err << "composelab validate: --physics-only needs --group-out\n";
            return 2;
        }
        for (const auto &r : set.rows)
            results.push_back({&r, perf::predictObservation(r, calibration, o.recordedSamples)});
    }
    if (o.json) {
        auto j = perf::validationToJson(set, results);
        j["recorded_samples"] = o.recordedSamples;
        out << j.dump(2) << "\n";
    } else {
        out << (o.recordedSamples
                    ? "Time-to-train rows train the samples their runs recorded (the convergence "
                      "table's where a row records none or an implausible count).\n"
                    : "Time-to-train rows train the convergence table's samples.\n")
            << perf::validationToText(set, results);
    }
    if (!o.save.empty())
        return saveValidation(o, inputs, results, o.json ? err : out, err);
    return 0;
}

} // namespace clab::cli
