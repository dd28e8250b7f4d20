#include "fabric/analyzer.h"

#include "fabric/analysis_p.h"

#include <algorithm>
#include <deque>
#include <tuple>

namespace clab::fabric {

struct Analyzer::State
{
    // The design the fabric was built from, without its systems; the fabric refers to it.
    std::unique_ptr<design::Design> topology;
    const catalog::Catalog *catalog = nullptr;
    std::unique_ptr<Fabric> fabric;
    std::unique_ptr<Router> router;
    // The tables of the systems of the last analysis, by system name.
    struct Cached
    {
        design::System system;
        SystemTables tables;
    };
    std::unordered_map<std::string, Cached> systems;
};

Analyzer::Analyzer()
    : m_state(std::make_unique<State>())
{
}
Analyzer::~Analyzer() = default;

namespace {

// Parts as the fabric sees them: it reads no display names, so a rename keeps it.
auto seen(const design::Host &p)
{
    return std::tie(p.id, p.model);
}
auto seen(const design::Chassis &p)
{
    return std::tie(p.id, p.model);
}
auto seen(const design::Switch &p)
{
    return std::tie(p.id, p.model);
}
auto seen(const design::Device &p)
{
    return std::tie(p.id, p.model, p.chassis, p.slot);
}

template<typename Part>
bool sameParts(const std::vector<Part> &a, const std::vector<Part> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const Part &x, const Part &y) { return seen(x) == seen(y); });
}

} // namespace

bool Analyzer::sameTopology(const design::Design &d, const catalog::Catalog &catalog) const
{
    const design::Design *t = m_state->topology.get();
    return t && m_state->catalog == &catalog && sameParts(t->hosts, d.hosts)
           && sameParts(t->chassis, d.chassis) && sameParts(t->switches, d.switches)
           && sameParts(t->devices, d.devices) && t->links == d.links;
}

Analysis Analyzer::analyze(const design::Design &design, const catalog::Catalog &catalog)
{
    State &st = *m_state;
    m_reusedFabric = sameTopology(design, catalog);
    if (!m_reusedFabric) {
        // Built aside and kept only once all is built, so that a throw leaves no half state.
        auto topology = std::make_unique<design::Design>();
        topology->hosts = design.hosts;
        topology->chassis = design.chassis;
        topology->switches = design.switches;
        topology->devices = design.devices;
        topology->links = design.links;
        auto fabric = std::make_unique<Fabric>(*topology, catalog);
        auto router = std::make_unique<Router>(*fabric);
        st.systems.clear();
        st.router = std::move(router); // before the fabric it refers to goes
        st.fabric = std::move(fabric);
        st.topology = std::move(topology);
        st.catalog = &catalog;
    }

    Analysis out;
    out.findings = findingsOf(design, catalog);
    std::unordered_map<std::string, State::Cached> kept;
    kept.reserve(design.systems.size());
    std::deque<SystemTables> duplicates; // of a name taken before (the rules reject them)
    std::vector<const std::vector<Route> *> h2d;
    m_reusedSystems = 0;
    for (const design::System &s : design.systems) {
        const SystemTables *tables = nullptr;
        if (kept.count(s.name)) {
            tables = &duplicates.emplace_back(tablesOf(*st.fabric, *st.router, s));
        } else {
            auto it = st.systems.find(s.name);
            State::Cached entry;
            if (it != st.systems.end() && it->second.system == s) {
                entry = std::move(it->second);
                ++m_reusedSystems;
            } else {
                entry = {s, tablesOf(*st.fabric, *st.router, s)};
            }
            tables = &kept.emplace(s.name, std::move(entry)).first->second.tables;
        }
        out.systems.push_back(tables->report);
        h2d.push_back(&tables->h2d);
    }
    finishAnalysis(out, design, *st.fabric, *st.router, h2d);
    st.systems = std::move(kept);
    return out;
}

} // namespace clab::fabric
