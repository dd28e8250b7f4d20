#pragma once

// The recorded results ComposeLab ships (datasets/*.csv, compiled in: MLPerf Training scores,
// published training throughput, link bandwidths, each row with its source), and the seeding of a
// new experiment store with them so that the Experiments dock and the charts show real data on a
// first start. COMPOSELAB_EMPTY_STORE=1 in the environment starts with an empty store instead.
#include "store/import.h"

#include <string>

namespace clab::store {

class Store;

// Imports every shipped dataset into `store` (one source each, "datasets/<name>.csv"; a dataset
// already there adds nothing), in one transaction.
ImportReport importDatasets(Store &store, const ImportControl &control = {});

// Whether the user asked for an empty store (COMPOSELAB_EMPTY_STORE set and not "0").
bool seedingDisabled();

// Creates the store at `path` with the shipped datasets when no file is there yet (and seeding is
// not disabled). Returns whether it did. Throws StoreError when the store cannot be written.
bool seedIfNew(const std::string &path);

} // namespace clab::store
