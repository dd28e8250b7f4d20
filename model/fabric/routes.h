#pragma once

#include "fabric/fabric.h"

#include <string>
#include <vector>

namespace clab::fabric {

enum class RouteKind {
    None,          // no path
    HostToDevice,  // host memory to a device over PCIe
    DeviceToHost,  // a device (e.g. a drive) to host memory
    Nvlink,        // GPU to GPU over NVLink, directly or through an NVSwitch
    PcieSwitch,    // peer-to-peer below a common PCIe switch
    RootComplex,   // peer-to-peer through one CPU's root complex
    StagedViaHost, // copied through host memory because peer-to-peer cannot cross sockets
    Network        // NIC to NIC through network switches
};

const char *routeKindName(RouteKind kind);

struct Route
{
    RouteKind kind = RouteKind::None;
    std::vector<Vertex> nodes;          // from source to destination
    std::vector<std::size_t> resources; // directed edges crossed: 2*edge + (0 forward, 1 back)
    double GBps = 0;                    // alone on the fabric
    double latencyUs = 0;
    double factor = 1; // what the route kind keeps of the narrowest link (root complex, staging)
    std::size_t bottleneck = 0; // resource with the least capacity
};

// Finds the routes real traffic takes. Host traffic stays inside one host's PCIe tree; GPUs are
// end points, never relays (hardware does not forward through a GPU).
class Router
{
public:
    explicit Router(const Fabric &fabric);

    // Host memory to each device, from the socket nearest to it.
    std::vector<Route> hostToDevices(const std::string &host,
                                     const std::vector<std::string> &devices);
    // Each device to host memory (the reverse direction, e.g. drives feeding the input pipeline).
    std::vector<Route> devicesToHost(const std::string &host,
                                     const std::vector<std::string> &devices);
    // From one GPU to each of `peers` of the same host: NVLink when there is a path, else PCIe.
    std::vector<Route> peers(const std::string &host, const std::string &from,
                             const std::vector<std::string> &peers);
    // The same over GPU-to-GPU links only (NVLink, xGMI): a kind None route where there is none.
    std::vector<Route> gpuLinkPeers(const std::string &host, const std::string &from,
                                    const std::vector<std::string> &peers);
    // NIC to NIC over the network.
    Route network(const std::string &fromNic, const std::string &toNic);

    // Capacity of every directed resource (both directions of each edge).
    const std::vector<double> &capacities() const { return m_capacity; }
    std::string resourceLabel(std::size_t resource) const;

private:
    enum class Mode { HostPcie, PeerPcie, Nvlink, Network };
    void bfs(const std::vector<Vertex> &sources, Mode mode, const std::string &host);
    bool passable(Vertex v, Mode mode, const std::string &host) const;
    Route extract(Vertex target, RouteKind kind) const;
    void finish(Route &r) const;

    const Fabric &m_fabric;
    std::vector<double> m_capacity;    // by directed resource
    std::vector<double> m_latency;     // by directed resource
    std::vector<const Edge *> m_label; // by edge
    std::vector<unsigned> m_stamp;
    std::vector<EdgeId> m_via;
    std::vector<bool> m_hasVia;
    std::vector<Vertex> m_queue;
    unsigned m_current = 0;
};

} // namespace clab::fabric
