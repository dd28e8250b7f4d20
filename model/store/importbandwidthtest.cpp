// CUDA samples' bandwidthTest, in its two layouts:
// - tables: " Host to Device Bandwidth, 1 Device(s)", " PINNED Memory Transfers",
//   "   Transfer Size (Bytes)\tBandwidth(GB/s)" (MB/s in CUDA 10 and older), then size/value rows;
//   quick, range and shmoo modes differ only in the number of rows.
// - --csv: one line per size, "bandwidthTest-H2D-Pinned, Bandwidth = 12.4 GB/s, Time = 0.00549 s,
//   Size = 68000000 bytes, NumDevsUsed = 1" (printResultsCSV in bandwidthTest.cu; the kind is
//   H2D, D2H or D2D, then "-Pinned", "-Paged" or "-Pinned-WriteCombined").
#include "store/importlines.h"
#include "store/importtext.h"
#include "util/limits.h"

namespace clab::store {

using namespace toolio;

namespace {

struct Direction
{
    std::string name; // as the table titles say: "Host to Device"
    std::string link; // h2d, d2h, d2d
};

Direction directionOfTitle(const std::string &title)
{
    if (title == "Host to Device")
        return {title, "h2d"};
    if (title == "Device to Host")
        return {title, "d2h"};
    return {title, "d2d"};
}

// "bandwidthTest-H2D-Pinned" → the table layout's test name, "Host to Device PINNED", so that
// both layouts of one run give the same tests.
std::optional<std::string> csvTestName(const std::string &config, Direction &direction)
{
    const std::string kind = config.substr(0, 3);
    if (kind == "H2D")
        direction = {"Host to Device", "h2d"};
    else if (kind == "D2H")
        direction = {"Device to Host", "d2h"};
    else if (kind == "D2D")
        direction = {"Device to Device", "d2d"};
    else
        return std::nullopt;
    std::string memory = config.size() > 4 ? config.substr(4) : std::string();
    if (memory == "Pinned")
        memory = "PINNED";
    else if (memory == "Paged" || memory == "Pageable")
        memory = "PAGEABLE";
    else if (memory == "Pinned-WriteCombined")
        memory = "PINNED WRITE-COMBINED";
    return direction.name + (memory.empty() ? "" : " " + memory);
}

// The "key = value" fields of a --csv line after its first.
std::vector<std::pair<std::string, std::string>> csvFields(std::string_view line)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t pos = line.find(',');
    while (pos != std::string_view::npos) {
        const std::size_t next = line.find(',', pos + 1);
        const std::string_view field = line.substr(
            pos + 1, next == std::string_view::npos ? std::string_view::npos : next - pos - 1);
        if (const auto eq = field.find('='); eq != std::string_view::npos)
            out.emplace_back(trimmed(field.substr(0, eq)), trimmed(field.substr(eq + 1)));
        pos = next;
    }
    return out;
}

} // namespace

void importBandwidthTest(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    const auto sourceId = startImport(s, path, text, "bandwidth_test");
    if (!sourceId)
        return;
    Direction direction;
    std::string memory, device = "GPU0";
    double scale = 1.0;
    bool inTable = false, passed = false;
    FileReport report;
    auto add = [&](std::size_t i, const std::string &test, double bytes, double value,
                   OrderedJson details) {
        std::string problem = limits::wholeRangeProblem(bytes, limits::kBytes);
        if (!problem.empty())
            bad(path, i, problem);
        const std::string why = report.checkBandwidth(path, lineAt(i), value, direction.link);
        BandwidthRecord b;
        b.tool = "bandwidthTest";
        b.test = test;
        b.link = direction.link;
        b.from = b.link == "h2d" ? "host" : device;
        b.to = b.link == "d2h" ? "host" : device;
        b.messageBytes = std::int64_t(bytes);
        b.gbps = value;
        b.details = detailsJson(std::move(details), why);
        b.place = lineAt(i);
        s.measurement(b, *sourceId);
        ++report.rows;
    };
    for (std::size_t i = 0; i < all.size(); ++i) {
        s.row(i, all.size(), path);
        const std::string l = trimmed(all[i]);
        if (startsWith(l, "Device ") && contains(l, ":"))
            device = "GPU" + trimmed(l.substr(7, l.find(':') - 7));
        if (contains(l, "Result = PASS"))
            passed = true;
        if (startsWith(l, "bandwidthTest-")) {
            const auto test = csvTestName(l.substr(14, l.find(',') - 14), direction);
            if (!test)
                bad(path, i,
                    "expected \"bandwidthTest-H2D\", \"-D2H\" or \"-D2D\" at the start, found \""
                        + l.substr(0, l.find(',')) + "\"");
            std::optional<double> gbps, bytes;
            OrderedJson details = OrderedJson::object();
            for (const auto &[key, value] : csvFields(l)) {
                const auto t = tokens(value);
                const auto v = t.empty() ? std::nullopt : parseNumber(t[0]);
                if (key == "Bandwidth" && v && t.size() == 2 && (t[1] == "GB/s" || t[1] == "MB/s"))
                    gbps = *v * (t[1] == "MB/s" ? 1e-3 : 1.0);
                else if (key == "Size" && v)
                    bytes = v;
                else if (key == "Time" && v)
                    details["time_s"] = *v;
                else if (key == "NumDevsUsed" && v)
                    details["devices"] = *v;
            }
            if (!gbps || !bytes)
                bad(path, i,
                    "expected \"Bandwidth = <number> GB/s\" (or MB/s) and \"Size = <bytes> "
                    "bytes\", found \""
                        + l + "\"");
            add(i, *test, *bytes, *gbps, std::move(details));
            continue;
        }
        if (contains(l, " Bandwidth, ")) {
            direction = directionOfTitle(l.substr(0, l.find(" Bandwidth, ")));
            inTable = false;
            continue;
        }
        if (contains(l, "Memory Transfers")) {
            memory = l.substr(0, l.find(' '));
            continue;
        }
        if (startsWith(l, "Transfer Size")) {
            if (direction.name.empty())
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
        add(i, direction.name + (memory.empty() ? "" : " " + memory), *parseNumber(t[0]),
            *parseNumber(t[1]) * scale, OrderedJson::object());
    }
    if (!passed)
        report.warning = "no \"Result = PASS\" line";
    finish(s, path, "bandwidthTest", report);
}

} // namespace clab::store
