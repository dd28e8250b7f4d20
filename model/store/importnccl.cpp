#include "store/importlines.h"
#include "store/importtext.h"
#include "util/limits.h"

namespace clab::store {

using namespace toolio;

// nccl-tests: a header "#  size  count  type  redop  root  time  algbw  busbw  #wrong  time ..."
// (older versions: no root, "error" for "#wrong"); the first time/algbw/busbw group is out of
// place, the second in place. Sizes in bytes, time in microseconds, bandwidths in GB/s.
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

// Sizes are whole bytes, times microseconds, bandwidths GB/s; other columns are kept as text.
const limits::Range *rangeOf(const std::string &column)
{
    if (column == "size")
        return &limits::kBytes;
    if (column == "time")
        return &limits::kMicroseconds;
    if (column == "algbw" || column == "busbw")
        return &limits::kBandwidth;
    return nullptr;
}

} // namespace

void importNcclTests(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    std::string test = testFromFileName(path);
    std::vector<std::string> header;
    std::string gpus;
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
        const auto t = tokens(l);
        if (t.size() > 6 && t[0] == "#" && t[1] == "size" && t[2] == "count") {
            header.assign(t.begin() + 1, t.end());
            headerLine = i;
        }
    }
    if (header.empty())
        throw InputError(path, "",
                         "nccl-tests output without its \"# size count type ...\" header");
    const auto sourceId = startImport(s, path, text, "nccl_tests");
    if (!sourceId)
        return;
    std::size_t rows = 0;
    bool summary = false;
    for (std::size_t i = headerLine + 1; i < all.size(); ++i) {
        s.row(i, all.size(), path);
        const std::string_view l = all[i];
        if (contains(l, "Avg bus bandwidth"))
            summary = true;
        const auto t = tokens(l);
        if (t.empty() || startsWith(t[0], "#"))
            continue;
        if (!parseNumber(t[0]))
            continue; // warnings and other chatter between rows
        if (t.size() != header.size())
            bad(path, i,
                "expected " + std::to_string(header.size()) + " columns as in the header on line "
                    + std::to_string(headerLine + 1) + ", found " + std::to_string(t.size()));
        int group = 0;
        BandwidthRecord b;
        OrderedJson details = OrderedJson::object();
        auto flush = [&] {
            if (!b.gbps)
                return;
            b.tool = "nccl-tests";
            b.test = test + (group == 1 ? " out-of-place" : " in-place");
            b.link = "collective";
            if (!gpus.empty())
                details["nGpus"] = gpus;
            b.details = details.dump();
            b.place = "line " + std::to_string(i + 1);
            s.store().addBandwidth(b, *sourceId);
            ++rows;
        };
        for (std::size_t c = 0; c < header.size(); ++c) {
            const std::string &name = header[c];
            const auto v = parseNumber(t[c]);
            const bool numeric = name != "type" && name != "redop"
                                 && !(name == "#wrong" && t[c] == "N/A")
                                 && !(name == "error" && t[c] == "N/A");
            if (numeric && !v)
                bad(path, i, "column \"" + name + "\": \"" + t[c] + "\" is not a number");
            if (const limits::Range *range = rangeOf(name); range && v) {
                const std::string problem = name == "size" ? limits::wholeRangeProblem(*v, *range)
                                                           : limits::rangeProblem(*v, *range);
                if (!problem.empty())
                    bad(path, i, "column \"" + name + "\": " + problem);
            }
            if (name == "size") {
                b.messageBytes = std::int64_t(*v);
            } else if (name == "time") {
                if (group > 0)
                    flush();
                ++group;
                const auto size = b.messageBytes;
                b = BandwidthRecord();
                b.messageBytes = size;
                b.latencyUs = v;
                details = {{"count", t[1]}, {"type", t[2]}};
                if (header.size() > 3 && header[3] == "redop")
                    details["redop"] = t[3];
            } else if (name == "busbw") {
                b.gbps = v;
            } else if (name == "algbw" || name == "#wrong" || name == "error") {
                details[name == "error" ? "#wrong" : name]
                    = v ? OrderedJson(*v) : OrderedJson(t[c]);
            } else if (name == "root") {
                details["root"] = *v;
            }
        }
        flush();
    }
    finish(s, path, "nccl-tests", rows,
           summary ? std::string() : "no \"Avg bus bandwidth\" line: the output may be cut short");
}

} // namespace clab::store
