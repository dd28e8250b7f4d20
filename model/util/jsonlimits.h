#pragma once

#include "util/limits.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace clab {

struct JsonLimits
{
    int maxDepth = limits::kMaxJsonDepth;
    std::size_t maxItems = limits::kMaxJsonItems; // entries of one array or object
    const char *kind = "a JSON file";             // for messages: "the limit for a design file"
};

// Scans JSON text for nesting and entry counts before anything is built from it, so that a file
// of a million devices or a million '[' is refused at once, with the limit, instead of after
// gigabytes of allocation or a stack overflow. Throws InputError naming the file and the line and
// column (too deep) or the JSON pointer of the array or object (too many entries). Syntax is left
// to the parser.
void checkJsonLimits(std::string_view text, const std::string &file, const JsonLimits &limits = {});

} // namespace clab
