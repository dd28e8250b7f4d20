#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace clab {

// ASCII letters in lower case; other bytes (UTF-8 included) unchanged. For matching names and
// keywords of tool outputs and file extensions, not for display.
inline std::string asciiLower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

} // namespace clab
