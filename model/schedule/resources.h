#pragma once

#include <string>
#include <vector>

namespace clab::catalog {
class Catalog;
}
namespace clab::design {
struct Design;
}

namespace clab::schedule {

// The GPUs of a design as a scheduler sees them: each host's local GPUs (its own, linked
// directly), and each chassis' pooled GPUs with the hosts that reach it (over links, through
// switches) and how many are composed to each host now (the design's systems).
struct Resources
{
    std::vector<std::string> hosts;          // host ids
    std::vector<std::string> chassis;        // chassis ids
    std::vector<int> localGpus;              // per host
    std::vector<int> pooledGpus;             // per chassis
    std::vector<std::vector<int>> composed;  // [chassis][host]: GPUs composed to it now
    std::vector<std::vector<int>> reachable; // per host: the chassis it is linked to
    // The GPUs themselves, for the performance model (schedule/stretch.h):
    std::vector<std::vector<std::string>> localIds;  // per host, by slot then design order
    std::vector<std::vector<std::string>> pooledIds; // per chassis, by slot
    std::vector<std::vector<int>> pooledHost;        // [chassis][GPU]: host composed to now, or -1
    int totalGpus() const;
    // Static servers: per host, its local GPUs and those composed to it now.
    std::vector<int> serverGpus() const;
};

// Throws InputError naming `file` when the design has no pool: no chassis with GPUs in its slots
// that a host is linked to.
Resources resourcesOf(const design::Design &design, const catalog::Catalog &catalog,
                      const std::string &file);

} // namespace clab::schedule
