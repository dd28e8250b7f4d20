// Which reader a text file goes to, and CUDA samples' p2pBandwidthLatencyTest. The other tool
// outputs have a file each (importnccl.cpp, importbandwidthtest.cpp, importnvbandwidth*.cpp);
// the fixtures in tests/data/import/ and the rows of tests/model/tst_importvariants.cpp show each
// format.
#include "store/importlines.h"
#include "store/importmatrix.h"
#include "store/importtext.h"
#include "util/limits.h"

namespace clab::store {

using namespace toolio;

TextKind sniff(const std::string &path, std::string_view text)
{
    const std::string_view head = text.substr(0, 65536);
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0)
        return TextKind::Csv;
    if (contains(head, ":::MLLOG") || contains(head, ":::MLL "))
        return TextKind::MlperfLog;
    // nvbandwidth -j: the whole output is one JSON object named after the tool.
    if (const auto first = head.find_first_not_of(" \t\r\n");
        first != std::string_view::npos && head[first] == '{' && contains(head, "\"nvbandwidth\""))
        return TextKind::NvbandwidthJson;
    if (contains(head, "nvbandwidth Version"))
        return TextKind::Nvbandwidth;
    if (contains(head, "P2P (Peer-to-Peer) GPU Bandwidth Latency Test")
        || contains(head, "P2P Connectivity Matrix"))
        return TextKind::P2pMatrix;
    if (contains(head, "[CUDA Bandwidth Test]") || contains(head, "Host to Device Bandwidth")
        || (contains(head, "bandwidthTest-") && contains(head, "Bandwidth = ")))
        return TextKind::BandwidthTest;
    // A paste of nvbandwidth test cases without the version lines above them (the README's
    // example, an issue thread): "Running <test>." and a "(row) ... (column)" matrix title.
    if (contains(head, "Running ") && contains(head, "(row)") && contains(head, "(column)"))
        return TextKind::Nvbandwidth;
    if (contains(head, "busbw") && contains(head, "algbw"))
        return TextKind::NcclTests;
    return TextKind::Unknown;
}

// p2pBandwidthLatencyTest: "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)",
// "Bidirectional ...", "P2P=Disabled Latency Matrix (us)" with a GPU block and a CPU block.
void importP2pMatrix(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    const auto sourceId = startImport(s, path, text, "p2p_bandwidth_latency");
    if (!sourceId)
        return;
    FileReport report;
    for (std::size_t i = 0; i < all.size();) {
        const std::string title = trimmed(all[i]);
        const bool bandwidth = contains(title, "Bandwidth") && contains(title, "Matrix (GB/s)");
        const bool latency = contains(title, "Latency") && contains(title, "Matrix (us)");
        if (!bandwidth && !latency) {
            ++i;
            continue;
        }
        // Latency matrices come as a GPU block then a CPU block (the CPU's view of the same copy).
        std::size_t next = i + 1;
        for (int block = 0; block < (latency ? 2 : 1); ++block) {
            std::size_t h = next;
            while (h < all.size() && tokens(all[h]).empty())
                ++h;
            const std::string side = h < all.size() ? tokens(all[h])[0] : std::string();
            if (block == 1 && side != "CPU")
                break;
            // Bandwidths are checked per cell: the diagonal is device memory, the rest links.
            next = readMatrix(
                s, path, all, next, true, latency ? &limits::kMicroseconds : nullptr,
                [&](int from, int to, double v, std::size_t at) {
                    BandwidthRecord b;
                    b.tool = "p2pBandwidthLatencyTest";
                    b.test = title + (latency ? (side == "CPU" ? " CPU" : " GPU") : "");
                    b.link = from == to ? "local" : "p2p";
                    b.from = "GPU" + std::to_string(from);
                    b.to = "GPU" + std::to_string(to);
                    if (latency) {
                        b.latencyUs = v;
                    } else {
                        b.gbps = v;
                        b.details = detailsJson(OrderedJson::object(),
                                                report.checkBandwidth(path, lineAt(at), v, b.link));
                    }
                    b.place = lineAt(at);
                    s.measurement(b, *sourceId);
                    ++report.rows;
                });
        }
        i = next;
    }
    finish(s, path, "p2pBandwidthLatencyTest", report);
}

} // namespace clab::store
