#pragma once

#include "design/rules.h"

namespace clab::catalog {
class Catalog;
}

namespace clab::cluster {

// The rules of a design's cluster: its system exists and has GPUs, its node count is within the
// file limits, and its topology can be built for nodes x GPUs endpoints (checked without building
// it: this runs after every edit). Never throws; every problem becomes a finding.
std::vector<design::Finding> checkCluster(const design::Design &design,
                                          const catalog::Catalog &catalog);

} // namespace clab::cluster
