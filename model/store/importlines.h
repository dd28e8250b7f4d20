#pragma once

// Line and number helpers shared by the tool-output importers (importtools.cpp, importnccl.cpp).
#include "store/importsession.h"
#include "store/sha256.h"
#include "util/inputerror.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
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

[[noreturn]] inline void bad(const std::string &path, std::size_t index, const std::string &message)
{
    throw InputError(path, "line " + std::to_string(index + 1), message);
}

// Starts a file's import: nullopt when it is already in the store.
inline std::optional<std::int64_t> startImport(ImportSession &s, const std::string &path,
                                               const std::string &text, const char *kind)
{
    return s.newSource(path, sha256Hex(text), kind);
}

inline void finish(ImportSession &s, const std::string &path, const char *kind, std::size_t rows,
                   const std::string &warning = {})
{
    if (rows == 0)
        throw InputError(path, "",
                         std::string("no measurements found in this ") + kind + " output");
    OrderedJson entry = {{"kind", kind}, {"path", validUtf8(path)}, {"measurements", rows}};
    if (!warning.empty())
        entry["warning"] = warning;
    s.report().imported.push_back(std::move(entry));
}

} // namespace clab::store::toolio
