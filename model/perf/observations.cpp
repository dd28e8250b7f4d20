#include "perf/observations.h"

#include "catalog/catalog.h"
#include "util/embedded.h"
#include "util/jsonreader.h"
#include "util/inputerror.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <tuple>

namespace clab::perf {

namespace {

std::string lower(std::string s)
{
    for (char &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool contains(const std::string &haystack, const char *needle)
{
    return lower(haystack).find(needle) != std::string::npos;
}

std::optional<double> number(const std::string &s)
{
    if (s.empty())
        return std::nullopt;
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// MLPerf's "ssd" was SSD-ResNet34 on COCO up to v1.1 and RetinaNet on OpenImages from v2.0.
const workload::Workload *mlperfWorkload(const std::string &benchmark, const std::string &round)
{
    const workload::Library &lib = workload::Library::builtin();
    if (benchmark == "ssd" && std::atof(round.c_str()) < 2.0)
        return lib.find("ssd_v1");
    return lib.find(benchmark);
}

// The samples an MLPerf run trained, from the table's median_epoch_at_stop, whose unit differs
// by benchmark as the Reference Convergence Points' does (resources/workloads/README.md): epochs
// for most; samples for 3D U-Net from v3.1 (though some v3.1 rows still give epochs: xFusion's
// L40 says 2,030); tokens for GPT-3; 1-based epochs for DLRM v1. BERT's median counts samples
// from v1.0 on, but older rows and some later ones hold 1 or an epoch there; only then is
// train_samples taken, which is one run's count (and, for a few, the dataset's size).
std::optional<double> recordedSamples(const workload::Workload &w, const std::string &round,
                                      const std::string &epochText, const std::string &samplesText)
{
    const auto epochs = number(epochText);
    const double r = std::atof(round.c_str());
    std::optional<double> out;
    if (w.id == "bert_large")
        out = epochs && *epochs >= w.evalEverySamples ? epochs : number(samplesText);
    else if (!epochs || *epochs <= 0)
        return std::nullopt;
    else if (w.id == "gpt3")
        out = *epochs / 2048;
    else if (w.id == "dlrm")
        out = (*epochs > 1 ? *epochs - 1 : *epochs) * w.datasetSamples;
    else if (w.id == "unet3d" && r >= 3.1 && *epochs >= w.evalStartSamples)
        out = *epochs; // a run cannot stop before its first evaluation; fewer are epochs
    else
        out = *epochs * w.datasetSamples;
    if (!out || !(*out > 0) || !std::isfinite(*out))
        return std::nullopt;
    return out;
}

// Samples MLPerf runs trained that the results table leaves out, read from their result logs
// (datasets/mlperf_trained_samples.json, each row with its source): Stable Diffusion stops only at
// a checkpoint every 512,000 samples, so a score's kept runs trained 0.95-1.25x the convergence
// table, luck that the fit would otherwise take for the step's physics.
std::optional<double> loggedSamples(const std::string &round, const std::string &submitter,
                                    const std::string &system, const std::string &benchmark,
                                    int globalBatch)
{
    using Key = std::tuple<std::string, std::string, std::string, std::string, int>;
    static const std::map<Key, double> table = [] {
        constexpr const char *kFile = "datasets/mlperf_trained_samples.json";
        const Json root = parseJson(embeddedText(kFile), kFile);
        std::map<Key, double> m;
        for (const Json &r : root.at("rows"))
            m[{r.at("round").get<std::string>(), r.at("submitter").get<std::string>(),
               r.at("system").get<std::string>(), r.at("benchmark").get<std::string>(),
               r.at("globalBatch").get<int>()}]
                = r.at("samples").get<double>();
        return m;
    }();
    const auto it = table.find({round, submitter, system, benchmark, globalBatch});
    if (it == table.end() || !(it->second > 0))
        return std::nullopt;
    return it->second;
}

// A recorded count more than kMaxConvergenceRatio from the Reference Convergence Points at that
// batch is not what the run trained to target but another unit or the dataset's size (BERT rows
// that say 156,725,653, its training set); the row then trains the table's samples. Real spread
// stays inside: the widest plausible BERT row (v1.1, batch 256) trained 2.5x the table.
constexpr double kMaxConvergenceRatio = 3.0;

std::optional<double> plausibleSamples(const workload::Workload &w, int globalBatch,
                                       std::optional<double> recorded)
{
    const auto table = workload::samplesToConverge(w, globalBatch);
    if (!recorded || !table)
        return recorded;
    const double ratio = *recorded / *table;
    if (ratio > kMaxConvergenceRatio || ratio < 1 / kMaxConvergenceRatio)
        return std::nullopt;
    return recorded;
}

// "PyTorch (NGC 21.11)" -> "pytorch-21.11"; "TensorFlow 1 (NGC 20.06-tf1) + XLA" ->
// "tensorflow-20.06"; without a container version just the framework.
std::string frameworkKey(const std::string &framework)
{
    std::string name;
    for (char c : framework) {
        if (!std::isalpha(static_cast<unsigned char>(c)))
            break;
        name += char(std::tolower(static_cast<unsigned char>(c)));
    }
    const std::size_t ngc = framework.find("NGC ");
    std::string version;
    for (std::size_t i = ngc == std::string::npos ? framework.size() : ngc + 4;
         i < framework.size()
         && (std::isdigit(static_cast<unsigned char>(framework[i])) || framework[i] == '.');
         ++i)
        version += framework[i];
    return version.empty() ? name : name + "-" + version;
}

std::string where(const CsvTable &t, std::size_t row)
{
    return t.fileName() + ":" + std::to_string(t.lineOf(row));
}

// MLPerf rounds compare as versions: "0.7" < "2.1" < "10.0"; a row without a round comes last.
bool earlierRound(const std::string &a, const std::string &b)
{
    if (a.empty() || b.empty())
        return !a.empty() && b.empty();
    const char *pa = a.c_str();
    const char *pb = b.c_str();
    while (*pa || *pb) {
        char *ea = nullptr;
        char *eb = nullptr;
        const long na = std::strtol(pa, &ea, 10);
        const long nb = std::strtol(pb, &eb, 10);
        if (na != nb)
            return na < nb;
        if (ea == pa || eb == pb)
            return std::string(pa) < std::string(pb);
        pa = *ea == '.' ? ea + 1 : ea;
        pb = *eb == '.' ? eb + 1 : eb;
    }
    return false;
}

// What makes two rows one result: the same system's logs give the same minutes, batch and
// samples to the digit. A later round's results repository re-lists some earlier runs (NVIDIA's
// eos_n434 BERT logs of round 3.1 are in the 3.1, 4.0 and 4.1 repositories) and a submitter's
// power entries repeat its performance logs (smc, smc-ac-power, smc-dc-power in 4.0).
std::string resultKey(const CsvTable &t, std::size_t i)
{
    std::string key;
    for (const char *column : {"submitter", "system", "benchmark", "minutes", "global_batch_size",
                               "median_epoch_at_stop", "train_samples"}) {
        key += t.field(i, column);
        key += '\x1f';
    }
    return key;
}

} // namespace

void addMlperfRows(const CsvTable &t, ObservationSet &into)
{
    for (const char *column : {"benchmark", "minutes", "accelerator"}) {
        if (!t.hasColumn(column))
            throw InputError(t.fileName(), "line 1",
                             std::string("missing column \"") + column
                                 + "\" (expected the header of an MLPerf results table)");
    }
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    into.files.push_back(t.fileName());
    std::map<std::string, std::size_t> results; // result key -> its row in into.rows
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        Observation o;
        o.kind = Observation::Kind::Minutes;
        o.where = where(t, i);
        o.round = t.field(i, "round");
        o.submitter = t.field(i, "submitter");
        o.system = t.field(i, "system");
        o.benchmark = t.field(i, "benchmark");
        o.group = o.system;
        const std::string label = o.round + " " + o.submitter + " " + o.system + " " + o.benchmark;
        auto skip = [&](const std::string &reason) {
            into.skipped.push_back({o.where, label, reason, o});
        };
        const auto minutes = number(t.field(i, "minutes"));
        o.measured = minutes.value_or(0);
        if (!minutes || *minutes <= 0) {
            skip("no measured minutes");
            continue;
        }
        o.workload = mlperfWorkload(o.benchmark, o.round);
        if (!o.workload) {
            skip("benchmark not modelled yet: " + o.benchmark);
            continue;
        }
        MlperfSystemFields f;
        f.accelerator = t.field(i, "accelerator");
        f.acceleratorsPerNode = t.field(i, "accelerators_per_node");
        f.numberOfNodes = t.field(i, "number_of_nodes");
        f.acceleratorCount = t.field(i, "accelerator_count");
        f.hostProcessor = t.field(i, "host_processor");
        f.hostProcessorsPerNode = t.field(i, "host_processors_per_node");
        f.hostProcessorCoreCount = t.field(i, "host_processor_core_count");
        f.acceleratorInterconnect = t.field(i, "accelerator_interconnect");
        f.acceleratorHostInterconnect = t.field(i, "accelerator_host_interconnect");
        f.hostNetworking = t.field(i, "host_networking");
        f.hostNetworkingTopology = t.field(i, "host_networking_topology");
        f.hwNotes = t.field(i, "hw_notes");
        const ParsedSystem parsed = parseMlperfSystem(f, cat);
        if (!parsed.spec) {
            skip(parsed.skipReason);
            continue;
        }
        const auto gbs = number(t.field(i, "global_batch_size"));
        if (!gbs || *gbs < 1) {
            skip("no global batch size");
            continue;
        }
        o.globalBatch = int(*gbs);
        auto recorded = recordedSamples(*o.workload, o.round, t.field(i, "median_epoch_at_stop"),
                                        t.field(i, "train_samples"));
        if (!recorded)
            recorded = loggedSamples(o.round, o.submitter, o.system, o.benchmark, o.globalBatch);
        o.trainedSamples = plausibleSamples(*o.workload, o.globalBatch, recorded);
        o.precision = parsePrecision(o.workload->defaultPrecision).value_or(Precision::Fp16);
        o.platform = platformOf(*parsed.spec, cat);
        if (!o.platform.gpu) {
            skip("GPU not in catalog");
            continue;
        }
        // One result counts once, in the round it was run (the earliest that lists it): counted
        // again it would weigh twice, and in a later round's fold it would be predicted by itself.
        const auto [seen, fresh] = results.try_emplace(resultKey(t, i), into.rows.size());
        if (!fresh) {
            Observation &first = into.rows[seen->second];
            if (earlierRound(o.round, first.round))
                std::swap(o, first);
            into.skipped.push_back(
                {o.where, o.round + " " + o.submitter + " " + o.system + " " + o.benchmark,
                 "the same logs as another row (counted once, in its round)", o});
            continue;
        }
        into.rows.push_back(std::move(o));
    }
}

namespace {

// DeepLearningExamples' BERT tables made with LDDL's length bins: PaddlePaddle's (it came with
// LDDL) and PyTorch's from NGC 21.11 on ("PyTorch (NGC 21.11)"). TensorFlow's, older PyTorch
// ones and a table that does not name its framework pad to 512.
bool lddlBinned(const std::string &framework)
{
    const std::string key = frameworkKey(framework); // "pytorch-21.11", "paddlepaddle-22.12"
    if (key.rfind("paddlepaddle", 0) == 0)
        return true;
    if (key.rfind("pytorch-", 0) != 0)
        return false;
    return std::atof(key.c_str() + 8) >= 21.11;
}

const workload::Workload *throughputWorkload(const std::string &model, const std::string &framework)
{
    const workload::Library &lib = workload::Library::builtin();
    const std::string m = lower(model);
    if (m.rfind("resnet-50", 0) == 0)
        return lib.find("resnet50");
    // DLE's BERT pads phase 2 to 512 tokens, except where its PyTorch (NGC 21.11 on) and
    // PaddlePaddle scripts batch by length in 64-token bins (LDDL, January 2022); MLPerf's
    // removes the padding.
    if (m.find("bert-large pretraining seq512") != std::string::npos)
        return lib.find(lddlBinned(framework) ? "bert_large_seq512_binned" : "bert_large_seq512");
    if (m.rfind("mask r-cnn", 0) == 0)
        return lib.find("maskrcnn");
    if (m.rfind("mobilenetv2", 0) == 0)
        return lib.find("mobilenet_v2");
    if (m.rfind("yolov5s", 0) == 0)
        return lib.find("yolov5s");
    return nullptr;
}

} // namespace

void addThroughputRows(const CsvTable &t, ObservationSet &into)
{
    for (const char *column : {"model", "gpu", "gpu_count", "batch_size", "throughput"}) {
        if (!t.hasColumn(column))
            throw InputError(t.fileName(), "line 1",
                             std::string("missing column \"") + column
                                 + "\" (expected the header of a training-throughput table)");
    }
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    into.files.push_back(t.fileName());
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        Observation o;
        o.kind = Observation::Kind::Throughput;
        o.where = where(t, i);
        o.benchmark = t.field(i, "model");
        o.system = t.field(i, "system");
        o.submitter = t.field(i, "framework");
        const std::string url = t.field(i, "source_url");
        const bool dle = contains(url, "deeplearningexamples");
        // The software stack: who ran it, with which framework and container ("dle-pytorch-21.11",
        // "lambda-pytorch-22.10"); frameworks of one table differ by 3x on the same GPU.
        o.round = (dle ? "dle-" : "lambda-") + frameworkKey(o.submitter);
        // A table may name its stack and how the samples reached the GPU ("synthetic": made on
        // the GPU, as framework benchmark scripts do).
        if (!t.field(i, "software").empty())
            o.round = t.field(i, "software");
        o.loader = t.field(i, "loader");
        o.group = o.round + "/" + o.system;
        const std::string label = o.benchmark + " on " + t.field(i, "gpu_count") + "x "
                                  + t.field(i, "gpu") + " " + t.field(i, "precision");
        auto skip = [&](const std::string &reason) {
            into.skipped.push_back({o.where, label, reason, o});
        };
        o.workload = throughputWorkload(o.benchmark, o.submitter);
        if (!o.workload) {
            skip("model not used for calibration: " + o.benchmark);
            continue;
        }
        const auto tput = number(t.field(i, "throughput"));
        const auto count = number(t.field(i, "gpu_count"));
        const auto batch = number(t.field(i, "batch_size"));
        const auto precision = parsePrecision(t.field(i, "precision"));
        if (!tput || !count || !batch || *count < 1 || *batch < 1 || !precision) {
            skip("missing throughput, GPU count, batch size or precision");
            continue;
        }
        const auto gpu = matchGpu(t.field(i, "gpu"), cat);
        if (!gpu) {
            skip("GPU not in catalog: " + t.field(i, "gpu"));
            continue;
        }
        SystemSpec spec;
        spec.gpu = *gpu;
        spec.gpusPerNode = int(*count);
        const catalog::Gpu *g = cat.gpu(*gpu);
        if (g->formFactor == "PCIe" || g->peerLink.empty())
            spec.intraNode = IntraNode::Pcie;
        else if ((g->arch == "Volta" && g->formFactor == "SXM2") || g->formFactor == "OAM")
            spec.intraNode = IntraNode::NvlinkMesh; // DGX-1
        else
            spec.intraNode = IntraNode::NvSwitch; // DGX-2, DGX A100, DGX H100
        o.platform = platformOf(spec, cat);
        // DeepLearningExamples tables give the batch per GPU; Lambda's give the global batch.
        o.globalBatch = int(dle ? *batch * *count : *batch);
        o.precision = *precision;
        o.measured = *tput;
        into.rows.push_back(std::move(o));
    }
}

void addCsv(const CsvTable &t, ObservationSet &into)
{
    if (t.hasColumn("minutes") && t.hasColumn("benchmark"))
        addMlperfRows(t, into);
    else if (t.hasColumn("throughput") && t.hasColumn("model"))
        addThroughputRows(t, into);
    else
        throw InputError(t.fileName(), "line 1",
                         "expected the header of an MLPerf results table (benchmark, minutes, "
                         "accelerator, ...) or of a throughput table (model, gpu, gpu_count, "
                         "batch_size, throughput, ...)");
}

std::optional<double> predictObservation(const Observation &o, const Calibration &calibration,
                                         bool recordedSamples)
{
    Request request;
    request.globalBatch = o.globalBatch;
    request.precision = o.precision;
    request.software = softwareKey(o.round);
    request.loader = o.loader;
    const Prediction p = predict(o.platform, *o.workload, request, calibration);
    if (o.kind == Observation::Kind::Throughput)
        return p.throughput > 0 ? std::optional(p.throughput) : std::nullopt;
    if (recordedSamples && o.trainedSamples && p.stepS > 0) {
        const double samples = *o.trainedSamples;
        const double steps = std::ceil(samples / o.globalBatch);
        // The same sum as the prediction's, on the samples the run trained; the one-time
        // loss (startOn) does not depend on them.
        return (steps * p.stepS
                + workload::evaluations(*o.workload, samples, o.globalBatch) * p.evaluationPassS
                + o.workload->startOn(o.platform.nodes))
               / 60;
    }
    return p.timeToTrainMin;
}

} // namespace clab::perf
