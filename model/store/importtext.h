#pragma once

#include <string>
#include <string_view>

namespace clab::store {

class ImportSession;

// The importers of tables and tool outputs; each imports one file whose text is given, in the
// session's transaction, and throws InputError naming the file and line for a malformed one.
void importCsvFile(ImportSession &session, const std::string &path, const std::string &text);
void importNcclTests(ImportSession &session, const std::string &path, const std::string &text);
void importP2pMatrix(ImportSession &session, const std::string &path, const std::string &text);
void importBandwidthTest(ImportSession &session, const std::string &path, const std::string &text);
void importNvbandwidth(ImportSession &session, const std::string &path, const std::string &text);
// nvbandwidth -j: places are JSON pointers ("at /nvbandwidth/testcases/3/bandwidth_matrix/0/1").
void importNvbandwidthJson(ImportSession &session, const std::string &path,
                           const std::string &text);

enum class TextKind {
    Unknown,
    Csv,
    NcclTests,
    P2pMatrix,
    BandwidthTest,
    Nvbandwidth,
    NvbandwidthJson,
    MlperfLog
};
// Recognises a file by its content (and, for CSV, its extension).
TextKind sniff(const std::string &path, std::string_view text);

} // namespace clab::store
