#include "store/seed.h"

#include "store/importsession.h"
#include "store/importtext.h"
#include "store/store.h"
#include "util/embedded.h"

#include <cstdlib>
#include <filesystem>

namespace clab::store {

ImportReport importDatasets(Store &store, const ImportControl &control)
{
    ImportReport report;
    ImportSession session(store, control, report);
    Transaction transaction(store);
    for (const EmbeddedFile &file : embeddedFiles()) {
        const std::string path(file.path);
        if (path.rfind("datasets/", 0) == 0 && path.size() > 4
            && path.compare(path.size() - 4, 4, ".csv") == 0)
            importCsvFile(session, path, std::string(file.text));
    }
    session.row(0, 0, {});
    transaction.commit();
    return report;
}

bool seedingDisabled()
{
    const char *empty = std::getenv("COMPOSELAB_EMPTY_STORE");
    return empty && *empty && std::string(empty) != "0";
}

bool seedIfNew(const std::string &path)
{
    std::error_code ec;
    if (seedingDisabled() || std::filesystem::exists(path, ec))
        return false;
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);
    // Made beside and renamed into place when complete: a failure or a kill half-way leaves no
    // empty store behind that would never be seeded again.
    const std::string partial = path + ".seeding";
    std::filesystem::remove(partial, ec);
    try {
        Store store(partial);
        importDatasets(store);
    } catch (...) {
        for (const char *suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(partial + suffix, ec);
        throw;
    }
    for (const char *suffix : {"-wal", "-shm"})
        std::filesystem::remove(partial + suffix, ec); // empty after the close's checkpoint
    if (std::filesystem::exists(path, ec)) {           // another process seeded it meanwhile
        std::filesystem::remove(partial, ec);
        return false;
    }
    std::filesystem::rename(partial, path);
    return true;
}

} // namespace clab::store
