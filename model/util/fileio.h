#pragma once

#include <string>

namespace clab {

// Reads a whole file; a missing or unreadable file is an InputError naming it.
std::string readTextFile(const std::string &path);

// Writes beside `path`, flushes to disk and renames over it: a crash at any moment leaves either
// the old file or the new one, never a torn mix. Throws std::runtime_error with the reason.
void writeFileAtomically(const std::string &path, const std::string &contents);

} // namespace clab
