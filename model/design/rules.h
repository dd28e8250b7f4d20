#pragma once

#include "design/design.h"
#include "design/designindex.h"
#include "design/ports.h"

#include <string>
#include <vector>

namespace clab::catalog {
class Catalog;
}

namespace clab::design {

enum class Severity { Error, Warning };

struct Finding
{
    Severity severity = Severity::Error;
    std::string message;
    std::vector<std::string> items; // ids of the items the finding names
    bool operator==(const Finding &) const = default;
};

const char *severityName(Severity severity);

// The design rules: what a real composable system cannot be (a device composed to two hosts, a
// slot filled twice, ports that cannot be linked, lanes over budget, NVLink on a GPU without it,
// unknown catalog ids, ...). Never throws; every problem becomes a finding. The cluster's rules
// live with the cluster code (cluster::checkCluster); fabric::findingsOf runs both.
std::vector<Finding> checkDesign(const Design &design, const catalog::Catalog &catalog);

} // namespace clab::design
