#pragma once

#include <ostream>
#include <streambuf>

namespace clab::cli {

// What the command line prints may hold names from a user's files (systems, devices, submitters,
// paths), and a name may hold an ESC or another control character that a terminal would act on.
// EscapingStream writes through to another stream with every such byte spelt out instead: C0
// controls other than newline and tab become \xNN; DEL and the C1 controls U+0080 to U+009F (in
// UTF-8) become \u007f and \u00NN. All other bytes, UTF-8 text included, pass unchanged. JSON
// output stays valid: its writer escapes C0 itself and passes DEL and C1 raw, and \u00NN is a
// JSON escape of the same character.
class EscapingStream : public std::ostream
{
public:
    explicit EscapingStream(std::ostream &target);
    ~EscapingStream() override;

private:
    class Buffer : public std::streambuf
    {
    public:
        explicit Buffer(std::streambuf *target)
            : m_target(target)
        {
        }
        void finish();

    protected:
        int_type overflow(int_type c) override;
        std::streamsize xsputn(const char *s, std::streamsize n) override;
        int sync() override;

    private:
        void put(unsigned char c);
        std::streambuf *m_target;
        bool m_leadC2 = false; // the last byte was 0xC2, the first of a two-byte UTF-8 sequence
    };
    Buffer m_buffer;
    std::ostream &m_target;
};

} // namespace clab::cli
