#include "fabric/analysis.h"
#include "fabric/analysis_p.h"

#include "catalog/catalog.h"
#include "cluster/clusterrules.h"
#include "fabric/sharing.h"
#include "fabric/stepflowsbuilder.h"
#include "util/limits.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <set>

namespace clab::fabric {

namespace {

std::vector<std::string> nodeIds(const Fabric &f, const Route &r)
{
    std::vector<std::string> out;
    out.reserve(r.nodes.size());
    for (Vertex v : r.nodes)
        out.push_back(f.node(v).id);
    return out;
}

struct GpuFlow
{
    std::size_t system;
    std::size_t row; // index into that system's h2d
    const Route *route;
};

Flow flowOf(const Route &r, double limit = std::numeric_limits<double>::infinity())
{
    Flow f;
    if (r.kind != RouteKind::None)
        f.resources = r.resources;
    f.limit = r.kind == RouteKind::None ? 0 : limit;
    return f;
}

} // namespace

std::vector<design::Finding> findingsOf(const design::Design &design,
                                        const catalog::Catalog &catalog)
{
    std::vector<design::Finding> out = design::checkDesign(design, catalog);
    std::vector<design::Finding> cluster = cluster::checkCluster(design, catalog);
    out.insert(out.end(), std::make_move_iterator(cluster.begin()),
               std::make_move_iterator(cluster.end()));
    return out;
}

SystemTables tablesOf(const Fabric &fabric, Router &router, const design::System &s)
{
    const catalog::Catalog &catalog = fabric.catalog();
    const std::vector<double> &capacity = router.capacities();
    SystemReport rep;
    rep.name = s.name;
    rep.host = s.host;
    std::set<std::string> seen;
    for (const auto &id : s.devices) {
        const design::Device *d = fabric.index().device(id);
        if (!d || !seen.insert(id).second)
            continue;
        if (catalog.gpu(d->model))
            rep.gpus.push_back(id);
        else if (catalog.nvme(d->model))
            rep.drives.push_back(id);
        else if (catalog.nic(d->model))
            rep.nics.push_back(id);
    }

    // Host to device: alone, then all of this system's GPUs at once.
    std::vector<Route> h2d = router.hostToDevices(s.host, rep.gpus);
    std::vector<Flow> flows;
    for (std::size_t i = 0; i < h2d.size(); ++i) {
        HostToDevice row;
        row.device = rep.gpus[i];
        row.aloneGBps = h2d[i].GBps;
        row.route = nodeIds(fabric, h2d[i]);
        rep.h2d.push_back(row);
        flows.push_back(flowOf(h2d[i]));
    }
    const std::vector<FlowRate> rates = maxMinFair(flows, capacity);
    for (std::size_t i = 0; i < rates.size(); ++i) {
        rep.h2d[i].concurrentGBps = rates[i].rate;
        if (rates[i].bottleneck >= 0)
            rep.h2d[i].bottleneck = router.resourceLabel(std::size_t(rates[i].bottleneck));
    }

    // Peer to peer between every ordered pair of GPUs; the hops from each GPU to the next
    // in the list are kept for the ring below.
    const std::size_t n = rep.gpus.size();
    std::vector<Route> ringRoutes(n > 1 ? n : 0);
    // Every GPU to every other, kept while each is a direct NVLink hop (a full mesh).
    std::vector<Route> pairRoutes;
    bool fullMesh = n > 2;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string &from = rep.gpus[i];
        std::vector<std::string> others;
        for (const auto &to : rep.gpus) {
            if (to != from)
                others.push_back(to);
        }
        std::vector<Route> routes = router.peers(s.host, from, others);
        for (std::size_t k = 0; k < routes.size(); ++k)
            rep.p2p.push_back({from,
                               others[k],
                               routes[k].kind,
                               routes[k].GBps,
                               routes[k].latencyUs,
                               nodeIds(fabric, routes[k]),
                               {},
                               {}});
        if (n > 1) {
            const std::size_t next = (i + 1) % n;
            ringRoutes[i] = routes[next < i ? next : next - 1];
        }
        // The collective library runs its mesh rings over the GPU links even where a pair's
        // PCIe switch alone would copy a little faster (one xGMI link against a Gen5 switch).
        // Searched only while the mesh is still possible: a switch or PCIe shows at the first
        // GPU, so other systems pay one search, not one a GPU.
        if (!fullMesh)
            continue;
        std::vector<Route> direct = router.gpuLinkPeers(s.host, from, others);
        fullMesh = std::all_of(direct.begin(), direct.end(), [](const Route &r) {
            return r.kind == RouteKind::Nvlink && r.nodes.size() == 2;
        });
        if (fullMesh)
            pairRoutes.insert(pairRoutes.end(), std::make_move_iterator(direct.begin()),
                              std::make_move_iterator(direct.end()));
    }

    // A ring that crosses sockets crosses back: its copies staged through host memory run
    // both ways at once, and each direction gets less than a one-way copy does.
    if (std::count_if(ringRoutes.begin(), ringRoutes.end(),
                      [](const Route &r) { return r.kind == RouteKind::StagedViaHost; })
        > 1) {
        for (Route &r : ringRoutes)
            if (r.kind == RouteKind::StagedViaHost)
                r.factor *= catalog.routing().stagedBothWays;
    }

    // Ring: each GPU sends to the next at once; routes share links max-min fairly, then a
    // route's own factor (through a root complex, staged through memory) applies.
    if (n > 1) {
        std::vector<Flow> ringFlows;
        for (const Route &r : ringRoutes)
            ringFlows.push_back(flowOf(r));
        const std::vector<FlowRate> ringRates = maxMinFair(ringFlows, capacity);
        rep.ringGBps = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < n; ++i) {
            rep.ringGBps = std::min(rep.ringGBps, ringRates[i].rate * ringRoutes[i].factor);
            rep.ringLatencyUs = std::max(rep.ringLatencyUs, ringRoutes[i].latencyUs);
        }
    }
    // Where the GPUs are joined directly pair by pair (a full NVLink mesh), NCCL runs several
    // rings at once, one over each of a GPU's links: the collective moves at every GPU sending to
    // all the others at once, n - 1 times the slowest pair's share, when that beats one ring.
    if (fullMesh) {
        std::vector<Flow> pairFlows;
        for (const Route &r : pairRoutes)
            pairFlows.push_back(flowOf(r));
        const std::vector<FlowRate> pairRates = maxMinFair(pairFlows, capacity);
        double slowest = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < pairRoutes.size(); ++k)
            slowest = std::min(slowest, pairRates[k].rate * pairRoutes[k].factor);
        rep.ringGBps = std::max(rep.ringGBps, double(n - 1) * slowest);
        rep.meshPairGBps = slowest;
    }

    // Drives feeding host memory, each limited by its own read rate.
    const std::vector<Route> reads = router.devicesToHost(s.host, rep.drives);
    std::vector<Flow> readFlows;
    for (std::size_t i = 0; i < reads.size(); ++i) {
        const double drive = catalog.nvme(fabric.index().device(rep.drives[i])->model)->readGBps;
        readFlows.push_back(flowOf(reads[i], drive));
        rep.storage.push_back(
            {rep.drives[i], reads[i].kind == RouteKind::None ? 0 : std::min(drive, reads[i].GBps),
             0});
    }
    const std::vector<FlowRate> readRates = maxMinFair(readFlows, capacity);
    for (std::size_t i = 0; i < readRates.size(); ++i)
        rep.storage[i].concurrentGBps = readRates[i].rate;

    // A step's transfers, for the performance model: each GPU sends its gradients to the
    // next and its share of the inter-node traffic to a NIC (rail-style, GPU i to NIC
    // i mod NICs), receives its input from host memory, and the drives feed host memory. On a
    // full mesh the collective runs a ring over each of a GPU's links, so its gradients go to
    // every other GPU at once, each pair's direct route carrying a share (perf/model.cpp).
    StepFlowsBuilder step;
    for (const Route &r : fullMesh ? pairRoutes : ringRoutes)
        step.add(FlowClass::Ring, r);
    for (const Route &r : h2d)
        step.add(FlowClass::Input, r);
    for (std::size_t i = 0; i < reads.size(); ++i)
        step.addDrive(reads[i], rep.storage[i].aloneGBps, rep.drives[i] + " (drive read)");
    for (std::size_t i = 0; i < n && !rep.nics.empty(); ++i) {
        const std::vector<Route> toNic
            = router.peers(s.host, rep.gpus[i], {rep.nics[i % rep.nics.size()]});
        step.add(FlowClass::Network, toNic.front());
    }
    rep.flows = step.finish(capacity, [&](std::size_t r) { return router.resourceLabel(r); });
    return {std::move(rep), h2d};
}

void finishAnalysis(Analysis &out, const design::Design &design, const Fabric &fabric,
                    Router &router, const std::vector<const std::vector<Route> *> &h2d)
{
    const std::vector<double> &capacity = router.capacities();
    std::vector<GpuFlow> allFlows;
    for (std::size_t system = 0; system < h2d.size(); ++system)
        for (std::size_t i = 0; i < h2d[system]->size(); ++i)
            allFlows.push_back({system, i, &(*h2d[system])[i]});

    // Every system busy at once: who loses what to whom.
    std::vector<Flow> flows;
    std::map<std::size_t, std::set<std::size_t>> systemsOn; // resource -> systems using it
    for (const GpuFlow &g : allFlows) {
        flows.push_back(flowOf(*g.route));
        for (std::size_t r : g.route->resources)
            systemsOn[r].insert(g.system);
    }
    const std::vector<FlowRate> rates = maxMinFair(flows, capacity);
    std::map<std::pair<std::size_t, long>, double> lost; // (system, resource) -> GB/s lost
    for (std::size_t i = 0; i < allFlows.size(); ++i) {
        HostToDevice &row = out.systems[allFlows[i].system].h2d[allFlows[i].row];
        row.allSystemsGBps = rates[i].rate;
        const double loss = row.concurrentGBps - rates[i].rate;
        if (loss > 1e-6 * std::max(1.0, row.concurrentGBps) && rates[i].bottleneck >= 0)
            lost[{allFlows[i].system, rates[i].bottleneck}] += loss;
    }
    for (const auto &[key, gbps] : lost) {
        const auto [system, resource] = key;
        SharedCost cost;
        cost.part = router.resourceLabel(std::size_t(resource));
        cost.lostGBps = gbps;
        for (std::size_t other : systemsOn[std::size_t(resource)]) {
            if (other != system)
                cost.sharedWith.push_back(out.systems[other].name);
        }
        out.systems[system].sharing.push_back(std::move(cost));
    }

    // Between systems over the network: all NICs of the smaller side at once. Only systems
    // with a cabled NIC take part, so a large pool of uncabled systems costs nothing here.
    std::vector<std::size_t> networked;
    for (std::size_t a = 0; a < out.systems.size(); ++a) {
        const auto &nics = out.systems[a].nics;
        if (std::any_of(nics.begin(), nics.end(), [&](const std::string &nic) {
                return fabric.has(nic) && boost::out_degree(fabric.vertex(nic), fabric.graph()) > 1;
            }))
            networked.push_back(a);
    }
    auto networkPath = [&](std::size_t ia, std::size_t ib) {
        const SystemReport &sa = out.systems[networked[ia]];
        const SystemReport &sb = out.systems[networked[ib]];
        NetworkPath path{sa.name, sb.name, 0, 0, {}};
        std::vector<Flow> netFlows;
        std::vector<Route> routes;
        const std::size_t pairs = std::min(sa.nics.size(), sb.nics.size());
        for (std::size_t i = 0; i < pairs; ++i) {
            Route r = router.network(sa.nics[i], sb.nics[i]);
            if (r.kind == RouteKind::None)
                continue;
            netFlows.push_back(flowOf(r));
            routes.push_back(std::move(r));
        }
        if (routes.empty())
            return;
        for (const FlowRate &fr : maxMinFair(netFlows, capacity))
            path.GBps += fr.rate;
        path.latencyUs = routes.front().latencyUs;
        path.route = nodeIds(fabric, routes.front());
        out.network.push_back(std::move(path));
    };
    auto routesOf = [&](std::size_t ia, std::size_t ib) {
        return std::min(out.systems[networked[ia]].nics.size(),
                        out.systems[networked[ib]].nics.size());
    };
    // Every pair of networked systems, unless that takes more routes than the budget: pairs grow
    // with the square of the systems and each route searches the network, so thousands of
    // networked systems would take hours. Then each system gets the path to the next one (what
    // perf/platform.cpp needs for a multi-node prediction), as far as the budget goes.
    std::size_t needed = 0;
    for (std::size_t ia = 0; ia < networked.size() && needed <= limits::kMaxNetworkRoutes; ++ia) {
        for (std::size_t ib = ia + 1; ib < networked.size() && needed <= limits::kMaxNetworkRoutes;
             ++ib)
            needed += routesOf(ia, ib);
    }
    if (needed <= limits::kMaxNetworkRoutes) {
        for (std::size_t ia = 0; ia < networked.size(); ++ia) {
            for (std::size_t ib = ia + 1; ib < networked.size(); ++ib)
                networkPath(ia, ib);
        }
    } else {
        std::size_t left = limits::kMaxNetworkRoutes;
        std::size_t done = 0;
        for (; done + 1 < networked.size() && routesOf(done, done + 1) <= left; ++done) {
            left -= routesOf(done, done + 1);
            networkPath(done, done + 1);
        }
        out.findings.push_back(
            {design::Severity::Warning,
             std::to_string(networked.size())
                 + " systems are networked: network paths are given from each system to the next "
                   "only, for the first "
                 + std::to_string(done) + " (at most " + std::to_string(limits::kMaxNetworkRoutes)
                 + " NIC-to-NIC routes per analysis)",
             {}});
    }
    attachMeasurements(out, design);
}

Analysis analyze(const design::Design &design, const catalog::Catalog &catalog)
{
    Analysis out;
    out.findings = findingsOf(design, catalog);
    const Fabric fabric(design, catalog);
    Router router(fabric);
    std::vector<std::vector<Route>> h2d;
    for (const design::System &s : design.systems) {
        SystemTables t = tablesOf(fabric, router, s);
        out.systems.push_back(std::move(t.report));
        h2d.push_back(std::move(t.h2d));
    }
    std::vector<const std::vector<Route> *> routes;
    for (const auto &r : h2d)
        routes.push_back(&r);
    finishAnalysis(out, design, fabric, router, routes);
    return out;
}

} // namespace clab::fabric
