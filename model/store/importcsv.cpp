#include "store/importsession.h"
#include "store/importtext.h"
#include "store/sha256.h"
#include "util/csv.h"
#include "util/inputerror.h"
#include "util/limits.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

namespace clab::store {

namespace {

std::string lower(std::string s)
{
    for (char &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string line(const CsvTable &t, std::size_t row)
{
    return "line " + std::to_string(t.lineOf(row));
}

// Empty gives nullopt; anything else must be a finite number, or the file is bad.
std::optional<double> number(const CsvTable &t, std::size_t row, const char *column)
{
    const std::string &s = t.field(row, column);
    if (s.empty())
        return std::nullopt;
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    while (end && std::isspace(static_cast<unsigned char>(*end)))
        ++end;
    if (end == s.c_str() || *end != '\0' || !std::isfinite(v))
        throw InputError(t.fileName(), line(t, row),
                         std::string("column \"") + column + "\": \"" + s + "\" is not a number");
    return v;
}

// A count or size: a whole number inside its range, or the file is bad.
std::optional<std::int64_t> integer(const CsvTable &t, std::size_t row, const char *column,
                                    const limits::Range &range)
{
    const auto v = number(t, row, column);
    if (!v)
        return std::nullopt;
    limits::requireWholeInRange(*v, range, t.fileName(), line(t, row),
                                std::string("column \"") + column + "\"");
    return std::int64_t(*v);
}

// Published tables write "10240 tokens": the leading number, the rest kept in details.
std::optional<std::int64_t> leadingBatch(const CsvTable &t, std::size_t row, const char *column)
{
    const std::string &s = t.field(row, column);
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str())
        return std::nullopt;
    limits::requireWholeInRange(v, limits::kBatch, t.fileName(), line(t, row),
                                std::string("column \"") + column + "\"");
    return std::int64_t(v);
}

// Every column not in `used` goes into a details object, so that nothing of a row is lost.
OrderedJson rest(const CsvTable &t, std::size_t row, const std::set<std::string> &used)
{
    OrderedJson details = OrderedJson::object();
    for (const std::string &column : t.header()) {
        if (!used.count(column) && !t.field(row, column).empty())
            details[column] = t.field(row, column);
    }
    return details;
}

void requireColumns(const CsvTable &t, std::initializer_list<const char *> columns,
                    const char *what)
{
    for (const char *column : columns) {
        if (!t.hasColumn(column))
            throw InputError(t.fileName(), "line 1",
                             std::string("missing column \"") + column + "\" (" + what + ")");
    }
}

// The MLPerf calibration table: one submission's score per row. Field meanings as in
// model/perf/observations.cpp.
void mlperfRows(ImportSession &s, const CsvTable &t, std::int64_t sourceId, OrderedJson &entry)
{
    static const std::set<std::string> result = {"round",
                                                 "submitter",
                                                 "system",
                                                 "benchmark",
                                                 "benchmark_definition",
                                                 "minutes",
                                                 "n_result_files",
                                                 "n_converged",
                                                 "rcp_scaling_factor",
                                                 "summary_csv_minutes",
                                                 "score_method",
                                                 "quality",
                                                 "source_url",
                                                 "global_batch_size",
                                                 "median_epoch_at_stop",
                                                 "train_samples",
                                                 "framework",
                                                 "division",
                                                 "availability"};
    std::size_t done = 0;
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        s.row(i, t.rowCount(), t.fileName());
        const auto minutes = number(t, i, "minutes");
        if (!minutes) {
            s.skip(t.fileName() + ":" + std::to_string(t.lineOf(i)), "no minutes");
            continue;
        }
        limits::requireInRange(*minutes, limits::kMinutes, t.fileName(), line(t, i),
                               "column \"minutes\"");
        SystemRecord system;
        system.name = t.field(i, "system");
        system.submitter = t.field(i, "submitter");
        OrderedJson description = OrderedJson::object();
        for (const std::string &column : t.header()) {
            if (!result.count(column) && !t.field(i, column).empty())
                description[column] = t.field(i, column);
        }
        system.description = description.dump();
        RunRecord r;
        r.systemId = s.system(system, sourceId);
        r.benchmark = t.field(i, "benchmark");
        r.metric = "score";
        r.value = *minutes;
        r.unit = "min";
        r.globalBatch = integer(t, i, "global_batch_size", limits::kBatch);
        r.framework = t.field(i, "framework");
        r.round = t.field(i, "round");
        r.tags = OrderedJson::array({"mlperf", t.field(i, "division"), t.field(i, "availability")})
                     .dump();
        OrderedJson details = OrderedJson::object();
        for (const char *column :
             {"benchmark_definition", "n_result_files", "n_converged", "rcp_scaling_factor",
              "summary_csv_minutes", "score_method", "quality", "source_url",
              "median_epoch_at_stop", "train_samples"}) {
            if (!t.field(i, column).empty())
                details[column] = t.field(i, column);
        }
        r.details = details.dump();
        r.place = line(t, i);
        s.store().addRun(r, sourceId);
        ++done;
    }
    entry["rows"] = done;
}

// Training throughput: DeepLearningExamples tables give the batch per GPU, Lambda's the global
// batch (as model/perf/observations.cpp reads them).
void throughputRows(ImportSession &s, const CsvTable &t, std::int64_t sourceId, OrderedJson &entry)
{
    static const std::set<std::string> used
        = {"model",      "gpu",  "gpu_count", "precision", "batch_size",
           "throughput", "unit", "framework", "system"};
    std::size_t done = 0;
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        s.row(i, t.rowCount(), t.fileName());
        const auto value = number(t, i, "throughput");
        if (!value) {
            s.skip(t.fileName() + ":" + std::to_string(t.lineOf(i)), "no throughput");
            continue;
        }
        limits::requireInRange(*value, limits::kThroughput, t.fileName(), line(t, i),
                               "column \"throughput\"");
        const auto count = integer(t, i, "gpu_count", limits::kGpuCount);
        const auto batch = leadingBatch(t, i, "batch_size");
        SystemRecord system;
        system.name = t.field(i, "system").empty() ? t.field(i, "gpu") : t.field(i, "system");
        system.description = OrderedJson{
            {"system", t.field(i, "system")},
            {"gpu", t.field(i, "gpu")},
            {"gpu_count",
             count ? *count : 0}}.dump();
        RunRecord r;
        r.systemId = s.system(system, sourceId);
        r.benchmark = t.field(i, "model");
        r.metric = "throughput";
        r.value = *value;
        r.unit = t.field(i, "unit").empty() ? "samples/s" : t.field(i, "unit");
        const bool perGpu
            = lower(t.field(i, "source_url")).find("deeplearningexamples") != std::string::npos;
        if (batch && count)
            r.globalBatch = perGpu ? *batch * *count : *batch;
        r.precision = t.field(i, "precision");
        r.framework = t.field(i, "framework");
        OrderedJson details = rest(t, i, used);
        details["batch_size_column"] = t.field(i, "batch_size");
        details["batch_size_is"] = perGpu ? "per GPU" : "global";
        r.details = details.dump();
        r.place = line(t, i);
        s.store().addRun(r, sourceId);
        ++done;
    }
    entry["rows"] = done;
}

// The generic table (columns documented in model/store/README.md).
void genericRows(ImportSession &s, const CsvTable &t, std::int64_t sourceId, OrderedJson &entry)
{
    static const std::set<std::string> used
        = {"system",    "submitter", "benchmark", "metric", "value", "unit", "global_batch_size",
           "precision", "framework", "round",     "date",   "kind",  "tags"};
    std::size_t done = 0;
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        s.row(i, t.rowCount(), t.fileName());
        RunRecord r;
        r.benchmark = t.field(i, "benchmark");
        if (r.benchmark.empty())
            throw InputError(t.fileName(), line(t, i), "column \"benchmark\" is empty");
        const auto value = number(t, i, "value");
        if (!value)
            throw InputError(t.fileName(), line(t, i), "column \"value\" is empty");
        r.metric = t.field(i, "metric").empty() ? "time_to_train" : t.field(i, "metric");
        // Times and rates are above zero whatever their unit; other metrics may be negative.
        const bool positive
            = r.metric == "time_to_train" || r.metric == "score" || r.metric == "throughput";
        r.value
            = limits::requireInRange(*value, positive ? limits::kPositiveValue : limits::kAnyValue,
                                     t.fileName(), line(t, i), "column \"value\"");
        r.unit = t.field(i, "unit");
        if (r.unit.empty()) {
            if (r.metric != "time_to_train" && r.metric != "score")
                throw InputError(
                    t.fileName(), line(t, i),
                    "column \"unit\" is empty (only time_to_train and score default to min)");
            r.unit = "min";
        }
        const std::string kind = lower(t.field(i, "kind"));
        if (!kind.empty() && kind != "measured" && kind != "predicted")
            throw InputError(t.fileName(), line(t, i),
                             "column \"kind\": expected measured or predicted, not \"" + kind
                                 + "\"");
        r.measured = kind != "predicted";
        if (!t.field(i, "system").empty()) {
            SystemRecord system{t.field(i, "system"), t.field(i, "submitter"), "{}", {}};
            r.systemId = s.system(system, sourceId);
        }
        r.globalBatch = integer(t, i, "global_batch_size", limits::kBatch);
        r.precision = t.field(i, "precision");
        r.framework = t.field(i, "framework");
        r.round = t.field(i, "round");
        r.date = t.field(i, "date");
        if (!t.field(i, "tags").empty()) {
            OrderedJson tags = OrderedJson::array();
            std::string tag;
            for (char c : t.field(i, "tags") + ";") {
                if (c != ';') {
                    tag += c;
                } else if (!tag.empty()) {
                    tags.push_back(tag);
                    tag.clear();
                }
            }
            r.tags = tags.dump();
        }
        const OrderedJson details = rest(t, i, used);
        if (!details.empty())
            r.details = details.dump();
        r.place = line(t, i);
        s.store().addRun(r, sourceId);
        ++done;
    }
    entry["rows"] = done;
}

// The kind of link a measurement of the link-bandwidth table is about, from its "measurement"
// column ("p2p_uni", "h2d (pinned)", "nccl_allreduce_busbw (8 GPUs, ...)", ...).
std::string linkKind(const std::string &measurement)
{
    const auto starts = [&](const char *prefix) { return measurement.rfind(prefix, 0) == 0; };
    if (starts("nccl_"))
        return "collective";
    if (starts("gpu_gpu_internode"))
        return "network";
    if (starts("p2p") || starts("gpu_gpu_via_host"))
        return "p2p";
    if (starts("h2d"))
        return "h2d";
    if (starts("d2h"))
        return "d2h";
    if (starts("device_memcpy"))
        return "d2d";
    return "other";
}

// "32000000 B", "512 MiB (largest size run)": the size in bytes, when the cell starts with one.
std::optional<std::int64_t> messageBytes(const std::string &cell)
{
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(cell, &used);
    } catch (const std::exception &) {
        return std::nullopt;
    }
    std::size_t at = cell.find_first_not_of(' ', used);
    std::string unit;
    while (at < cell.size() && std::isalpha(static_cast<unsigned char>(cell[at])))
        unit += cell[at++];
    const double scale = unit == "B"     ? 1.0
                         : unit == "KiB" ? 1024.0
                         : unit == "MiB" ? 1024.0 * 1024
                         : unit == "GiB" ? 1024.0 * 1024 * 1024
                                         : 0.0;
    if (!(v > 0) || scale == 0 || v * scale > 1e15)
        return std::nullopt;
    return std::int64_t(v * scale);
}

// Published link measurements (datasets/link_bandwidth.csv): one per row, with the system and GPU
// they were taken on, the tool, and the source.
void linkBandwidthRows(ImportSession &s, const CsvTable &t, std::int64_t sourceId,
                       OrderedJson &entry)
{
    static const std::set<std::string> used
        = {"link", "measurement", "gb_per_s", "latency_us", "tool", "message_size", "system"};
    std::size_t done = 0;
    for (std::size_t i = 0; i < t.rowCount(); ++i) {
        s.row(i, t.rowCount(), t.fileName());
        const auto gbps = number(t, i, "gb_per_s");
        const auto latency = t.hasColumn("latency_us") ? number(t, i, "latency_us") : std::nullopt;
        if (!gbps && !latency) {
            s.skip(t.fileName() + ":" + std::to_string(t.lineOf(i)),
                   "neither gb_per_s nor latency_us");
            continue;
        }
        if (gbps)
            limits::requireInRange(*gbps, limits::kBandwidth, t.fileName(), line(t, i),
                                   "column \"gb_per_s\"");
        if (latency)
            limits::requireInRange(*latency, limits::kMicroseconds, t.fileName(), line(t, i),
                                   "column \"latency_us\"");
        BandwidthRecord b;
        if (!t.field(i, "system").empty()) {
            SystemRecord system;
            system.name = t.field(i, "system");
            system.description
                = OrderedJson{{"system", t.field(i, "system")}, {"gpu", t.field(i, "gpu")}}.dump();
            b.systemId = s.system(system, sourceId);
        }
        b.tool = t.field(i, "tool");
        b.test = t.field(i, "measurement");
        b.link = linkKind(b.test);
        b.gbps = gbps;
        b.latencyUs = latency;
        if (t.hasColumn("message_size"))
            b.messageBytes = messageBytes(t.field(i, "message_size"));
        OrderedJson details = rest(t, i, used);
        details["link_name"] = t.field(i, "link");
        b.details = details.dump();
        b.place = line(t, i);
        s.store().addBandwidth(b, sourceId);
        ++done;
    }
    entry["measurements"] = done;
}

} // namespace

void importCsvFile(ImportSession &session, const std::string &path, const std::string &text)
{
    const CsvTable t = CsvTable::parse(text, path);
    const char *kind = nullptr;
    if (t.hasColumn("minutes") && t.hasColumn("benchmark") && t.hasColumn("system")) {
        requireColumns(t, {"round", "submitter", "system", "benchmark", "minutes"},
                       "expected the header of an MLPerf results table");
        kind = "mlperf_csv";
    } else if (t.hasColumn("throughput") && t.hasColumn("model")) {
        requireColumns(t, {"model", "gpu", "gpu_count", "batch_size", "throughput"},
                       "expected the header of a training-throughput table");
        kind = "throughput_csv";
    } else if (t.hasColumn("gb_per_s") && t.hasColumn("measurement")) {
        requireColumns(t, {"link", "measurement", "gb_per_s", "tool", "source_url"},
                       "expected the header of a link-bandwidth table");
        kind = "link_bandwidth_csv";
    } else if (t.hasColumn("benchmark") && t.hasColumn("value")) {
        kind = "generic_csv";
    } else {
        throw InputError(path, "line 1",
                         "not a known table: expected an MLPerf results table (round, submitter, "
                         "system, benchmark, minutes), a throughput table (model, gpu, gpu_count, "
                         "batch_size, throughput), a link-bandwidth table (link, measurement, "
                         "gb_per_s, tool, source_url) or a generic table (benchmark, value, ...)");
    }
    const auto sourceId = session.newSource(path, sha256Hex(text), kind);
    if (!sourceId)
        return;
    OrderedJson entry = {{"kind", kind}, {"path", validUtf8(path)}};
    if (std::string(kind) == "mlperf_csv")
        mlperfRows(session, t, *sourceId, entry);
    else if (std::string(kind) == "throughput_csv")
        throughputRows(session, t, *sourceId, entry);
    else if (std::string(kind) == "link_bandwidth_csv")
        linkBandwidthRows(session, t, *sourceId, entry);
    else
        genericRows(session, t, *sourceId, entry);
    session.report().imported.push_back(std::move(entry));
}

} // namespace clab::store
