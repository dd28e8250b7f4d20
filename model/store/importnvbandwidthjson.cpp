// nvbandwidth -j (v0.5 on; json_output.cpp in NVIDIA/nvbandwidth):
//   {"nvbandwidth": {"version": ..., "testcases": [{"name": ..., "status": "Passed",
//     "bandwidth_description": "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s) ",
//     "bandwidth_matrix": [["12.3964", "N/A"], ...], "sum": ...}, ...], "error": ...}}
// Cells are strings as the text output prints them; a matrix's row and column indices are the
// devices. A test case without a matrix ("Waived", "Not Found", "Error", or "Running" when the run
// stopped inside it) is reported by name. Keys the reader does not use are allowed: each version
// adds some.
#include "store/importlines.h"
#include "store/importnvbandwidth.h"
#include "store/importtext.h"
#include "util/jsonreader.h"

namespace clab::store {

using namespace toolio;

namespace {

[[noreturn]] void badJson(const std::string &path, const std::string &pointer,
                          const std::string &message)
{
    throw InputError(path, "at " + pointer, message);
}

std::string stringAt(const std::string &path, const Json &object, const std::string &pointer,
                     const char *key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return {};
    if (!it->is_string())
        badJson(path, childPointer(pointer, key),
                std::string("expected a string, found ") + jsonTypeName(*it));
    return it->get<std::string>();
}

// One cell: a number as text ("12.3964"), a JSON number, or "N/A" (nothing measured: nullopt).
std::optional<double> cellValue(const std::string &path, const Json &cell,
                                const std::string &pointer)
{
    if (cell.is_number())
        return cell.get<double>();
    if (!cell.is_string())
        badJson(path, pointer,
                std::string("expected a number or \"N/A\", found ") + jsonTypeName(cell));
    const std::string text = trimmed(cell.get<std::string>());
    if (text == "N/A")
        return std::nullopt;
    const auto v = parseNumber(text);
    if (!v)
        badJson(path, pointer, "\"" + text + "\" is not a number");
    return v;
}

void readMatrix(ImportSession &s, std::int64_t sourceId, FileReport &report,
                const std::string &path, const NvbandwidthMatrix &m, const Json &matrix,
                const std::string &pointer)
{
    if (!matrix.is_array())
        badJson(path, pointer,
                std::string("expected an array of rows, found ") + jsonTypeName(matrix));
    // Indices are device numbers: a matrix wider than the devices a machine can have is not one.
    const auto device = [&](std::size_t index, const std::string &at) {
        if (index > std::size_t(limits::kDeviceIndex.high))
            badJson(path, at,
                    "more than " + formatNumber(limits::kDeviceIndex.high + 1)
                        + " devices in a matrix");
        return int(index);
    };
    for (std::size_t r = 0; r < matrix.size(); ++r) {
        const std::string rowPointer = childPointer(pointer, r);
        const Json &row = matrix[r];
        if (!row.is_array())
            badJson(path, rowPointer,
                    std::string("expected a row (an array of cells), found ") + jsonTypeName(row));
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string cellPointer = childPointer(rowPointer, c);
            if (const auto v = cellValue(path, row[c], cellPointer))
                addNvbandwidthCell(s, sourceId, report, path, m, device(r, rowPointer),
                                   device(c, cellPointer), *v, "at " + cellPointer);
        }
    }
}

} // namespace

void importNvbandwidthJson(ImportSession &s, const std::string &path, const std::string &text)
{
    const Json root = parseJson(text, path); // a syntax error names its line and column
    if (!root.is_object() || !root.contains("nvbandwidth") || !root["nvbandwidth"].is_object())
        badJson(path, "/",
                "expected nvbandwidth's -j output: an object with an \"nvbandwidth\" object");
    const Json &top = root["nvbandwidth"];
    const std::string topPointer = "/nvbandwidth";
    const std::string error = stringAt(path, top, topPointer, "error");
    const std::string warning = stringAt(path, top, topPointer, "warning");
    const Json empty = Json::array();
    const auto found = top.find("testcases");
    const Json &testcases = found == top.end() ? empty : *found;
    const std::string casesPointer = childPointer(topPointer, "testcases");
    if (!testcases.is_array())
        badJson(path, casesPointer,
                std::string("expected an array of test cases, found ") + jsonTypeName(testcases));
    const auto sourceId = startImport(s, path, text, "nvbandwidth");
    if (!sourceId)
        return;
    FileReport report;
    if (!error.empty())
        report.note("nvbandwidth reported an error: " + error);
    if (!warning.empty())
        report.note("nvbandwidth warned: " + warning);
    for (std::size_t k = 0; k < testcases.size(); ++k) {
        s.row(k, testcases.size(), path);
        const std::string pointer = childPointer(casesPointer, k);
        const Json &testcase = testcases[k];
        if (!testcase.is_object())
            badJson(path, pointer,
                    std::string("expected a test case object, found ") + jsonTypeName(testcase));
        const std::string name = stringAt(path, testcase, pointer, "name");
        if (name.empty())
            badJson(path, childPointer(pointer, "name"), "expected the test case's name");
        const std::string status = stringAt(path, testcase, pointer, "status");
        const std::string why = stringAt(path, testcase, pointer, "error");
        const auto matrix = testcase.find("bandwidth_matrix");
        if (matrix == testcase.end()) {
            report.unmeasured(name, (status.empty() ? std::string("no matrix") : status)
                                        + (why.empty() ? "" : ": " + why));
            continue;
        }
        const NvbandwidthMatrix m
            = nvbandwidthMatrix(name, stringAt(path, testcase, pointer, "bandwidth_description"));
        readMatrix(s, *sourceId, report, path, m, *matrix,
                   childPointer(pointer, "bandwidth_matrix"));
    }
    if (report.rows == 0 && !report.anyUnmeasured() && !error.empty())
        badJson(path, childPointer(topPointer, "error"),
                "no measurements; nvbandwidth reported: " + error);
    finish(s, path, "nvbandwidth", report);
}

} // namespace clab::store
