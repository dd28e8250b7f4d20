#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace clab {

// The offset of the first byte that is not well-formed UTF-8 (RFC 3629: no overlong forms, no
// UTF-16 surrogates, nothing above U+10FFFF), or npos when the whole text is.
std::size_t invalidUtf8At(std::string_view text);

// Imported text ends up in JSON (details, descriptions), which must be UTF-8: a Latin-1 file is
// refused with InputError naming the file, the line and column and the byte, instead of failing
// later in the JSON writer with no place.
// The text with every byte that is not part of well-formed UTF-8 replaced by U+FFFD: for file
// names, which are bytes on Linux, on their way into JSON reports and messages.
std::string validUtf8(std::string_view text);

void requireUtf8(std::string_view text, const std::string &file);

} // namespace clab
