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

struct ImportControl
{
    // Set from another thread to stop: checked between rows; the whole import is rolled back.
    const std::atomic<bool> *cancel = nullptr;
    // Rows done and rows in the file being imported (called between rows; may be called often).
    std::function<void(std::size_t done, std::size_t total, const std::string &file)> progress;
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

struct ImportReport
{
    std::vector<OrderedJson> imported; // one object per file or MLPerf submission, with "kind"
    std::vector<Skipped> skipped;
    // {"imported": [...], "skipped": [{"path": ..., "reason": ...}]}
    OrderedJson toJson() const;
};

// Imports files and folders in one transaction. Folders are walked (MLPerf results trees, CSV
// tables, tool outputs); a bad file found inside a folder is undone alone and reported in
// `skipped` with the reason and line. A bad file named directly, a database error or a cancel
// throws (InputError, StoreError, ImportCancelled) and leaves the store as it was.
ImportReport importPaths(Store &store, const std::vector<std::string> &paths,
                         const ImportControl &control = {});

} // namespace clab::store
