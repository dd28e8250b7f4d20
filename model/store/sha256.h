#pragma once

#include <string>
#include <string_view>

namespace clab::store {

// SHA-256 (FIPS 180-4) of some bytes as 64 lowercase hex digits. The store identifies every
// imported file by this digest, so importing the same bytes twice is recognised whatever the path.
std::string sha256Hex(std::string_view data);

} // namespace clab::store
