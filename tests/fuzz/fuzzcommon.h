#pragma once

// What the fuzz targets share: the input as text, a scratch folder for the importers that read
// files by path, and an in-memory experiment store whose every import is rolled back.
#include "store/importsession.h"
#include "store/store.h"
#include "util/inputerror.h"
#include "util/utf8.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <stdlib.h> // mkdtemp

namespace clab::fuzz {

inline std::string_view text(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

// A property of a reader that must hold: when it does not, abort so that libFuzzer keeps the input.
inline void require(bool holds, const char *what)
{
    if (!holds) {
        std::fprintf(stderr, "fuzz: property violated: %s\n", what);
        std::abort();
    }
}

// A folder of this process's own, removed at a normal exit.
class ScratchDir
{
public:
    ScratchDir()
    {
        std::string pattern
            = (std::filesystem::temp_directory_path() / "composelab-fuzz-XXXXXX").string();
        require(mkdtemp(pattern.data()) != nullptr, "mkdtemp");
        m_path = pattern;
    }
    ~ScratchDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    ScratchDir(const ScratchDir &) = delete;
    ScratchDir &operator=(const ScratchDir &) = delete;

    // Writes `text` to `relative` (creating its folders) and gives the full path.
    std::filesystem::path write(const std::string &relative, std::string_view text) const
    {
        const std::filesystem::path path = m_path / relative;
        std::filesystem::create_directories(path.parent_path());
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(text.data(), std::streamsize(text.size()));
        out.close();
        require(bool(out), "writing the scratch file");
        return path;
    }

private:
    std::filesystem::path m_path;
};

inline const ScratchDir &scratch()
{
    static const ScratchDir dir;
    return dir;
}

// Runs one importer as importPaths() would, in a transaction that is always rolled back, so that
// no input sees another's rows (or is skipped as "already imported"). An InputError is the
// expected answer to bad input; any other exception escapes and libFuzzer reports it.
template<typename Import>
void importRolledBack(Import &&import)
{
    static store::Store store(":memory:");
    store::ImportReport report;
    const store::ImportControl control;
    store::ImportSession session(store, control, report);
    store::Transaction transaction(store);
    try {
        import(session);
    } catch (const InputError &) {
    }
}

// A text importer (importtext.h) as importPaths() calls it: the text must be UTF-8 before any of
// them reads it (store/import.cpp), since what they read ends up in JSON.
template<typename Import>
void importText(std::string_view text, const std::string &path, Import &&import)
{
    importRolledBack([&](store::ImportSession &s) {
        requireUtf8(text, path);
        import(s, path, std::string(text));
    });
}

} // namespace clab::fuzz
