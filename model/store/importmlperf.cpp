#include "store/importmlperf.h"

#include "store/importsession.h"
#include "store/sha256.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"
#include "util/limits.h"
#include "util/utf8.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <numeric>

namespace clab::store {

namespace fs = std::filesystem;

namespace {

// A v0.6 line: ":::MLL 1560849031.334 run_start: {json}" (time in seconds).
bool parseOldLine(std::string_view rest, double &timeMs, std::string &key, std::string_view &json)
{
    const auto space = rest.find(' ');
    if (space == std::string_view::npos)
        return false;
    char *end = nullptr;
    const std::string time(rest.substr(0, space));
    const double seconds = std::strtod(time.c_str(), &end);
    if (end == time.c_str() || *end != '\0')
        return false;
    rest = rest.substr(space + 1);
    const auto colon = rest.find(": ");
    if (colon == std::string_view::npos)
        return false;
    timeMs = seconds * 1000.0;
    key = std::string(rest.substr(0, colon));
    json = rest.substr(colon + 2);
    return true;
}

std::string stringValue(const Json &j)
{
    return j.is_string() ? j.get<std::string>() : std::string();
}

std::string isoDate(double ms)
{
    const std::time_t t = std::time_t(ms / 1000.0);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[16];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &tm);
    return buffer;
}

std::string roundOf(const std::string &folder)
{
    // "v1.0" → "1.0"; anything else is not a round folder.
    if (folder.size() > 1 && folder[0] == 'v'
        && std::isdigit(static_cast<unsigned char>(folder[1])))
        return folder.substr(1);
    return {};
}

} // namespace

std::string roundOfRunDate(double startMs)
{
    // Publication days of the MLPerf Training rounds (MLCommons results announcements,
    // mlcommons.org/benchmarks/training). Runs are made before the submission deadline, some
    // weeks before the round is published, so a run belongs to the first round published after it.
    static const std::pair<const char *, const char *> rounds[] = {
        {"2018-12-12", "0.5"}, {"2019-07-10", "0.6"}, {"2020-07-29", "0.7"}, {"2021-06-30", "1.0"},
        {"2021-12-01", "1.1"}, {"2022-06-29", "2.0"}, {"2022-11-09", "2.1"}, {"2023-06-27", "3.0"},
        {"2023-11-08", "3.1"}, {"2024-06-12", "4.0"}, {"2024-11-13", "4.1"}, {"2025-06-04", "5.0"},
        {"2025-11-12", "5.1"}};
    if (startMs <= 0)
        return {};
    const std::string day = isoDate(startMs);
    if (day < "2018-05-01") // before MLPerf Training existed: a clock that was not set
        return {};
    for (const auto &[published, round] : rounds) {
        if (day <= published)
            return round;
    }
    return {};
}

MlperfRun parseMlperfLog(std::string_view text, const std::string &file)
{
    MlperfRun run;
    run.file = file;
    bool started = false, stopped = false;
    std::string status;
    int lineNo = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto eol = text.find('\n', pos);
        const std::string_view line
            = text.substr(pos, eol == std::string_view::npos ? text.npos : eol - pos);
        pos = eol == std::string_view::npos ? text.size() : eol + 1;
        ++lineNo;
        double timeMs = 0;
        std::string key;
        std::string_view jsonText;
        if (const auto at = line.find(":::MLLOG "); at != std::string_view::npos) {
            jsonText = line.substr(at + 9);
        } else if (const auto old = line.find(":::MLL "); old != std::string_view::npos) {
            if (!parseOldLine(line.substr(old + 7), timeMs, key, jsonText)) {
                run.failure = "line " + std::to_string(lineNo) + ": malformed :::MLL record";
                return run;
            }
        } else {
            continue;
        }
        Json j = tryParseJson(jsonText);
        if (j.is_discarded() || !j.is_object()) {
            run.failure = "line " + std::to_string(lineNo) + ": malformed log record (not JSON)";
            return run;
        }
        if (key.empty()) {
            key = stringValue(j.value("key", Json()));
            const Json t = j.value("time_ms", Json());
            if (!t.is_number()) {
                run.failure = "line " + std::to_string(lineNo) + ": log record without time_ms";
                return run;
            }
            timeMs = t.get<double>();
        }
        const Json value = j.value("value", Json());
        const Json metadata = j.value("metadata", Json::object());
        if (metadata.is_object() && metadata.contains("epoch_num")
            && metadata["epoch_num"].is_number()) {
            const double epoch = metadata["epoch_num"].get<double>();
            if (!(epoch >= 0 && epoch <= 1e9)) {
                run.failure = "line " + std::to_string(lineNo) + ": epoch_num "
                              + metadata["epoch_num"].dump() + " is not an epoch number";
                return run;
            }
            run.epochs = std::max(run.epochs.value_or(0), int(epoch));
        }
        if (key == "run_start" && !started) {
            started = true;
            run.startMs = timeMs;
        } else if (key == "run_stop" && !stopped) {
            stopped = true;
            run.stopMs = timeMs;
            run.stopLine = lineNo;
            if (metadata.is_object())
                status = stringValue(metadata.value("status", Json()));
        } else if (key == "global_batch_size" && value.is_number()) {
            if (const std::string p
                = limits::wholeRangeProblem(value.get<double>(), limits::kBatch);
                !p.empty()) {
                run.failure = "line " + std::to_string(lineNo) + ": global_batch_size: " + p;
                return run;
            }
            run.globalBatch = value.get<long long>();
        } else if (key == "throughput" && value.is_number()) {
            if (const std::string p
                = limits::rangeProblem(value.get<double>(), limits::kThroughput);
                !p.empty()) {
                run.failure = "line " + std::to_string(lineNo) + ": throughput: " + p;
                return run;
            }
            run.throughput.push_back(value.get<double>());
        } else if (key == "submission_benchmark") {
            run.benchmark = stringValue(value);
        } else if (key == "submission_division") {
            run.division = stringValue(value);
        } else if (key == "submission_org") {
            run.org = stringValue(value);
        }
    }
    if (!started)
        run.failure = "run_start not recorded";
    else if (!stopped)
        run.failure = "run_stop not recorded (log cut short?)";
    else if (!status.empty() && status != "success")
        run.failure
            = "line " + std::to_string(run.stopLine) + ": run_stop status \"" + status + "\"";
    else if (run.stopMs < run.startMs)
        run.failure = "run_stop before run_start";
    else if (const std::string p = limits::rangeProblem(run.minutes(), limits::kMinutes);
             !p.empty())
        run.failure = "run_stop - run_start: " + p;
    return run;
}

int droppedRunsPerSide(const std::string &benchmark)
{
    return benchmark == "unet3d" ? 4 : 1;
}

std::optional<double> olympicScore(std::vector<double> minutes, int failed, int dropped)
{
    if (failed > dropped)
        return std::nullopt;
    std::sort(minutes.begin(), minutes.end());
    const std::ptrdiff_t first = dropped;
    const std::ptrdiff_t last = std::ptrdiff_t(minutes.size()) - (dropped - failed);
    if (last <= first)
        return std::nullopt;
    const double sum = std::accumulate(minutes.begin() + first, minutes.begin() + last, 0.0);
    return sum / double(last - first);
}

namespace {

struct SystemFile
{
    std::int64_t id = 0;
    std::string framework;
};

// v0.6 system files are "key: {json}" lines ("platform: {\"value\": \"1xNVIDIA DGX-2\", ...}").
// Gives {key: value, ...} with the framework pulled out of the Python-style "entry" string.
Json v06SystemFile(const std::string &text)
{
    Json out = Json::object();
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto eol = text.find('\n', pos);
        if (eol == std::string::npos)
            eol = text.size();
        const std::string line = text.substr(pos, eol - pos);
        pos = eol + 1;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        const auto colon = line.find(": ");
        const Json record = colon == std::string::npos ? Json(Json::value_t::discarded)
                                                       : tryParseJson(line.substr(colon + 2));
        if (record.is_discarded() || !record.is_object())
            return Json(Json::value_t::discarded);
        out[line.substr(0, colon)] = record.value("value", Json());
    }
    const std::string entry = stringValue(out.value("entry", Json()));
    const std::string key = "'framework': '";
    if (const auto at = entry.find(key); at != std::string::npos)
        out["framework"]
            = entry.substr(at + key.size(), entry.find('\'', at + key.size()) - at - key.size());
    if (out.contains("org"))
        out["submitter"] = out["org"];
    return out.empty() ? Json(Json::value_t::discarded) : out;
}

SystemFile addSystemFile(ImportSession &session, const fs::path &file, const std::string &submitter)
{
    const std::string text = readTextFile(file.string());
    requireUtf8(text, file.string()); // keys of v0.6 files are taken as they are
    Json j = tryParseJson(text);
    if (j.is_discarded())
        j = v06SystemFile(text);
    if (j.is_discarded())
        j = parseJson(text, file.string()); // throws, naming the line and column
    if (!j.is_object())
        throw InputError(file.string(), "/", "expected an MLPerf system description object");
    const std::string hash = sha256Hex(text);
    std::int64_t sourceId = session.store().findSource(hash).value_or(0);
    if (sourceId == 0)
        sourceId = session.store().addSource({file.string(), hash, "mlperf_system"});
    SystemRecord system;
    system.name = j.contains("system_name") ? stringValue(j["system_name"]) : file.stem().string();
    system.submitter = j.contains("submitter") ? stringValue(j["submitter"]) : submitter;
    system.description = j.dump();
    return {session.system(system, sourceId),
            j.contains("framework") ? stringValue(j["framework"]) : std::string()};
}

} // namespace

void importMlperfSystem(ImportSession &session, const fs::path &file)
{
    const std::string hash = sha256Hex(readTextFile(file.string()));
    if (session.store().findSource(hash)) {
        session.skip(file.string(), "already imported (same SHA-256)");
        return;
    }
    const SystemFile s = addSystemFile(session, file, {});
    session.report().imported.push_back(
        {{"kind", "mlperf_system"}, {"path", validUtf8(file.string())}, {"system_id", s.id}});
}

void importMlperfSubmission(ImportSession &session, const fs::path &dir)
{
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.rfind("result_", 0) == 0
            && entry.path().extension() == ".txt")
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    // The submission's identity: every result file's name and hash, and the scaling factor file.
    std::string manifest;
    std::vector<MlperfRun> runs;
    for (std::size_t i = 0; i < files.size(); ++i) {
        session.row(i, files.size(), dir.string());
        const std::string text = readTextFile(files[i].string());
        manifest += files[i].filename().string() + " " + sha256Hex(text) + "\n";
        runs.push_back(parseMlperfLog(text, validUtf8(files[i].filename().string())));
    }
    double scaling = 1.0;
    const fs::path scalingFile = dir / "scaling.json";
    if (fs::exists(scalingFile)) {
        const std::string text = readTextFile(scalingFile.string());
        manifest += "scaling.json " + sha256Hex(text) + "\n";
        const Json j = parseJson(text, scalingFile.string());
        ObjectReader reader(j, "", scalingFile.string());
        scaling = limits::requireInRange(reader.positive("scaling_factor"), limits::kScalingFactor,
                                         scalingFile.string(), "at /scaling_factor", "");
    }
    const auto sourceId = session.newSource(dir.string(), sha256Hex(manifest), "mlperf");
    if (!sourceId)
        return;

    // Names taken from folder names, which are bytes: they go into JSON and the store as text.
    const std::string benchmark = validUtf8(dir.filename().string());
    const fs::path systemDir = dir.parent_path();
    const std::string systemName = validUtf8(systemDir.filename().string());
    const fs::path resultsDir = systemDir.parent_path();
    std::string submitter, round;
    SystemFile system;
    if (resultsDir.filename() == "results") {
        const fs::path submitterDir = resultsDir.parent_path();
        submitter = validUtf8(submitterDir.filename().string());
        round = validUtf8(roundOf(submitterDir.parent_path().filename().string()));
        const fs::path systemJson = submitterDir / "systems" / (systemName + ".json");
        if (fs::exists(systemJson))
            system = addSystemFile(session, systemJson, submitter);
    }
    // A folder that does not say: the logs do (submission_org, and the run's date for the round).
    for (const MlperfRun &run : runs) {
        if (submitter.empty() && !run.org.empty())
            submitter = validUtf8(run.org);
        if (round.empty())
            round = roundOfRunDate(run.startMs);
    }
    if (system.id == 0) {
        SystemRecord record{
            systemName, submitter, OrderedJson{{"system_name", systemName}}.dump(), {}};
        system.id = session.system(record, *sourceId);
    }

    std::vector<double> minutes;
    OrderedJson failedRuns = OrderedJson::array();
    std::string date;
    for (const MlperfRun &run : runs) {
        if (!run.ok()) {
            failedRuns.push_back({{"file", run.file}, {"reason", run.failure}});
            session.skip((dir / run.file).string(), "run counted as failed: " + run.failure);
            continue;
        }
        minutes.push_back(run.minutes());
        if (date.empty())
            date = isoDate(run.startMs);
        RunRecord r;
        r.systemId = system.id;
        r.benchmark = benchmark;
        r.metric = "time_to_train";
        r.value = run.minutes();
        r.unit = "min";
        if (run.globalBatch)
            r.globalBatch = *run.globalBatch;
        r.framework = system.framework;
        r.round = round;
        r.date = isoDate(run.startMs);
        r.tags = OrderedJson::array({"mlperf", run.division}).dump();
        OrderedJson details = {{"file", run.file}};
        if (run.epochs)
            details["epochs"] = *run.epochs;
        if (!run.throughput.empty()) {
            details["throughput_mean"]
                = std::accumulate(run.throughput.begin(), run.throughput.end(), 0.0)
                  / double(run.throughput.size());
            details["throughput_lines"] = run.throughput.size();
        }
        r.details = details.dump();
        r.place = run.file + " line " + std::to_string(run.stopLine);
        session.store().addRun(r, *sourceId);
    }
    const int failed = int(runs.size() - minutes.size());
    const int dropped = droppedRunsPerSide(benchmark);
    const auto score = olympicScore(minutes, failed, dropped);
    OrderedJson entry = {{"kind", "mlperf"},
                         {"round", round},
                         {"submitter", submitter},
                         {"system", systemName},
                         {"benchmark", benchmark}};
    if (!score) {
        session.skip(dir.string(), "no score: " + std::to_string(failed) + " of "
                                       + std::to_string(runs.size())
                                       + " runs failed (result_summarizer allows "
                                       + std::to_string(dropped) + ")");
        entry["score_minutes"] = nullptr;
    } else {
        RunRecord r;
        r.systemId = system.id;
        r.benchmark = benchmark;
        r.metric = "score";
        r.value = *score * scaling;
        r.unit = "min";
        r.framework = system.framework;
        r.round = round;
        r.date = date;
        r.tags = OrderedJson::array({"mlperf"}).dump();
        r.details = OrderedJson{
            {"rule", "result_summarizer olympic mean"},
            {"runs", runs.size()},
            {"failed", failedRuns},
            {"dropped_per_side", dropped},
            {"scaling_factor",
             scaling}}.dump();
        r.place = benchmark;
        session.store().addRun(r, *sourceId);
        entry["score_minutes"] = *score * scaling;
    }
    entry["runs"] = runs.size();
    entry["converged"] = minutes.size();
    if (scaling != 1.0)
        entry["scaling_factor"] = scaling;
    session.report().imported.push_back(std::move(entry));
}

} // namespace clab::store
