#pragma once

#include "design/designindex.h"

#include <boost/graph/adjacency_list.hpp>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace clab::catalog {
class Catalog;
}

namespace clab::fabric {

// A design as a graph of the parts data moves through: host memory and CPU sockets (root
// complexes), PCIe switches (in chassis and in servers), devices, NVSwitches and network switches.
// Edges are links with their achieved per-direction bandwidth and latency.

enum class NodeType { Memory, Socket, PcieSwitch, Gpu, Nvme, Nic, NvSwitch, NetworkSwitch };
enum class EdgeType { Memory, InterSocket, Pcie, Nvlink, Network };

struct Node
{
    std::string id; // "gpu3", "host1/cpu0", "host1/mem0", "pool/sw2", ...
    NodeType type = NodeType::PcieSwitch;
    std::string owner;       // the host of a socket or memory node; the chassis of a chassis switch
    double hopLatencyUs = 0; // added by a transfer that passes through this node
};

struct Edge
{
    EdgeType type = EdgeType::Pcie;
    double capacityGBps = 0; // achieved, per direction
    double latencyUs = 0;
    std::string what;      // "PCIe Gen4 x16", "12x NVLink 3"
    std::size_t index = 0; // dense edge number, for per-edge arrays
    std::size_t first = 0; // vertex the edge was added from: its "forward" direction
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Node, Edge>;
using Vertex = Graph::vertex_descriptor;
using EdgeId = Graph::edge_descriptor;

class Fabric
{
public:
    // Builds the graph; items the design rules reject (unknown models, bad links) are left out.
    Fabric(const design::Design &design, const catalog::Catalog &catalog);

    const Graph &graph() const { return m_graph; }
    const design::Design &design() const { return m_design; }
    const design::DesignIndex &index() const { return m_index; }
    const catalog::Catalog &catalog() const { return m_catalog; }
    bool has(const std::string &id) const { return m_vertex.count(id) != 0; }
    Vertex vertex(const std::string &id) const { return m_vertex.at(id); }
    const Node &node(Vertex v) const { return m_graph[v]; }
    std::size_t edgeCount() const { return m_edgeCount; }
    // Memory nodes of a host, one per socket.
    std::vector<Vertex> memories(const std::string &hostId) const;

private:
    Vertex addNode(Node node);
    void addEdge(Vertex a, Vertex b, EdgeType type, double capacity, double latency,
                 const std::string &what);
    void addHosts();
    void addChassis();
    void addSwitches();
    void addDevices();
    void addLinks();
    int pcieGenOf(const std::string &endpoint) const;
    int pcieLanesOf(const std::string &item) const;

    const design::Design &m_design;
    const design::DesignIndex m_index;
    const catalog::Catalog &m_catalog;
    Graph m_graph;
    std::unordered_map<std::string, Vertex> m_vertex;
    std::size_t m_edgeCount = 0;
};

} // namespace clab::fabric
