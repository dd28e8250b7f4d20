#pragma once

#include <span>
#include <string_view>

namespace clab {

// A data file compiled into the program (cmake/Embed.cmake): path relative to the source root.
struct EmbeddedFile
{
    std::string_view path;
    std::string_view text;
};

std::span<const EmbeddedFile> embeddedFiles();

} // namespace clab
