#include "store/importlines.h"
#include "store/importtext.h"
#include "util/limits.h"

#include <algorithm>

namespace clab::store {

using namespace toolio;

// nccl-tests: a header "#  size  count  type  redop  root  time  algbw  busbw  #wrong  time ..."
// (older versions: no root, "error" for "#wrong"); the first time/algbw/busbw group is out of
// place, the second in place. Sizes in bytes, time in microseconds, bandwidths in GB/s.
// Pastes from issue threads and wikis are read too: markdown drops every leading '#' (so the
// header starts with "size"), the lines above the header may be missing, NCCL_DEBUG=INFO lines
// sit between rows, and lines end in CRLF (toolio::lines drops the CR).
namespace {

// Older nccl-tests print no "Collective test starting:" line; the file name usually says which
// test ran (all_reduce_perf.log, nccl_all_gather.txt). Without either, a neutral name.
std::string testFromFileName(const std::string &path)
{
    const std::string name = path.substr(path.find_last_of('/') + 1);
    for (const char *op : {"reduce_scatter", "all_reduce", "all_gather", "alltoall", "broadcast",
                           "sendrecv", "hypercube", "reduce", "gather", "scatter"}) {
        if (name.find(op) != std::string::npos)
            return std::string(op) + "_perf";
    }
    return "nccl-tests";
}

// A line's tokens with any leading '#' signs removed: "#  Rank  0 ..." and "Rank  0 ..." (the
// markdown-eaten form) read the same.
std::vector<std::string> tokensAfterHashes(std::string_view line)
{
    const std::string l = trimmed(line);
    const auto start = l.find_first_not_of('#');
    return start == std::string::npos ? std::vector<std::string>() : tokens(l.substr(start));
}

// The column names when `line` is the header ("size count type ... time algbw busbw ..."), else
// empty. The 2018 names (bytes N type op ... res) are read as today's.
std::vector<std::string> headerColumns(std::string_view line)
{
    std::vector<std::string> t = tokensAfterHashes(line);
    for (std::string &name : t) {
        if (name == "bytes")
            name = "size";
        else if (name == "N")
            name = "count";
        else if (name == "op")
            name = "redop";
        else if (name == "res")
            name = "error";
    }
    const auto has
        = [&](const char *name) { return std::find(t.begin(), t.end(), name) != t.end(); };
    if (t.size() < 6 || t[0] != "size" || t[1] != "count" || !has("time") || !has("busbw"))
        return {};
    return t;
}

// Sizes are whole bytes, times microseconds; bandwidths are checked by FileReport.
const limits::Range *rangeOf(const std::string &column)
{
    if (column == "size")
        return &limits::kBytes;
    if (column == "time")
        return &limits::kMicroseconds;
    return nullptr;
}

bool isTextColumn(const std::string &name, const std::string &cell)
{
    // validation off prints N/A for the error count; alltoall prints it for in-place.
    return name == "type" || name == "redop"
           || ((name == "#wrong" || name == "error") && cell == "N/A");
}

} // namespace

void importNcclTests(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    std::string test = testFromFileName(path);
    std::vector<std::string> header;
    std::string gpus;
    std::size_t ranks = 0;
    std::size_t headerLine = 0;
    for (std::size_t i = 0; i < all.size() && header.empty(); ++i) {
        const std::string_view l = all[i];
        if (const auto at = l.find("Collective test starting:"); at != std::string_view::npos)
            test = trimmed(l.substr(at + 25));
        // "nGpus" may also end a line of chatter (a device name), with no number after it.
        if (const auto at = l.find("nGpus "); at != std::string_view::npos) {
            if (const auto after = tokens(l.substr(at + 6)); !after.empty())
                gpus = after[0];
        }
        // One "Rank <n> ... device <d>" line per GPU of the whole run (nGpus is per process).
        if (const auto t = tokensAfterHashes(l);
            t.size() > 1 && t[0] == "Rank" && parseNumber(t[1]))
            ++ranks;
        header = headerColumns(l);
        headerLine = i;
    }
    if (header.empty())
        throw InputError(path, "",
                         "nccl-tests output without its column header (\"# size count type ... "
                         "time algbw busbw ...\")");
    const auto redop = std::find(header.begin(), header.end(), "redop") - header.begin();
    const auto sourceId = startImport(s, path, text, "nccl_tests");
    if (!sourceId)
        return;
    FileReport report;
    bool summary = false;
    for (std::size_t i = headerLine + 1; i < all.size(); ++i) {
        s.row(i, all.size(), path);
        const std::string_view l = all[i];
        if (contains(l, "Avg bus bandwidth"))
            summary = true;
        if (contains(l, "NCCL INFO") || contains(l, "NCCL WARN"))
            continue; // NCCL_DEBUG output, interleaved with the rows by another thread
        auto t = tokens(l);
        if (t.empty() || startsWith(t[0], "#"))
            continue;
        if (!parseNumber(t[0]))
            continue; // the units line, warnings and other chatter between rows
        // Old alltoall_perf prints a "redop" header over blank cells: the row is one token short
        // and a number (the time) stands where the operation would.
        if (std::size_t(redop) < header.size() && t.size() + 1 == header.size()
            && std::size_t(redop) < t.size() && parseNumber(t[redop]))
            t.insert(t.begin() + redop, std::string());
        if (t.size() != header.size())
            bad(path, i,
                "expected " + std::to_string(header.size()) + " columns as in the header on line "
                    + std::to_string(headerLine + 1) + ", found " + std::to_string(t.size()));
        // Columns before the first "time" describe the row; each "time" starts a group of
        // time, algbw, busbw and the error count: out of place, then in place.
        OrderedJson common = OrderedJson::object();
        if (!gpus.empty())
            common["nGpus"] = gpus;
        std::optional<std::int64_t> bytes;
        int group = 0;
        BandwidthRecord b;
        OrderedJson details;
        std::string implausible;
        auto flush = [&] {
            if (group == 0 || !b.gbps)
                return;
            b.tool = "nccl-tests";
            b.test = test + (group == 1 ? " out-of-place" : " in-place");
            b.link = "collective";
            if (!implausible.empty() && group == 2 && ranks == 1)
                implausible += "; in place on one GPU nothing is copied, so the time is near zero";
            b.details = detailsJson(details, implausible);
            b.place = lineAt(i);
            s.measurement(b, *sourceId);
            ++report.rows;
        };
        for (std::size_t c = 0; c < header.size(); ++c) {
            const std::string &name = header[c];
            if (name == "redop" && t[c].empty())
                continue;
            const auto v = parseNumber(t[c]);
            if (!isTextColumn(name, t[c]) && !v)
                bad(path, i, "column \"" + name + "\": \"" + t[c] + "\" is not a number");
            if (const limits::Range *range = rangeOf(name); range && v) {
                const std::string problem = name == "size" ? limits::wholeRangeProblem(*v, *range)
                                                           : limits::rangeProblem(*v, *range);
                if (!problem.empty())
                    bad(path, i, "column \"" + name + "\": " + problem);
            }
            if (name == "time") {
                flush();
                ++group;
                b = BandwidthRecord();
                b.messageBytes = bytes;
                b.latencyUs = v;
                details = common;
                implausible.clear();
            } else if (name == "algbw" || name == "busbw") {
                const std::string why = report.checkBandwidth(path, lineAt(i), *v, "collective",
                                                              "column \"" + name + "\": ");
                if (!why.empty() && implausible.empty())
                    implausible = name + " " + why;
                if (name == "busbw")
                    b.gbps = v;
                else
                    details["algbw"] = *v;
            } else if (group > 0) {
                // "#wrong" (or "error"), and whatever a later version adds to a group
                details[name == "error" ? "#wrong" : name]
                    = v ? OrderedJson(*v) : OrderedJson(t[c]);
            } else if (name == "size") {
                bytes = std::int64_t(*v);
            } else if (name == "count" || name == "type" || name == "redop") {
                common[name] = t[c];
            } else {
                common[name] = v ? OrderedJson(*v) : OrderedJson(t[c]); // root, and newer columns
            }
        }
        flush();
    }
    if (!summary)
        report.warning = "no \"Avg bus bandwidth\" line: the output may be cut short";
    finish(s, path, "nccl-tests", report);
}

} // namespace clab::store
