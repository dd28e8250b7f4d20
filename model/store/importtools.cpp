// Importers of GPU interconnect benchmark outputs: CUDA samples'
// p2pBandwidthLatencyTest and bandwidthTest, and nvbandwidth. Formats are those the tools print;
// the fixtures in tests/data/import/ show each.
#include "store/importlines.h"
#include "store/importtext.h"
#include "util/limits.h"

#include <cmath>
#include <functional>
#include <cstdlib>
#include <sstream>

namespace clab::store {

using namespace toolio;

TextKind sniff(const std::string &path, std::string_view text)
{
    const std::string_view head = text.substr(0, 65536);
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0)
        return TextKind::Csv;
    if (contains(head, ":::MLLOG") || contains(head, ":::MLL "))
        return TextKind::MlperfLog;
    if (contains(head, "nvbandwidth Version"))
        return TextKind::Nvbandwidth;
    if (contains(head, "P2P (Peer-to-Peer) GPU Bandwidth Latency Test")
        || contains(head, "P2P Connectivity Matrix"))
        return TextKind::P2pMatrix;
    if (contains(head, "[CUDA Bandwidth Test]") || contains(head, "Host to Device Bandwidth"))
        return TextKind::BandwidthTest;
    if (contains(head, "busbw") && contains(head, "algbw"))
        return TextKind::NcclTests;
    return TextKind::Unknown;
}

namespace {

// A device number of a matrix header or row: a small whole number, or the file is bad.
int deviceIndex(const std::string &path, std::size_t line, const std::string &token)
{
    const auto v = parseNumber(token);
    const std::string problem = v ? limits::wholeRangeProblem(*v, limits::kDeviceIndex)
                                  : "\"" + token + "\" is not a device number";
    if (!problem.empty())
        bad(path, line, problem);
    return int(*v);
}

// Reads a square matrix after a title: a header of column indices, then one row per index; every
// cell must be inside `range`. Returns the index of the line after it.
std::size_t readMatrix(ImportSession &s, const std::string &path,
                       const std::vector<std::string_view> &all, std::size_t i, bool square,
                       const limits::Range &range,
                       const std::function<void(int, int, double, std::size_t)> &cell)
{
    while (i < all.size() && tokens(all[i]).empty())
        ++i;
    if (i >= all.size())
        bad(path, all.size() - 1, "matrix without a header (output cut short?)");
    const auto header = tokens(all[i]);
    // p2pBandwidthLatencyTest labels the corner ("D\\D", "GPU", "CPU"); nvbandwidth leaves it
    // empty.
    const std::size_t first = !header.empty() && parseNumber(header[0]) ? 0 : 1;
    std::size_t columns = 0;
    for (std::size_t c = first; c < header.size(); ++c)
        columns += parseNumber(header[c]) ? 1 : 0;
    if (columns == 0 || columns + first != header.size())
        bad(path, i,
            "expected a matrix header of device numbers, found \"" + trimmed(all[i]) + "\"");
    std::vector<int> columnDevice;
    for (std::size_t c = first; c < header.size(); ++c)
        columnDevice.push_back(deviceIndex(path, i, header[c]));
    // Square matrices (device × device) must be complete; nvbandwidth's CPU × GPU ones end at a
    // blank line.
    std::size_t r = 0;
    for (;; ++r) {
        const std::size_t at = i + 1 + r;
        if (!square && (at >= all.size() || tokens(all[at]).empty())) {
            if (r == 0)
                bad(path, std::min(at, all.size() - 1), "matrix without rows (output cut short?)");
            break;
        }
        if (square && r == columns)
            break;
        if (at >= all.size())
            bad(path, all.size() - 1,
                "matrix ends after " + std::to_string(r) + " of " + std::to_string(columns)
                    + " rows (output cut short?)");
        s.row(at, all.size(), path);
        const auto t = tokens(all[at]);
        if (t.size() != columns + 1)
            bad(path, at,
                "expected a row of " + std::to_string(columns)
                    + " values after the device number, found \"" + trimmed(all[at]) + "\"");
        for (std::size_t c = 0; c < columns; ++c) {
            if (t[c + 1] == "N/A")
                continue;
            const auto v = parseNumber(t[c + 1]);
            if (!v)
                bad(path, at, "\"" + t[c + 1] + "\" is not a number");
            if (const std::string problem = limits::rangeProblem(*v, range); !problem.empty())
                bad(path, at, problem);
            cell(deviceIndex(path, at, t[0]), columnDevice[c], *v, at);
        }
    }
    return i + 1 + r;
}

} // namespace

// p2pBandwidthLatencyTest: "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)",
// "Bidirectional ...", "P2P=Disabled Latency Matrix (us)" with a GPU block and a CPU block.
void importP2pMatrix(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    const auto sourceId = startImport(s, path, text, "p2p_bandwidth_latency");
    if (!sourceId)
        return;
    std::size_t rows = 0;
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
            next = readMatrix(
                s, path, all, next, true, latency ? limits::kMicroseconds : limits::kBandwidth,
                [&](int from, int to, double v, std::size_t at) {
                    BandwidthRecord b;
                    b.tool = "p2pBandwidthLatencyTest";
                    b.test = title + (latency ? (side == "CPU" ? " CPU" : " GPU") : "");
                    b.link = from == to ? "local" : "p2p";
                    b.from = "GPU" + std::to_string(from);
                    b.to = "GPU" + std::to_string(to);
                    (latency ? b.latencyUs : b.gbps) = v;
                    b.place = "line " + std::to_string(at + 1);
                    s.store().addBandwidth(b, *sourceId);
                    ++rows;
                });
        }
        i = next;
    }
    finish(s, path, "p2pBandwidthLatencyTest", rows);
}

// bandwidthTest: " Host to Device Bandwidth, 1 Device(s)", " PINNED Memory Transfers",
// "   Transfer Size (Bytes)\tBandwidth(GB/s)" (MB/s in older CUDA samples), then size/value rows.
void importBandwidthTest(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    const auto sourceId = startImport(s, path, text, "bandwidth_test");
    if (!sourceId)
        return;
    std::string direction, link, memory, device = "GPU0";
    double scale = 1.0;
    bool inTable = false, passed = false;
    std::size_t rows = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        s.row(i, all.size(), path);
        const std::string l = trimmed(all[i]);
        if (startsWith(l, "Device ") && contains(l, ":"))
            device = "GPU" + trimmed(l.substr(7, l.find(':') - 7));
        if (contains(l, "Result = PASS"))
            passed = true;
        if (contains(l, " Bandwidth, ")) {
            direction = l.substr(0, l.find(" Bandwidth, "));
            link = direction == "Host to Device"   ? "h2d"
                   : direction == "Device to Host" ? "d2h"
                                                   : "d2d";
            inTable = false;
            continue;
        }
        if (contains(l, "Memory Transfers")) {
            memory = l.substr(0, l.find(' '));
            continue;
        }
        if (startsWith(l, "Transfer Size")) {
            if (direction.empty())
                bad(path, i, "a bandwidth table before its \"... Bandwidth, N Device(s)\" title");
            scale = contains(l, "MB/s") ? 1e-3 : 1.0;
            inTable = true;
            continue;
        }
        const auto t = tokens(l);
        if (!inTable || t.empty())
            continue;
        if (!parseNumber(t[0])) {
            inTable = false;
            continue;
        }
        if (t.size() != 2 || !parseNumber(t[1]))
            bad(path, i, "expected \"<bytes> <bandwidth>\", found \"" + l + "\"");
        std::string problem = limits::wholeRangeProblem(*parseNumber(t[0]), limits::kBytes);
        if (problem.empty())
            problem = limits::rangeProblem(*parseNumber(t[1]) * scale, limits::kBandwidth);
        if (!problem.empty())
            bad(path, i, problem);
        BandwidthRecord b;
        b.tool = "bandwidthTest";
        b.test = direction + (memory.empty() ? "" : " " + memory);
        b.link = link;
        b.from = link == "h2d" ? "host" : device;
        b.to = link == "d2h" ? "host" : device;
        b.messageBytes = std::int64_t(*parseNumber(t[0]));
        b.gbps = *parseNumber(t[1]) * scale;
        b.place = "line " + std::to_string(i + 1);
        s.store().addBandwidth(b, *sourceId);
        ++rows;
    }
    finish(s, path, "bandwidthTest", rows, passed ? std::string() : "no \"Result = PASS\" line");
}

// nvbandwidth: "Running <test>." then a title like "memcpy CE CPU(row) -> GPU(column) bandwidth
// (GB/s)" and a matrix with N/A for pairs not measured. "<-" means data flows column → row.
void importNvbandwidth(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    const auto sourceId = startImport(s, path, text, "nvbandwidth");
    if (!sourceId)
        return;
    std::size_t rows = 0;
    std::string test;
    for (std::size_t i = 0; i < all.size();) {
        const std::string l = trimmed(all[i]);
        if (startsWith(l, "Running ")) {
            test = l.substr(8);
            if (!test.empty() && test.back() == '.')
                test.pop_back();
            ++i;
            continue;
        }
        const bool table = !test.empty() && contains(l, "(row)") && contains(l, "(column)");
        if (!table) {
            ++i;
            continue;
        }
        const bool reverse = contains(l, "<-") && !contains(l, "<->");
        const bool isLatency = contains(l, "latency");
        const double toUs = contains(l, "(ns)") ? 1e-3 : 1.0;
        const std::string rowKind = contains(l, "CPU(row)") ? "CPU" : "GPU";
        const std::string columnKind = contains(l, "CPU(column)") ? "CPU" : "GPU";
        const std::string link = contains(test, "host_to_device")     ? "h2d"
                                 : contains(test, "device_to_host")   ? "d2h"
                                 : contains(test, "device_to_device") ? "p2p"
                                 : contains(test, "host_device")      ? "host-device"
                                                                      : "other";
        i = readMatrix(s, path, all, i + 1, false,
                       isLatency ? limits::kMicroseconds : limits::kBandwidth,
                       [&](int row, int column, double v, std::size_t at) {
                           BandwidthRecord b;
                           b.tool = "nvbandwidth";
                           b.test = test;
                           b.link = link;
                           const std::string rowName = rowKind + std::to_string(row);
                           const std::string columnName = columnKind + std::to_string(column);
                           b.from = reverse ? columnName : rowName;
                           b.to = reverse ? rowName : columnName;
                           if (isLatency)
                               b.latencyUs = v * toUs;
                           else
                               b.gbps = v;
                           b.place = "line " + std::to_string(at + 1);
                           s.store().addBandwidth(b, *sourceId);
                           ++rows;
                       });
        test.clear();
    }
    finish(s, path, "nvbandwidth", rows);
}

} // namespace clab::store
