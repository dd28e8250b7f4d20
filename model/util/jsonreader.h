#pragma once

#include "util/jsonlimits.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace clab {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// Parses JSON text; a syntax error becomes an InputError naming the file, line and column. The
// limits (nesting, entries) are checked first and refused the same way.
Json parseJson(std::string_view text, const std::string &file, const JsonLimits &limits = {});
// For readers that try a text as JSON and fall back (log records, old system files): discarded for
// a syntax error or a text beyond the limits, instead of an exception.
Json tryParseJson(std::string_view text, const JsonLimits &limits = {});

// Appends a key or index to a JSON pointer, escaping as RFC 6901 requires.
std::string childPointer(const std::string &pointer, std::string_view key);
std::string childPointer(const std::string &pointer, std::size_t index);

// Reads one JSON object strictly: every value is type-checked, and finish() refuses keys nobody
// asked for, so a misspelt key is reported instead of silently ignored. Each error names the file
// and the JSON pointer of the offending value.
class ObjectReader
{
public:
    ObjectReader(const Json &object, std::string pointer, const std::string &file);

    bool has(const char *key) const; // also marks the key as known to finish()
    std::string string(const char *key);
    std::string string(const char *key, const std::string &fallback);
    double number(const char *key);
    double number(const char *key, double fallback);
    double positive(const char *key);                      // finite and > 0: sizes, rates, counts
    std::optional<double> optionalNumber(const char *key); // absent or null gives nullopt
    int integer(const char *key, int minimum = 0);
    int integer(const char *key, int fallback, int minimum);
    bool boolean(const char *key, bool fallback);
    // The value itself, for callers that check it their own way.
    const Json &raw(const char *key) { return value(key); }
    std::vector<std::string> strings(const char *key); // absent gives an empty list
    std::vector<int> integers(const char *key);
    const Json &array(const char *key);          // required
    const Json *optionalArray(const char *key);  // absent gives nullptr
    const Json *optionalObject(const char *key); // absent or null gives nullptr
    ObjectReader object(const char *key);

    std::string pointer(const char *key) const { return childPointer(m_pointer, key); }
    const std::string &pointer() const { return m_pointer; }
    const std::string &file() const { return m_file; }
    void finish() const;
    [[noreturn]] void fail(const char *key, const std::string &message) const;

private:
    const Json &value(const char *key);
    const Json &m_object;
    std::string m_pointer;
    std::string m_file;
    // Keys read or asked about: finish() accepts them and lists them in its hint.
    mutable std::set<std::string, std::less<>> m_used;
};

const char *jsonTypeName(const Json &value);

} // namespace clab
