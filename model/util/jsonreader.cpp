#include "util/jsonreader.h"

#include "util/inputerror.h"

#include <cmath>
#include <limits>

namespace clab {

namespace {

// nlohmann reports a byte offset; people need a line and a column.
std::string lineAndColumn(std::string_view text, std::size_t byte)
{
    byte = std::min(byte, text.size());
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i + 1 < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

} // namespace

Json parseJson(std::string_view text, const std::string &file, const JsonLimits &limits)
{
    checkJsonLimits(text, file, limits);
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error &error) {
        std::string what = error.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
        const auto colon = what.find(": ", what.find("parse error"));
        const std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
        throw InputError(file, lineAndColumn(text, error.byte), "not valid JSON (" + detail + ")");
    } catch (const Json::exception &error) {
        // e.g. out_of_range 406 for a number too large for a double ("1e400"): no position.
        std::string what = error.what();
        const auto bracket = what.find("] ");
        throw InputError(file, "",
                         "not valid JSON ("
                             + (bracket == std::string::npos ? what : what.substr(bracket + 2))
                             + ")");
    }
}

Json tryParseJson(std::string_view text, const JsonLimits &limits)
{
    try {
        checkJsonLimits(text, {}, limits);
    } catch (const InputError &) {
        return Json(Json::value_t::discarded);
    }
    return Json::parse(text.begin(), text.end(), nullptr, false);
}

std::string childPointer(const std::string &pointer, std::string_view key)
{
    std::string out = pointer + "/";
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string childPointer(const std::string &pointer, std::size_t index)
{
    return pointer + "/" + std::to_string(index);
}

const char *jsonTypeName(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::boolean:
        return "a boolean";
    case Json::value_t::binary:
        return "binary data";
    case Json::value_t::discarded:
        return "nothing";
    default:
        return "a number";
    }
}

ObjectReader::ObjectReader(const Json &object, std::string pointer, const std::string &file)
    : m_object(object)
    , m_pointer(std::move(pointer))
    , m_file(file)
{
    if (!m_object.is_object())
        throw InputError(m_file, "at " + (m_pointer.empty() ? std::string("/") : m_pointer),
                         std::string("expected an object, found ") + jsonTypeName(m_object));
}

bool ObjectReader::has(const char *key) const
{
    m_used.insert(key);
    return m_object.contains(key);
}

void ObjectReader::fail(const char *key, const std::string &message) const
{
    throw InputError(m_file, "at " + pointer(key), message);
}

const Json &ObjectReader::value(const char *key)
{
    m_used.insert(key);
    const auto it = m_object.find(key);
    if (it == m_object.end())
        throw InputError(m_file, "at " + (m_pointer.empty() ? std::string("/") : m_pointer),
                         std::string("missing required key \"") + key + "\"");
    return *it;
}

std::string ObjectReader::string(const char *key)
{
    const Json &v = value(key);
    if (!v.is_string())
        fail(key, std::string("expected a string, found ") + jsonTypeName(v));
    return v.get<std::string>();
}

std::string ObjectReader::string(const char *key, const std::string &fallback)
{
    return has(key) ? string(key) : (m_used.insert(key), fallback);
}

bool ObjectReader::boolean(const char *key, bool fallback)
{
    if (!has(key))
        return m_used.insert(key), fallback;
    const Json &v = value(key);
    if (!v.is_boolean())
        fail(key, std::string("expected true or false, found ") + jsonTypeName(v));
    return v.get<bool>();
}

double ObjectReader::number(const char *key)
{
    const Json &v = value(key);
    if (!v.is_number())
        fail(key, std::string("expected a number, found ") + jsonTypeName(v));
    const double d = v.get<double>();
    if (!std::isfinite(d))
        fail(key, "expected a finite number");
    return d;
}

double ObjectReader::number(const char *key, double fallback)
{
    return has(key) ? number(key) : (m_used.insert(key), fallback);
}

double ObjectReader::positive(const char *key)
{
    const double d = number(key);
    if (!(d > 0))
        fail(key, "expected a number greater than zero, found " + Json(d).dump());
    return d;
}

std::optional<double> ObjectReader::optionalNumber(const char *key)
{
    m_used.insert(key);
    if (!has(key) || m_object.at(key).is_null())
        return std::nullopt;
    return number(key);
}

int ObjectReader::integer(const char *key, int minimum)
{
    const Json &v = value(key);
    if (!v.is_number_integer())
        fail(key, std::string("expected an integer, found ") + jsonTypeName(v));
    const auto i = v.get<long long>();
    if (i < minimum || i > std::numeric_limits<int>::max())
        fail(key, "expected an integer of at least " + std::to_string(minimum) + ", found "
                      + std::to_string(i));
    return static_cast<int>(i);
}

int ObjectReader::integer(const char *key, int fallback, int minimum)
{
    return has(key) ? integer(key, minimum) : (m_used.insert(key), fallback);
}

std::vector<std::string> ObjectReader::strings(const char *key)
{
    std::vector<std::string> out;
    const Json *a = optionalArray(key);
    if (!a)
        return out;
    for (std::size_t i = 0; i < a->size(); ++i) {
        if (!(*a)[i].is_string())
            throw InputError(m_file, "at " + childPointer(pointer(key), i),
                             std::string("expected a string, found ") + jsonTypeName((*a)[i]));
        out.push_back((*a)[i].get<std::string>());
    }
    return out;
}

std::vector<int> ObjectReader::integers(const char *key)
{
    std::vector<int> out;
    const Json &a = array(key);
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].is_number_integer() || a[i].get<long long>() < 0
            || a[i].get<long long>() > std::numeric_limits<int>::max())
            throw InputError(m_file, "at " + childPointer(pointer(key), i),
                             std::string("expected a non-negative integer, found ")
                                 + jsonTypeName(a[i]));
        out.push_back(a[i].get<int>());
    }
    return out;
}

const Json &ObjectReader::array(const char *key)
{
    const Json &v = value(key);
    if (!v.is_array())
        fail(key, std::string("expected an array, found ") + jsonTypeName(v));
    return v;
}

const Json *ObjectReader::optionalArray(const char *key)
{
    if (!has(key)) {
        m_used.insert(key);
        return nullptr;
    }
    return &array(key);
}

const Json *ObjectReader::optionalObject(const char *key)
{
    m_used.insert(key);
    if (!has(key) || m_object.at(key).is_null())
        return nullptr;
    const Json &v = m_object.at(key);
    if (!v.is_object())
        fail(key, std::string("expected an object, found ") + jsonTypeName(v));
    return &v;
}

ObjectReader ObjectReader::object(const char *key)
{
    return ObjectReader(value(key), pointer(key), m_file);
}

void ObjectReader::finish() const
{
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (m_used.find(it.key()) == m_used.end()) {
            std::string known;
            for (const auto &k : m_used)
                known += (known.empty() ? "" : ", ") + k;
            throw InputError(m_file, "at " + childPointer(m_pointer, it.key()),
                             "unknown key \"" + it.key() + "\" (expected one of: " + known + ")");
        }
    }
}

} // namespace clab
