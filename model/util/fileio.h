#pragma once

#include "util/limits.h"

#include <cstdint>
#include <string>

namespace clab {

// Reads a whole file; a missing or unreadable file is an InputError naming it, and so is one
// larger than `maxBytes` (refused before it is read: "is 100 MB; <kind> may be at most 64 MB").
std::string readTextFile(const std::string &path,
                         std::uint64_t maxBytes = limits::kMaxTextFileBytes,
                         const char *kind = "a file read by ComposeLab");

// Writes beside `path` ("<path>.saving"), flushes to disk and renames over it: a crash or a kill at
// any moment leaves either the old file or the new one, never a torn mix. A "<path>.saving" left by
// a killed save is taken over by the next; two saves of one file at once take turns (a lock on the
// temporary file) instead of writing into each other's. The new file keeps the old one's
// permissions. Throws std::runtime_error with the reason; the old file is then untouched.
void writeFileAtomically(const std::string &path, const std::string &contents);

} // namespace clab
