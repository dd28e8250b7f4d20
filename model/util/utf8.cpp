#include "util/utf8.h"

#include "util/inputerror.h"

#include <cstdio>

namespace clab {

std::size_t invalidUtf8At(std::string_view text)
{
    const auto *s = reinterpret_cast<const unsigned char *>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        // Table 3-7 of the Unicode Standard: the lead byte fixes the length and the range of the
        // second byte; later bytes are 0x80..0xBF.
        std::size_t length = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            low = c == 0xE0 ? 0xA0 : 0x80;
            high = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return i;
        }
        if (i + length > n || s[i + 1] < low || s[i + 1] > high)
            return i;
        for (std::size_t k = 2; k < length; ++k) {
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return i;
        }
        i += length;
    }
    return std::string_view::npos;
}

std::string validUtf8(std::string_view text)
{
    std::string out;
    std::size_t at = invalidUtf8At(text);
    while (at != std::string_view::npos) {
        out.append(text.substr(0, at));
        out.append("\xEF\xBF\xBD");
        text.remove_prefix(at + 1);
        at = invalidUtf8At(text);
    }
    out.append(text);
    return out;
}

void requireUtf8(std::string_view text, const std::string &file)
{
    const std::size_t at = invalidUtf8At(text);
    if (at == std::string_view::npos)
        return;
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[at]));
    throw InputError(
        file, "line " + std::to_string(line) + ", column " + std::to_string(at - lineStart + 1),
        std::string("not UTF-8 text (byte ") + byte
            + "); save the file as UTF-8 and import it again");
}

} // namespace clab
