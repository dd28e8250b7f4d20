#pragma once

#include "fabric/analysis.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace clab::fabric {

// analyze() over and over on one design as it is edited (the GUI after every edit), reusing what
// an edit could not change: the fabric and its routing while the topology (hosts, chassis,
// switches, devices, links; not their display names) and the catalog stay the same, and each
// system's own tables (host to device, peer to peer, ring, drive reads, step flows) while its
// name, host and devices do too.
// What couples the systems (every system busy at once, the network between them), the design
// rules and the measurements are worked out again every time, so the result is analyze()'s.
// The catalog is known by its address, so it must outlive the analyzer (the built-in and
// published catalogs do: they are never freed).
class Analyzer
{
public:
    Analyzer();
    ~Analyzer();
    Analyzer(const Analyzer &) = delete;
    Analyzer &operator=(const Analyzer &) = delete;

    Analysis analyze(const design::Design &design, const catalog::Catalog &catalog);
    // Systems whose tables were reused by the last analyze(), and whether the fabric was.
    std::size_t reusedSystems() const { return m_reusedSystems; }
    bool reusedFabric() const { return m_reusedFabric; }

private:
    struct State;
    bool sameTopology(const design::Design &design, const catalog::Catalog &catalog) const;

    std::unique_ptr<State> m_state;
    std::size_t m_reusedSystems = 0;
    bool m_reusedFabric = false;
};

} // namespace clab::fabric
