// Reading of resources/workloads/*.json (format: resources/workloads/README.md) and the
// convergence-table lookup used to turn throughput into time-to-train.
#include "workload/workload.h"

#include "util/embedded.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace clab::workload {

namespace {

const char *const kPrecisions[] = {"fp32", "tf32", "fp16", "bf16", "fp8"};

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

double nonNegative(ObjectReader &r, const char *key)
{
    const double d = r.number(key);
    if (d < 0)
        r.fail(key, "expected a number of zero or more, found " + Json(d).dump());
    return d;
}

std::vector<ConvergencePoint> readConvergence(ObjectReader &r)
{
    std::vector<ConvergencePoint> points;
    const Json *table = r.optionalArray("convergence");
    if (!table)
        return points;
    const std::string tablePointer = r.pointer("convergence");
    for (std::size_t i = 0; i < table->size(); ++i) {
        ObjectReader p((*table)[i], childPointer(tablePointer, i), r.file());
        ConvergencePoint c;
        c.globalBatch = p.integer("globalBatch", 1);
        c.samples = p.positive("samples");
        c.source = p.string("source");
        p.finish();
        // Sorted and unique, so the interpolation can bracket a batch without surprises.
        if (!points.empty() && c.globalBatch <= points.back().globalBatch)
            p.fail("globalBatch", "expected batch sizes in increasing order without repeats ("
                                      + std::to_string(c.globalBatch) + " follows "
                                      + std::to_string(points.back().globalBatch) + ")");
        points.push_back(std::move(c));
    }
    return points;
}

Workload readWorkload(ObjectReader &r)
{
    Workload w;
    w.id = r.string("id");
    if (w.id.empty() || w.id.find('/') != std::string::npos)
        r.fail("id", "expected a non-empty id without '/'");
    w.name = r.string("name");
    w.aliases = r.strings("aliases");
    w.source = r.string("source");
    w.calibrateAs = r.string("calibrateAs", "");
    if (w.source.empty())
        r.fail("source", "every workload figure needs a source");
    w.parameters = r.positive("parameters");
    w.allreduceParameters
        = r.has("allreduceParameters") ? r.positive("allreduceParameters") : w.parameters;
    if (w.allreduceParameters > w.parameters)
        r.fail("allreduceParameters", "expected at most \"parameters\"");
    w.alltoallBytesPerSample
        = r.has("alltoallBytesPerSample") ? nonNegative(r, "alltoallBytesPerSample") : 0;
    w.frozenParameters = r.has("frozenParameters") ? nonNegative(r, "frozenParameters") : 0;
    if (r.has("frozenBytesPerParam")) {
        if (w.frozenParameters == 0)
            r.fail("frozenBytesPerParam", "expected \"frozenParameters\" for the bytes it sizes");
        w.frozenBytesPerParam = r.positive("frozenBytesPerParam");
        if (w.frozenBytesPerParam > 2)
            r.fail("frozenBytesPerParam",
                   "expected at most 2 (an FP8 run stores a weight in 16 bits at most)");
    }
    w.trainFlopsPerSample = r.positive("trainFlopsPerSample");
    w.activationBytesPerSample = r.positive("activationBytesPerSample");
    // Without an estimate of its own: activations are written in the forward pass, read in the
    // backward pass, and their gradients written and read again.
    w.memoryBytesPerSample = r.has("memoryBytesPerSample") ? r.positive("memoryBytesPerSample")
                                                           : 4 * w.activationBytesPerSample;
    w.allreduceAfterBackward = r.boolean("allreduceAfterBackward", false);
    if (r.has("gradientBucketBytes"))
        w.gradientBucketBytes = r.positive("gradientBucketBytes");
    w.parameterGatherAfterStep = r.boolean("parameterGatherAfterStep", false);
    w.tensorParallelBytesPerSample
        = r.has("tensorParallelBytesPerSample") ? r.positive("tensorParallelBytesPerSample") : 0;
    w.tensorParallelOverlap = r.boolean("tensorParallelOverlap", false);
    w.contextParallelMax = r.integer("contextParallelMax", 1, 1);
    w.startSeconds = r.has("startSeconds") ? nonNegative(r, "startSeconds") : 0;
    w.startLoadSeconds = r.has("startLoadSeconds") ? nonNegative(r, "startLoadSeconds") : 0;
    w.featureStoreBytes = r.has("featureStoreBytes") ? nonNegative(r, "featureStoreBytes") : 0;
    w.featureBytesPerSample
        = r.has("featureBytesPerSample") ? nonNegative(r, "featureBytesPerSample") : 0;
    if (w.featureBytesPerSample > 0 && !(w.featureStoreBytes > 0))
        r.fail("featureBytesPerSample",
               "expected a \"featureStoreBytes\" (the store the samples gather from)");
    w.warpMmaFlopShare = r.has("warpMmaFlopShare") ? nonNegative(r, "warpMmaFlopShare") : 0;
    if (w.warpMmaFlopShare > 1)
        r.fail("warpMmaFlopShare", "expected a share between 0 and 1");
    if (w.allreduceAfterBackward && r.has("gradientBucketBytes"))
        r.fail("gradientBucketBytes",
               "expected no bucket size with \"allreduceAfterBackward\" (one reduction after the "
               "backward pass)");
    if (w.allreduceAfterBackward && w.parameterGatherAfterStep)
        r.fail(
            "parameterGatherAfterStep",
            "expected at most one of \"allreduceAfterBackward\" and \"parameterGatherAfterStep\"");
    w.fp8Share = r.has("fp8Share") ? nonNegative(r, "fp8Share") : 0;
    if (w.fp8Share > 1)
        r.fail("fp8Share", "expected a share between 0 and 1");
    w.fp8CastBytesPerSample
        = r.has("fp8CastBytesPerSample") ? nonNegative(r, "fp8CastBytesPerSample") : 0;
    if (w.fp8Share == 0 && w.fp8CastBytesPerSample > 0)
        r.fail("fp8CastBytesPerSample", "expected an \"fp8Share\" for the FP8 it costs");
    w.matrixKernelsPerPass = r.integer("matrixKernelsPerPass", 0, 0);
    w.fp8MinLocalBatch = r.integer("fp8MinLocalBatch", 0, 0);
    w.fp8Architectures = r.strings("fp8Architectures");
    if (w.fp8Share == 0 && (w.fp8MinLocalBatch > 0 || !w.fp8Architectures.empty()))
        r.fail(w.fp8MinLocalBatch > 0 ? "fp8MinLocalBatch" : "fp8Architectures",
               "expected an \"fp8Share\" for the FP8 it restricts");
    w.inputBytesPerSample = r.positive("inputBytesPerSample");
    w.decodeCoreSecondsPerSample = r.positive("decodeCoreSecondsPerSample");
    if (const Json *loaders = r.optionalArray("loaders")) {
        const std::string listPointer = r.pointer("loaders");
        for (std::size_t i = 0; i < loaders->size(); ++i) {
            ObjectReader l((*loaders)[i], childPointer(listPointer, i), r.file());
            Loader x;
            x.name = l.string("name");
            if (x.name.empty())
                l.fail("name", "expected a loader name such as \"dali\" or \"cpu\"");
            x.decodeCoreSecondsPerSample = nonNegative(l, "decodeCoreSecondsPerSample");
            x.hostToDeviceBytesPerSample = l.positive("hostToDeviceBytesPerSample");
            l.finish();
            for (const Loader &other : w.loaders)
                if (other.name == x.name)
                    l.fail("name", "duplicate loader \"" + x.name + "\"");
            w.loaders.push_back(std::move(x));
        }
    }
    if (w.loaders.empty()) // the sample crosses to the GPU as it was read
        w.loaders.push_back({"default", w.decodeCoreSecondsPerSample, w.inputBytesPerSample});
    w.decodeCoreSecondsPerSample = w.loaders.front().decodeCoreSecondsPerSample;
    w.datasetSamples = r.positive("datasetSamples");
    w.evalTimed = r.boolean("evalTimed", true);
    // An untimed evaluation costs nothing, so its size is not needed.
    w.evalSamples = w.evalTimed ? r.positive("evalSamples") : 0;
    w.evalFlopsPerSample = w.evalTimed ? r.positive("evalFlopsPerSample") : 0;
    if (!w.evalTimed) {
        // Keys that only price a timed evaluation would be silently ignored: refuse them.
        for (const char *key :
             {"evalSamples", "evalFlopsPerSample", "evalCostRatio", "evalFixedSeconds",
              "evalHostSecondsPerSample", "evalSource", "evalRule", "evalStartSamples"})
            if (r.has(key))
                r.fail(key, std::string("an untimed evaluation costs nothing: expected no \"") + key
                                + "\" with \"evalTimed\": false");
    }
    if (r.has("evalCostRatio") || r.has("evalFixedSeconds") || r.has("evalSource")
        || r.has("evalHostSecondsPerSample")) {
        w.measuredEval = Workload::MeasuredEval{
            r.positive("evalCostRatio"), nonNegative(r, "evalFixedSeconds"),
            r.has("evalHostSecondsPerSample") ? nonNegative(r, "evalHostSecondsPerSample") : 0};
        if (r.string("evalSource").empty())
            r.fail("evalSource", "expected the measurement the evaluation cost comes from");
    }
    w.evalEverySamples = nonNegative(r, "evalEverySamples");
    w.evalStartSamples = r.has("evalStartSamples") ? nonNegative(r, "evalStartSamples") : 0;
    w.evalRule = r.string("evalRule", "");
    if (!w.evalRule.empty() && w.evalRule != "bert" && w.evalRule != "llama2_70b_lora")
        r.fail("evalRule",
               "expected \"bert\", \"llama2_70b_lora\" or no rule, found \"" + w.evalRule + "\"");
    w.defaultPrecision = r.string("defaultPrecision");
    if (std::find(std::begin(kPrecisions), std::end(kPrecisions), w.defaultPrecision)
        == std::end(kPrecisions))
        r.fail("defaultPrecision",
               "expected fp32, tf32, fp16, bf16 or fp8; found \"" + w.defaultPrecision + "\"");
    w.qualityTarget = r.string("qualityTarget");
    w.convergence = readConvergence(r);
    w.convergenceRounds = r.strings("convergenceRounds");
    // Rounds as the calibration names them: "mlperf-v4.1" would never match and flag every
    // prediction.
    for (std::size_t i = 0; i < w.convergenceRounds.size(); ++i) {
        const std::string &name = w.convergenceRounds[i];
        if (!isMlperfRound(name))
            r.fail("convergenceRounds", "expected MLPerf rounds such as \"mlperf-4.1\"; item "
                                            + std::to_string(i) + " is \"" + name + "\"");
    }
    if (!w.convergenceRounds.empty() && w.convergence.empty())
        r.fail("convergenceRounds", "expected a \"convergence\" table for these rounds");
    return w;
}

} // namespace

bool isMlperfRound(std::string_view name)
{
    return name.substr(0, 7) == "mlperf-" && name.size() > 7
           && std::isdigit(static_cast<unsigned char>(name[7]));
}

const Library &Library::builtin()
{
    // Built once on first use; the embedded files are part of the program, so an error here is
    // a build defect and is allowed to propagate.
    static const Library library = [] {
        Library l;
        constexpr std::string_view prefix = "resources/workloads/";
        for (const EmbeddedFile &f : embeddedFiles()) {
            // Only the folder's own files: resources/workloads/llm/ holds transformer shapes
            // (model/llm), not benchmarks.
            if (f.path.substr(0, prefix.size()) == prefix && f.path.ends_with(".json")
                && f.path.find('/', prefix.size()) == std::string_view::npos)
                l.addFile(f.text, std::string(f.path));
        }
        return l;
    }();
    return library;
}

void Library::addFile(std::string_view text, const std::string &fileName)
{
    const Json root = parseJson(text, fileName);
    ObjectReader top(root, "", fileName);
    const Json &list = top.array("workloads");
    const std::string listPointer = top.pointer("workloads");
    top.finish();

    // Read the whole file before touching m_workloads, so a bad file adds nothing.
    std::map<std::string, Workload, std::less<>> added;
    for (std::size_t i = 0; i < list.size(); ++i) {
        ObjectReader r(list[i], childPointer(listPointer, i), fileName);
        Workload w = readWorkload(r);
        r.finish();
        if (m_workloads.count(w.id) || added.count(w.id))
            r.fail("id", "duplicate workload id \"" + w.id + "\"");
        added.emplace(w.id, std::move(w));
    }
    m_workloads.merge(added);
}

const Workload *Library::find(std::string_view idOrAlias) const
{
    if (const auto it = m_workloads.find(idOrAlias); it != m_workloads.end())
        return &it->second;
    const std::string wanted = lower(idOrAlias);
    for (const auto &[id, w] : m_workloads) {
        if (lower(id) == wanted)
            return &w;
        for (const std::string &alias : w.aliases) {
            if (lower(alias) == wanted)
                return &w;
        }
    }
    return nullptr;
}

std::optional<double> samplesToConverge(const Workload &w, int globalBatch)
{
    const auto &table = w.convergence;
    if (table.empty())
        return std::nullopt;
    // Reference runs are noisy (a table may dip from one batch to the next), but a larger batch
    // never converges in fewer samples: never go below a point at a smaller or equal batch.
    double floor = table.front().samples;
    for (const ConvergencePoint &p : table) {
        if (p.globalBatch <= globalBatch)
            floor = std::max(floor, p.samples);
    }
    if (globalBatch <= table.front().globalBatch)
        return table.front().samples;
    const ConvergencePoint &last = table.back();
    if (globalBatch >= last.globalBatch) {
        // No reference ran this large: assume at least as many steps as the largest reference,
        // i.e. samples grow with the batch. Optimistic extrapolation would reward ever larger
        // batches that nobody has shown to converge.
        return std::max(floor, last.samples * static_cast<double>(globalBatch) / last.globalBatch);
    }
    const auto upper = std::upper_bound(
        table.begin(), table.end(), globalBatch,
        [](int batch, const ConvergencePoint &p) { return batch < p.globalBatch; });
    const ConvergencePoint &hi = *upper;
    const ConvergencePoint &lo = *(upper - 1);
    const double t
        = static_cast<double>(globalBatch - lo.globalBatch) / (hi.globalBatch - lo.globalBatch);
    return std::max(floor, lo.samples + t * (hi.samples - lo.samples));
}

bool withinConvergenceTable(const Workload &w, int globalBatch)
{
    return !w.convergence.empty() && globalBatch >= w.convergence.front().globalBatch
           && globalBatch <= w.convergence.back().globalBatch;
}

double evaluations(const Workload &w, double samples, int globalBatch)
{
    if (!w.evalTimed)
        return 0;
    double every = w.evalEverySamples;
    if (w.evalRule == "bert") {
        // MLPerf training rules, BERT: evaluate every FLOOR(0.05 * (230.23 * GBS + 3,000,000),
        // 25,000) samples.
        every = std::floor(0.05 * (230.23 * globalBatch + 3'000'000) / 25'000) * 25'000;
    }
    double first = 0;
    if (w.evalRule == "llama2_70b_lora") {
        // MLPerf training rules, Llama 2 70B LoRA: every evalEverySamples (384) sequences, in
        // whole steps (CEIL(384 / GBS) when GBS does not divide it), skipping the first
        // FLOOR(0.125 * GBS + 2) evaluations.
        const int batch = std::max(1, globalBatch);
        every = std::ceil(w.evalEverySamples / batch) * batch;
        first = every * (std::floor(0.125 * batch + 2) + 1);
    }
    if (every <= 0)
        return 1; // once, at the end
    // Evaluations at every multiple of the interval from the start epoch on, the last of which
    // reaches the target.
    if (first == 0)
        first = std::max(every, std::ceil(w.evalStartSamples / every) * every);
    if (samples < first)
        return 1;
    return std::floor((samples - first) / every) + 1;
}

const Loader *loader(const Workload &w, std::string_view name)
{
    if (name.empty())
        return w.loaders.empty() ? nullptr : &w.loaders.front();
    for (const Loader &l : w.loaders)
        if (l.name == name)
            return &l;
    return nullptr;
}

} // namespace clab::workload
