#pragma once

#include <iosfwd>
#include <string>

namespace clab::cli {

// The store a command works on: `db` when given, else the user's store, which is created with the
// shipped recorded results the first time (said on `err`; COMPOSELAB_EMPTY_STORE=1 starts it
// empty). Throws store::StoreError when the user's store cannot be created.
std::string storeFor(const std::string &db, std::ostream &err);

} // namespace clab::cli
