#include "store/import.h"

#include "store/importmlperf.h"
#include "store/importsession.h"
#include "store/importtext.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/utf8.h"

#include <algorithm>
#include <filesystem>

namespace clab::store {

namespace fs = std::filesystem;

OrderedJson ImportReport::toJson() const
{
    OrderedJson out;
    out["imported"] = imported;
    out["skipped"] = OrderedJson::array();
    for (const Skipped &s : skipped)
        out["skipped"].push_back({{"path", s.path}, {"reason", s.reason}});
    return out;
}

void ImportSession::row(std::size_t done, std::size_t total, const std::string &file)
{
    if (m_control.cancel && m_control.cancel->load(std::memory_order_relaxed))
        throw ImportCancelled();
    if (m_control.progress)
        m_control.progress(done, total, file);
}

std::optional<std::int64_t> ImportSession::newSource(const std::string &path,
                                                     const std::string &sha256,
                                                     const std::string &kind)
{
    if (m_store.findSource(sha256)) {
        skip(path, "already imported (same SHA-256)");
        return std::nullopt;
    }
    return m_store.addSource({path, sha256, kind});
}

std::int64_t ImportSession::system(const SystemRecord &system, std::int64_t sourceId)
{
    std::string key = system.name;
    key += '\0';
    key += system.submitter;
    key += '\0';
    key += system.description;
    const auto it = m_systems.find(key);
    if (it != m_systems.end())
        return it->second;
    const std::int64_t id = m_store.addSystem(system, sourceId);
    m_systems.emplace(std::move(key), id);
    return id;
}

namespace {

bool isHidden(const fs::path &p)
{
    const std::string name = p.filename().string();
    return !name.empty() && name[0] == '.';
}

bool isResultLog(const fs::path &p)
{
    const std::string name = p.filename().string();
    return name.rfind("result_", 0) == 0 && p.extension() == ".txt";
}

bool isSystemJson(const fs::path &p)
{
    return p.extension() == ".json" && p.parent_path().filename() == "systems";
}

// One file; throws InputError for a malformed one.
void importFile(ImportSession &session, const fs::path &file)
{
    const std::string path = file.string();
    if (isSystemJson(file)) {
        importMlperfSystem(session, file);
        return;
    }
    const std::string text = readTextFile(path);
    const TextKind kind = sniff(path, text);
    if (kind != TextKind::Unknown)
        requireUtf8(text, path); // its names and columns end up in JSON, which must be UTF-8
    switch (kind) {
    case TextKind::Csv:
        importCsvFile(session, path, text);
        return;
    case TextKind::NcclTests:
        importNcclTests(session, path, text);
        return;
    case TextKind::P2pMatrix:
        importP2pMatrix(session, path, text);
        return;
    case TextKind::BandwidthTest:
        importBandwidthTest(session, path, text);
        return;
    case TextKind::Nvbandwidth:
        importNvbandwidth(session, path, text);
        return;
    case TextKind::MlperfLog:
        importMlperfSubmission(session, file.parent_path());
        return;
    case TextKind::Unknown:
        break;
    }
    session.skip(path, "not a recognised format (MLPerf results, CSV table, nccl-tests, "
                       "p2pBandwidthLatencyTest, bandwidthTest or nvbandwidth output)");
}

// Inside a folder, a bad file is undone alone (a savepoint) and reported.
template<typename F>
void isolated(ImportSession &session, const std::string &path, F &&work)
{
    session.store().savepoint();
    try {
        work();
        session.store().releaseSavepoint();
    } catch (const InputError &e) {
        session.store().rollbackToSavepoint();
        session.skip(path, e.what());
    }
}

void importFolder(ImportSession &session, const fs::path &root)
{
    std::vector<fs::path> benchmarkDirs, files;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
         ++it) {
        if (isHidden(it->path())) {
            if (it->is_directory())
                it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file())
            continue;
        if (isResultLog(it->path())) {
            benchmarkDirs.push_back(it->path().parent_path());
            continue;
        }
        files.push_back(it->path());
    }
    std::sort(benchmarkDirs.begin(), benchmarkDirs.end());
    benchmarkDirs.erase(std::unique(benchmarkDirs.begin(), benchmarkDirs.end()),
                        benchmarkDirs.end());
    std::sort(files.begin(), files.end());
    std::vector<fs::path> systemsUsed;
    for (const fs::path &dir : benchmarkDirs) {
        isolated(session, dir.string(), [&] { importMlperfSubmission(session, dir); });
        // systems/<system>.json two levels above results/<system>/<benchmark>
        systemsUsed.push_back(dir.parent_path().parent_path().parent_path() / "systems"
                              / (dir.parent_path().filename().string() + ".json"));
    }
    for (const fs::path &file : files) {
        const bool inSubmission
            = std::any_of(benchmarkDirs.begin(), benchmarkDirs.end(),
                          [&](const fs::path &d) { return file.parent_path() == d; });
        if (inSubmission
            || std::find(systemsUsed.begin(), systemsUsed.end(), file) != systemsUsed.end())
            continue; // scaling.json, notes beside the logs; system files read with their results
        isolated(session, file.string(), [&] { importFile(session, file); });
    }
}

} // namespace

ImportReport importPaths(Store &store, const std::vector<std::string> &paths,
                         const ImportControl &control)
{
    ImportReport report;
    ImportSession session(store, control, report);
    Transaction transaction(store);
    for (const std::string &path : paths) {
        std::error_code ec;
        if (fs::is_directory(path, ec))
            importFolder(session, path);
        else if (fs::exists(path, ec))
            importFile(session, path);
        else
            throw InputError(path, "", "no such file or folder");
    }
    session.row(0, 0, {}); // a cancel that came during the last file still wins
    transaction.commit();
    return report;
}

} // namespace clab::store
