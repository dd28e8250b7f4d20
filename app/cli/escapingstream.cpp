#include "cli/escapingstream.h"

#include <cstdio>

namespace clab::cli {

EscapingStream::EscapingStream(std::ostream &target)
    : std::ostream(nullptr)
    , m_buffer(target.rdbuf())
    , m_target(target)
{
    rdbuf(&m_buffer);
}

EscapingStream::~EscapingStream()
{
    m_buffer.finish();
    m_target.flush();
}

void EscapingStream::Buffer::put(unsigned char c)
{
    char spelt[8];
    if (m_leadC2) {
        m_leadC2 = false;
        if (c >= 0x80 && c <= 0x9f) {
            std::snprintf(spelt, sizeof spelt, "\\u00%02x", c);
            m_target->sputn(spelt, 6);
            return;
        }
        m_target->sputc(char(0xc2));
    }
    if (c == 0xc2) {
        m_leadC2 = true;
        return;
    }
    if (c < 0x20 && c != '\n' && c != '\t') {
        std::snprintf(spelt, sizeof spelt, "\\x%02x", c);
        m_target->sputn(spelt, 4);
        return;
    }
    if (c == 0x7f) { // JSON writers pass DEL through raw; \u007f keeps their output valid JSON
        m_target->sputn("\\u007f", 6);
        return;
    }
    m_target->sputc(char(c));
}

void EscapingStream::Buffer::finish()
{
    if (m_leadC2) {
        m_leadC2 = false;
        m_target->sputc(char(0xc2));
    }
}

EscapingStream::int_type EscapingStream::Buffer::overflow(int_type c)
{
    if (!traits_type::eq_int_type(c, traits_type::eof()))
        put(static_cast<unsigned char>(traits_type::to_char_type(c)));
    return traits_type::not_eof(c);
}

std::streamsize EscapingStream::Buffer::xsputn(const char *s, std::streamsize n)
{
    // Runs of ordinary bytes go through in one call; only the bytes to look at go one by one.
    const auto ordinary = [](unsigned char c) {
        return (c >= 0x20 && c != 0x7f && c != 0xc2) || c == '\n' || c == '\t';
    };
    std::streamsize start = 0;
    for (std::streamsize i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (!m_leadC2 && ordinary(c))
            continue;
        if (i > start)
            m_target->sputn(s + start, i - start);
        put(c);
        start = i + 1;
    }
    if (n > start)
        m_target->sputn(s + start, n - start);
    return n;
}

int EscapingStream::Buffer::sync()
{
    return m_target->pubsync();
}

} // namespace clab::cli
