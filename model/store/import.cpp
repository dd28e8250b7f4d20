#include "store/import.h"

#include "store/importmlperf.h"
#include "store/importsession.h"
#include "store/importtext.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/text.h"
#include "util/utf8.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace clab::store {

namespace fs = std::filesystem;

OrderedJson ImportReport::toJson() const
{
    OrderedJson out;
    out["imported"] = imported;
    out["skipped"] = OrderedJson::array();
    for (const Skipped &s : skipped)
        out["skipped"].push_back({{"path", s.path}, {"reason", s.reason}});
    out["failed"] = OrderedJson::array();
    for (const Failed &f : failed)
        out["failed"].push_back({{"path", f.path}, {"reason", f.reason}});
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

void ImportSession::measurement(BandwidthRecord b, std::int64_t sourceId)
{
    if (b.systemId == 0 && !m_control.system.empty())
        b.systemId = system({m_control.system, {}, "{}", {}}, sourceId);
    m_store.addBandwidth(b, sourceId);
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

// An MLPerf submitter folder holds `results/`, `systems/` and `benchmarks/`, the training code:
// thousands of scripts, configs and READMEs that are not results.
bool isMlperfCodeFolder(const fs::path &dir)
{
    std::error_code ec;
    return dir.filename() == "benchmarks"
           && (fs::is_directory(dir.parent_path() / "results", ec)
               || fs::is_directory(dir.parent_path() / "systems", ec));
}

// Source code, scripts and configuration: never a tool's output, so a folder walk passes them over
// unread. Text files (.txt, .log, .md, no extension) are read: pasted outputs live there.
bool isSourceCode(const fs::path &file)
{
    static const std::set<std::string, std::less<>> extensions{
        ".py",  ".pyc", ".sh",   ".bash",  ".c",     ".cc",    ".cpp",   ".cxx", ".h",
        ".hh",  ".hpp", ".cu",   ".cuh",   ".java",  ".go",    ".rs",    ".js",  ".ts",
        ".pl",  ".rb",  ".lua",  ".ipynb", ".cmake", ".mk",    ".yaml",  ".yml", ".toml",
        ".cfg", ".ini", ".conf", ".patch", ".diff",  ".proto", ".pbtxt", ".sub", ".slurm"};
    static const std::set<std::string, std::less<>> names{
        "Dockerfile", "Makefile", "CMakeLists.txt", "requirements.txt", "LICENSE", "NOTICE"};
    return extensions.count(asciiLower(file.extension().string())) > 0
           || names.count(file.filename().string()) > 0;
}

// Whether a folder between `root` and `file` is an MLPerf code folder ("benchmarks",
// "implementations"): results live under results/<system>/<benchmark>/.
bool insideCodeTree(const fs::path &file, const fs::path &root)
{
    const fs::path relative = file.parent_path().lexically_relative(root);
    for (const fs::path &part : relative) {
        if (part == "implementations" || part == "benchmarks")
            return true;
    }
    return false;
}

std::size_t countFiles(const fs::path &dir)
{
    std::size_t n = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        n += it->is_regular_file(ec) ? 1 : 0;
    return n;
}

const char *const kRecognised = "MLPerf results, a CSV table, or nccl-tests, "
                                "p2pBandwidthLatencyTest, bandwidthTest or nvbandwidth output";

// One file; throws InputError for a malformed one. `named`: given on the command line rather than
// found in a folder.
void importFile(ImportSession &session, const fs::path &file, bool named)
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
    case TextKind::NvbandwidthJson:
        importNvbandwidthJson(session, path, text);
        return;
    case TextKind::MlperfLog:
        importMlperfSubmission(session, file.parent_path());
        return;
    case TextKind::Unknown:
        break;
    }
    // A file the user named is one they expect to land: saying nothing would hide a typo or a
    // wrong file. Found in a folder it is just another file beside the results.
    if (named && session.onBadFile() != OnBadFile::SkipInFolders)
        throw InputError(path, "", std::string("not a recognised format; expected ") + kRecognised);
    session.skip(path, std::string("not a recognised format (") + kRecognised + ")");
}

// The reason of a failed file: its place and message, or, when the error is in another file of
// the unit (a result log of an MLPerf submission folder), the whole message naming that file.
std::string failureReason(const InputError &e, const std::string &path)
{
    if (e.file() != path)
        return e.what();
    return e.place().empty() ? e.message() : e.place() + ": " + e.message();
}

// One unit of the import (a file, or an MLPerf submission folder), undone alone when it is bad
// unless the policy says the whole import goes (session.onBadFile()).
template<typename F>
void isolated(ImportSession &session, const std::string &path, bool named, F &&work)
{
    const OnBadFile policy = session.onBadFile();
    if (policy == OnBadFile::RollBackAll || (named && policy == OnBadFile::SkipInFolders)) {
        work();
        return;
    }
    session.store().savepoint();
    try {
        work();
        session.store().releaseSavepoint();
    } catch (const std::filesystem::filesystem_error &e) {
        // An unreadable file or folder is one bad unit like a malformed one.
        session.store().rollbackToSavepoint();
        session.forgetSystems();
        const std::string why = std::string("cannot read: ") + e.code().message();
        if (policy == OnBadFile::ReportEach)
            session.fail(path, why);
        else
            session.skip(path, why);
    } catch (const InputError &e) {
        session.store().rollbackToSavepoint();
        session.forgetSystems(); // the ids it cached may have been rolled back with the file
        if (policy == OnBadFile::ReportEach)
            session.fail(path, failureReason(e, path));
        else
            session.skip(path, e.what());
    }
}

void importFolder(ImportSession &session, const fs::path &root)
{
    std::vector<fs::path> benchmarkDirs, files;
    std::size_t passedOver = 0;
    for (auto it
         = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
         it != fs::recursive_directory_iterator(); ++it) {
        if (isHidden(it->path())) {
            if (it->is_directory())
                it.disable_recursion_pending();
            continue;
        }
        if (it->is_directory() && isMlperfCodeFolder(it->path())) {
            passedOver += countFiles(it->path());
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file())
            continue;
        if (isResultLog(it->path())) {
            // A log inside a code tree (benchmarks/<b>/implementations/...) is a sample or a
            // test input of the training code, not a submitted result.
            if (insideCodeTree(it->path(), root))
                ++passedOver;
            else
                benchmarkDirs.push_back(it->path().parent_path());
            continue;
        }
        if (isSourceCode(it->path())) {
            ++passedOver;
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
        isolated(session, dir.string(), false, [&] { importMlperfSubmission(session, dir); });
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
        isolated(session, file.string(), false, [&] { importFile(session, file, false); });
    }
    // One line for all of them: an MLPerf results repository holds tens of thousands.
    if (passedOver > 0)
        session.skip(root.string(), "passed over " + std::to_string(passedOver)
                                        + " source code, script and configuration files "
                                          "(MLPerf benchmarks/ folders, *.py, *.sh, ...): not "
                                          "results");
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
            isolated(session, path, true, [&] { importFile(session, path, true); });
        else
            isolated(session, path, true,
                     [&] { throw InputError(path, "", "no such file or folder"); });
    }
    session.row(0, 0, {}); // a cancel that came during the last file still wins
    transaction.commit();
    return report;
}

} // namespace clab::store
