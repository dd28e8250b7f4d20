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
// The text of one of them; throws std::logic_error naming the path when the build left it out.
std::string_view embeddedText(std::string_view path);

} // namespace clab
