#pragma once

#include "util/jsonreader.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clab::store {

class Store;

// What a malformed file (one whose reader throws InputError) does to the rest of an import.
enum class OnBadFile {
    // Undone alone (a savepoint) and listed in `skipped` when found inside a folder; named
    // directly, it throws and nothing is imported. What importPaths always did: callers that read
    // only `skipped` (the GUI's import) still see every bad file.
    SkipInFolders,
    // Undone alone and listed in `failed` with its place, wherever it came from; the good files
    // are imported (`composelab import`).
    ReportEach,
    // Throws, and nothing is imported (`composelab import --all-or-nothing`).
    RollBackAll,
};

struct ImportControl
{
    // Set from another thread to stop: checked between rows; the whole import is rolled back.
    const std::atomic<bool> *cancel = nullptr;
    // Rows done and rows in the file being imported (called between rows; may be called often).
    std::function<void(std::size_t done, std::size_t total, const std::string &file)> progress;
    OnBadFile onBadFile = OnBadFile::SkipInFolders;
    // The machine the tool outputs (nccl-tests, bandwidthTest, p2pBandwidthLatencyTest,
    // nvbandwidth) were taken on: their measurements are stored as that system's, so that a
    // design system of the same name shows them beside the model. "" leaves them without one.
    std::string system;
};

class ImportCancelled : public std::runtime_error
{
public:
    ImportCancelled()
        : std::runtime_error("import cancelled; nothing was imported")
    {
    }
};

struct Skipped
{
    std::string path;
    std::string reason;
};

// A file that was not imported because it is malformed: `reason` gives the place ("line 24: ...",
// "at /nvbandwidth/testcases/3: ...") and what was expected, without repeating the path.
struct Failed
{
    std::string path;
    std::string reason;
};

struct ImportReport
{
    // One object per file or MLPerf submission, with "kind"; tool outputs also carry
    // "measurements" and, when there is something to say, "implausible" (a count), "notes" (an
    // array of sentences) and "warning".
    std::vector<OrderedJson> imported;
    std::vector<Skipped> skipped; // already imported, not recognised, failed MLPerf runs
    std::vector<Failed> failed;   // only with OnBadFile::ReportEach
    // {"imported": [...], "skipped": [{"path", "reason"}], "failed": [{"path", "reason"}]}
    OrderedJson toJson() const;
};

// Imports files and folders in one transaction. Folders are walked (MLPerf results trees, CSV
// tables, tool outputs); what a malformed file does to the rest is `control.onBadFile`. A database
// error or a cancel always throws (StoreError, ImportCancelled) and leaves the store as it was.
ImportReport importPaths(Store &store, const std::vector<std::string> &paths,
                         const ImportControl &control = {});

} // namespace clab::store
