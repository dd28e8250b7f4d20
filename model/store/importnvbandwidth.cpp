// nvbandwidth's text output: "Running <test>." then a title such as "memcpy CE CPU(row) ->
// GPU(column) bandwidth (GB/s)" and a matrix with N/A for pairs not measured. Read in every layout
// seen: with the version header or without (pastes of a test case or two, the 2022 README),
// matrices indented or not, and the 2022 one's 0.00 diagonal where later versions print N/A.
#include "store/importlines.h"
#include "store/importmatrix.h"
#include "store/importnvbandwidth.h"
#include "store/importtext.h"

#include <cstring>

namespace clab::store {

using namespace toolio;

namespace toolio {

NvbandwidthMatrix nvbandwidthMatrix(const std::string &test, const std::string &title)
{
    NvbandwidthMatrix m;
    m.test = test;
    m.reverse = contains(title, "<-") && !contains(title, "<->");
    m.latency = contains(title, "latency");
    m.toUs = contains(title, "(ns)") ? 1e-3 : 1.0;
    m.rowKind = contains(title, "CPU(row)") ? "CPU" : "GPU";
    m.columnKind = contains(title, "CPU(column)") ? "CPU" : "GPU";
    m.link = contains(test, "host_to_device") || contains(test, "host_to_all")   ? "h2d"
             : contains(test, "device_to_host") || contains(test, "all_to_host") ? "d2h"
             : contains(test, "device_to_device") || contains(test, "all_to_one")
                     || contains(test, "one_to_all")
                 ? "p2p"
             : contains(test, "device_local") ? "local"
             : contains(test, "host_device")  ? "host-device"
                                              : "other";
    return m;
}

void addNvbandwidthCell(ImportSession &s, std::int64_t sourceId, FileReport &report,
                        const std::string &path, const NvbandwidthMatrix &m, int row, int column,
                        double v, const std::string &place)
{
    // The first nvbandwidth (2022) printed 0.00 on the diagonal of GPU × GPU matrices where later
    // versions print N/A: a copy from a GPU to itself is not part of those tests.
    if (m.rowKind == m.columnKind && row == column && v == 0)
        return;
    BandwidthRecord b;
    b.tool = "nvbandwidth";
    b.test = m.test;
    b.link = m.link;
    const std::string rowName = m.rowKind + std::to_string(row);
    const std::string columnName = m.columnKind + std::to_string(column);
    b.from = m.reverse ? columnName : rowName;
    b.to = m.reverse ? rowName : columnName;
    if (m.latency) {
        if (const std::string problem = limits::rangeProblem(v, limits::kMicroseconds);
            !problem.empty())
            throw InputError(path, place, problem);
        b.latencyUs = v * m.toUs;
    } else {
        b.gbps = v;
        b.details
            = detailsJson(OrderedJson::object(), report.checkBandwidth(path, place, v, b.link));
    }
    b.place = place;
    s.measurement(b, sourceId);
    ++report.rows;
}

} // namespace toolio

namespace {

// What nvbandwidth prints instead of a matrix: "Waived: " for a test it does not run here (no
// name: it has not printed "Running" for it), "Error: <why>" after "Running <test>.".
bool isStatusLine(const std::string &l)
{
    for (const char *status : {"Waived", "Error", "ERROR", "Not Found"}) {
        if (startsWith(l, status) && l.size() > std::strlen(status)
            && (l[std::strlen(status)] == ':' || l[std::strlen(status)] == '.'))
            return true;
    }
    return false;
}

} // namespace

void importNvbandwidth(ImportSession &s, const std::string &path, const std::string &text)
{
    const auto all = lines(text);
    const auto sourceId = startImport(s, path, text, "nvbandwidth");
    if (!sourceId)
        return;
    FileReport report;
    std::string test;   // the test case running, until its matrix is read
    std::string status; // what nvbandwidth said about it instead
    std::size_t unnamedWaived = 0;
    auto noMatrix = [&] {
        if (!test.empty())
            report.unmeasured(test, status.empty() ? "no matrix: stopped or cut short" : status);
        test.clear();
        status.clear();
    };
    for (std::size_t i = 0; i < all.size();) {
        const std::string l = trimmed(all[i]);
        if (startsWith(l, "Running ")) {
            noMatrix();
            test = trimmed(l.substr(8));
            if (startsWith(test, "benchmark ")) // the 2022 pre-releases: "Running benchmark <x>."
                test = trimmed(test.substr(10));
            if (!test.empty() && test.back() == '.')
                test.pop_back();
            ++i;
            continue;
        }
        if (isStatusLine(l)) {
            if (test.empty())
                ++unnamedWaived;
            else
                status = l.back() == ':' || l.back() == '.' ? l.substr(0, l.size() - 1) : l;
            ++i;
            continue;
        }
        const bool table = !test.empty() && contains(l, "(row)") && contains(l, "(column)");
        if (!table) {
            ++i;
            continue;
        }
        const NvbandwidthMatrix m = nvbandwidthMatrix(test, l);
        i = readMatrix(s, path, all, i + 1, false, nullptr,
                       [&](int row, int column, double v, std::size_t at) {
                           addNvbandwidthCell(s, *sourceId, report, path, m, row, column, v,
                                              lineAt(at));
                       });
        test.clear();
        status.clear();
    }
    noMatrix();
    if (unnamedWaived > 0)
        report.unmeasured(std::to_string(unnamedWaived) + " test case"
                              + (unnamedWaived > 1 ? "s" : "")
                              + " that the text output does not name (run with -j to see which)",
                          "Waived");
    finish(s, path, "nvbandwidth", report);
}

} // namespace clab::store
