#pragma once

// Line and number helpers shared by the tool-output importers (importnccl.cpp, importtools.cpp,
// importbandwidthtest.cpp, importnvbandwidth*.cpp).
#include "store/importsession.h"
#include "store/sha256.h"
#include "util/inputerror.h"
#include "util/limits.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clab::store::toolio {

inline std::vector<std::string> tokens(std::string_view line)
{
    std::vector<std::string> out;
    std::istringstream in{std::string(line)};
    std::string t;
    while (in >> t)
        out.push_back(t);
    return out;
}

inline std::vector<std::string_view> lines(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        std::string_view l = text.substr(pos, eol - pos);
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        out.push_back(l);
        pos = eol + 1;
    }
    return out;
}

inline std::optional<double> parseNumber(const std::string &s)
{
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v))
        return std::nullopt;
    return v;
}

inline bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

inline bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

inline std::string trimmed(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos)
        return {};
    const auto e = s.find_last_not_of(" \t");
    return std::string(s.substr(b, e - b + 1));
}

// The place of the line at `index` (0-based), as messages and records name it.
inline std::string lineAt(std::size_t index)
{
    return "line " + std::to_string(index + 1);
}

[[noreturn]] inline void bad(const std::string &path, std::size_t index, const std::string &message)
{
    throw InputError(path, lineAt(index), message);
}

// Starts a file's import: nullopt when it is already in the store.
inline std::optional<std::int64_t> startImport(ImportSession &s, const std::string &path,
                                               const std::string &text, const char *kind)
{
    return s.newSource(path, sha256Hex(text), kind);
}

// What a link or a memory can physically carry, in GB/s. A tool's value above these is stored,
// flagged and reported, not refused: a one-GPU nccl-tests run prints in-place bandwidths of
// 10^6 GB/s (nothing is copied, so the time is a fraction of a microsecond), and that is what the
// tool printed, not a broken file.
// NVLink 5 (Blackwell) carries 1,800 GB/s per GPU, both directions together; no link is faster.
inline constexpr double kFastestLinkGbps = 2000;
// HBM3e on a B200 or an MI355X delivers 8 TB/s, and bandwidthTest and the diagonals of the p2p
// matrices count a device-to-device copy's bytes twice (read and written): 16 TB/s.
inline constexpr double kFastestMemoryGbps = 20000;

inline std::string formatNumber(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", v);
    return buffer;
}

// What one file's import found beyond its rows, for its entry in the report.
class FileReport
{
public:
    std::size_t rows = 0;
    std::string warning;

    // A bandwidth read at `place` ("line 12", "at /nvbandwidth/..."): throws when it cannot be a
    // measurement (negative; parseNumber already refused non-finite text), and returns why a
    // well-formed one cannot be physically true, or "" when it can. `link` chooses the limit:
    // device memory ("local", "d2d") or a link (anything else).
    std::string checkBandwidth(const std::string &path, const std::string &place, double gbps,
                               const std::string &link, const std::string &label = {})
    {
        if (gbps < 0)
            throw InputError(path, place, label + limits::rangeProblem(gbps, limits::kBandwidth));
        const bool memory = link == "local" || link == "d2d";
        const double limit = memory ? kFastestMemoryGbps : kFastestLinkGbps;
        if (gbps <= limit)
            return {};
        if (m_implausible++ == 0)
            m_firstImplausible = place;
        return formatNumber(gbps) + " GB/s is above " + formatNumber(limit) + " GB/s, more than "
               + (memory ? "any GPU memory delivers (HBM3e: 8 TB/s)"
                         : "any link carries (NVLink 5: 1800 GB/s per GPU)");
    }

    // A test the output names but that has no measurement (nvbandwidth's waived test cases):
    // reported by name, grouped by `why` ("Waived", "no matrix: cut short?").
    void unmeasured(const std::string &test, const std::string &why)
    {
        for (auto &[reason, tests] : m_unmeasured) {
            if (reason == why) {
                tests += ", " + test;
                return;
            }
        }
        m_unmeasured.emplace_back(why, test);
    }
    void note(const std::string &text) { m_notes.push_back(text); }

    std::size_t implausible() const { return m_implausible; }
    bool anyUnmeasured() const { return !m_unmeasured.empty(); }

    std::vector<std::string> notes() const
    {
        std::vector<std::string> out = m_notes;
        if (m_implausible > 0)
            out.push_back(std::to_string(m_implausible) + " bandwidth"
                          + (m_implausible > 1 ? "s" : "")
                          + " above what any link or memory carries, stored and flagged "
                            "\"implausible\" (the first "
                          + (startsWith(m_firstImplausible, "line ") ? "on " : "")
                          + m_firstImplausible + ")");
        for (const auto &[why, tests] : m_unmeasured)
            out.push_back("no measurement (" + why + "): " + tests);
        return out;
    }

private:
    std::size_t m_implausible = 0;
    std::string m_firstImplausible;
    std::vector<std::pair<std::string, std::string>> m_unmeasured; // why, tests
    std::vector<std::string> m_notes;
};

// Ends a file's import with its report entry. A file with neither a measurement nor a test that
// says why it has none is not what it looked like.
inline void finish(ImportSession &s, const std::string &path, const char *kind,
                   const FileReport &report)
{
    if (report.rows == 0 && !report.anyUnmeasured())
        throw InputError(path, "",
                         std::string("no measurements found in this ") + kind + " output");
    OrderedJson entry = {{"kind", kind}, {"path", validUtf8(path)}, {"measurements", report.rows}};
    if (report.implausible() > 0)
        entry["implausible"] = report.implausible();
    if (const auto notes = report.notes(); !notes.empty())
        entry["notes"] = notes;
    if (!report.warning.empty())
        entry["warning"] = report.warning;
    s.report().imported.push_back(std::move(entry));
}

// Details of a bandwidth record: `details` plus the reason it is implausible, if any.
inline std::string detailsJson(OrderedJson details, const std::string &implausible)
{
    if (!implausible.empty())
        details["implausible"] = implausible;
    return details.empty() ? std::string() : details.dump();
}

} // namespace clab::store::toolio
