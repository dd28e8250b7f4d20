#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::store {

class ImportSession;

// One MLPerf Training result log (result_N.txt).
struct MlperfRun
{
    std::string file;
    std::string failure; // empty: converged; else why the run counts as failed
    double startMs = 0;
    double stopMs = 0;
    int stopLine = 0;
    std::optional<long long> globalBatch;
    std::optional<int> epochs; // the last epoch_num logged
    std::vector<double> throughput;
    std::string benchmark; // submission_benchmark
    std::string division;
    std::string org; // submission_org

    bool ok() const { return failure.empty(); }
    double minutes() const { return (stopMs - startMs) / 60000.0; }
};

// Reads `:::MLLOG {json}` lines and v0.6's `:::MLL <seconds> <key>: {json}` lines. A run without
// run_start or run_stop, with a status other than success, or with a malformed log line fails (as
// in mlcommons/logging's result_summarizer, where a parse error drops the run).
MlperfRun parseMlperfLog(std::string_view text, const std::string &file);

// The MLPerf Training round a run made on `startMs` (Unix ms) was submitted to: the first round
// published on or after that day ("3.0"), or "" before v0.5 or after the last round known here.
// For logs whose path carries no vX.Y folder.
std::string roundOfRunDate(double startMs);

// result_summarizer's rule: sort the converged runs' minutes, drop the `dropped` fastest (4 for
// unet3d, else 1) and as many slowest, where the failed runs count as the slowest. nullopt when
// more runs failed than may be dropped or nothing is left.
std::optional<double> olympicScore(std::vector<double> minutes, int failed, int dropped);
int droppedRunsPerSide(const std::string &benchmark);

// Imports one results/<system>/<benchmark> folder with its systems/<system>.json.
void importMlperfSubmission(ImportSession &session, const std::filesystem::path &benchmarkDir);
// Imports a systems/*.json on its own.
void importMlperfSystem(ImportSession &session, const std::filesystem::path &file);

} // namespace clab::store
