#include "machine/topomatrix.h"

#include "util/inputerror.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>

namespace clab::machine {

namespace {

std::string withoutEscapes(std::string_view line)
{
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && !std::isalpha(static_cast<unsigned char>(line[j])))
                ++j;
            i = j; // skips the final letter too
            continue;
        }
        if (line[i] != '\r')
            out += line[i];
    }
    return out;
}

std::vector<std::string> splitLines(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        out.push_back(withoutEscapes(text.substr(pos, eol - pos)));
        pos = eol + 1;
    }
    return out;
}

std::string trim(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos)
        return {};
    return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

// The fields of a line: tab-separated fields (kept empty where a cell is empty) when the line has
// tabs, else whitespace-separated tokens. Leading empty fields are dropped.
std::vector<std::string> fieldsOf(const std::string &line)
{
    std::vector<std::string> out;
    if (line.find('\t') != std::string::npos) {
        std::size_t pos = 0;
        while (pos <= line.size()) {
            std::size_t tab = line.find('\t', pos);
            if (tab == std::string::npos)
                tab = line.size();
            out.push_back(trim(std::string_view(line).substr(pos, tab - pos)));
            pos = tab + 1;
        }
    } else {
        std::size_t pos = 0;
        while (true) {
            const std::size_t b = line.find_first_not_of(' ', pos);
            if (b == std::string::npos)
                break;
            const std::size_t e = std::min(line.find(' ', b), line.size());
            out.push_back(line.substr(b, e - b));
            pos = e;
        }
    }
    const auto first
        = std::find_if(out.begin(), out.end(), [](const auto &f) { return !f.empty(); });
    out.erase(out.begin(), first);
    return out;
}

bool isDeviceName(const std::string &s)
{
    static const std::regex name(R"((GPU|NIC)\d+|[A-Za-z][A-Za-z0-9]*_\d+)");
    return std::regex_match(s, name);
}

// The column names after the devices ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID"), in order.
std::vector<std::string> extraColumns(const std::vector<std::string> &fields, std::size_t from)
{
    std::string rest;
    for (std::size_t i = from; i < fields.size(); ++i)
        rest += fields[i] + " ";
    std::vector<std::pair<std::size_t, std::string>> found;
    for (const char *name : {"CPU Affinity", "NUMA Affinity", "GPU NUMA ID"}) {
        const std::size_t at = rest.find(name);
        if (at != std::string::npos)
            found.emplace_back(at, name);
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (const auto &f : found)
        out.push_back(f.second);
    return out;
}

bool isP2pStatus(const std::string &code)
{
    return code == "OK" || code == "NS" || code == "CNS" || code == "GNS" || code == "TNS"
           || code == "U";
}

struct Header
{
    std::size_t line = 0;
    std::vector<std::string> devices;
    std::vector<std::string> extras;
};

std::optional<Header> headerAt(const std::vector<std::string> &lines, std::size_t i)
{
    const std::vector<std::string> f = fieldsOf(lines[i]);
    if (f.empty() || f.front() != "GPU0")
        return std::nullopt;
    Header h;
    h.line = i;
    std::size_t k = 0;
    while (k < f.size() && isDeviceName(f[k]))
        h.devices.push_back(f[k++]);
    if (k < f.size() && (hopOf(f[k]) != Hop::Unknown || isP2pStatus(f[k])))
        return std::nullopt; // a row ("GPU0  X  PIX ..."), not a header
    h.extras = extraColumns(f, k);
    return h;
}

} // namespace

const std::string &TopoMatrix::cell(std::size_t a, std::size_t b) const
{
    return cells[a][b].empty() ? cells[b][a] : cells[a][b];
}

Hop hopOf(std::string_view code)
{
    if (code == "X")
        return Hop::Self;
    if (nvlinkCount(code) > 0)
        return Hop::Nvlink;
    if (code == "PIX")
        return Hop::Pix;
    if (code == "PXB")
        return Hop::Pxb;
    if (code == "PHB")
        return Hop::Phb;
    if (code == "NODE")
        return Hop::Node;
    if (code == "SYS" || code == "SOC")
        return Hop::Sys;
    return Hop::Unknown;
}

int nvlinkCount(std::string_view code)
{
    if (code.size() < 3 || code.substr(0, 2) != "NV" || code.size() > 5)
        return 0;
    int n = 0;
    for (const char c : code.substr(2)) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return 0;
        n = n * 10 + (c - '0');
    }
    return n;
}

bool looksLikeTopoMatrix(std::string_view text)
{
    const std::vector<std::string> lines = splitLines(text.substr(0, 64 * 1024));
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const auto h = headerAt(lines, i);
        if (!h || h->devices.empty())
            continue;
        const std::vector<std::string> row = fieldsOf(lines[i + 1]);
        if (row.size() > 1 && row.front() == "GPU0" && hopOf(row[1]) == Hop::Self)
            return true;
    }
    return false;
}

TopoMatrix parseTopoMatrix(std::string_view text, const std::string &file)
{
    const std::vector<std::string> lines = splitLines(text);
    auto fail = [&](std::size_t line, const std::string &message) {
        throw InputError(file, "line " + std::to_string(line + 1), message);
    };
    static const std::regex prompt(R"(^\s*[^@\s]+@([^:\s]+)[^$#]*[$#].*)");
    TopoMatrix m;
    for (const auto &l : lines) {
        std::smatch match;
        if (std::regex_match(l, match, prompt)) {
            m.hostName = match[1];
            break;
        }
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto h = headerAt(lines, i);
        if (!h)
            continue;
        const std::size_t n = h->devices.size();
        m.devices = h->devices;
        m.cells.assign(n, std::vector<std::string>(n));
        m.cpuAffinity.assign(n, {});
        m.numaAffinity.assign(n, {});
        std::vector<bool> seen(n, false);
        bool p2pStatus = false;
        std::size_t j = i + 1;
        for (; j < lines.size(); ++j) {
            const std::vector<std::string> f = fieldsOf(lines[j]);
            if (f.empty())
                break;
            const auto at = std::find(m.devices.begin(), m.devices.end(), f.front());
            if (at == m.devices.end())
                break;
            const auto row = std::size_t(at - m.devices.begin());
            seen[row] = true;
            for (std::size_t c = 0; c < n && c + 1 < f.size(); ++c) {
                const std::string &code = f[c + 1];
                if (isP2pStatus(code))
                    p2pStatus = true;
                else if (!code.empty() && hopOf(code) == Hop::Unknown)
                    fail(j, "'" + code + "' in " + f.front() + "'s row, column " + m.devices[c]
                                + ": expected X, NV#, PIX, PXB, PHB, NODE, SYS or SOC");
                m.cells[row][c] = code;
            }
            std::vector<std::string> extras;
            for (std::size_t k = n + 1; k < f.size(); ++k)
                if (!f[k].empty())
                    extras.push_back(f[k]);
            for (std::size_t k = 0; k < extras.size() && k < h->extras.size(); ++k) {
                if (h->extras[k] == "CPU Affinity")
                    m.cpuAffinity[row] = extras[k];
                else if (h->extras[k] == "NUMA Affinity" && extras[k] != "N/A")
                    m.numaAffinity[row] = extras[k];
            }
        }
        if (p2pStatus)
            continue; // the `topo -p2p` matrix of the same paste: peer access, not the topology
        for (std::size_t d = 0; d < n; ++d)
            if (m.isGpu(d) && !seen[d])
                fail(j, "the matrix ends before " + m.devices[d] + "'s row (the header names "
                            + std::to_string(n) + " devices)");
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = 0; b < n; ++b)
                if (a != b && m.isGpu(a) && m.isGpu(b) && m.cell(a, b).empty())
                    fail(j, m.devices[a] + " and " + m.devices[b]
                                + " have no connection code in either row");
        static const std::regex legend(R"(^\s*(NIC\d+)\s*:\s*(\S+)\s*$)");
        for (std::size_t k = j; k < lines.size(); ++k) {
            std::smatch match;
            if (std::regex_match(lines[k], match, legend))
                m.nicNames[match[1]] = match[2];
        }
        return m;
    }
    throw InputError(file, "",
                     "no `nvidia-smi topo -m` matrix found: expected a header line "
                     "of device columns starting with GPU0, then one row per device");
}

} // namespace clab::machine
