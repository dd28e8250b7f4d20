#pragma once

#include "design/designindex.h"

#include <string>

namespace clab::catalog {
class Catalog;
}

namespace clab::design {

// What kind of port an endpoint is, as the rules and the fabric see it.
enum class PortKind {
    None,
    HostSocket,
    ChassisPort,
    PcieSwitch,
    NetworkSwitch,
    NvSwitch,
    Gpu,
    Nvme,
    Nic
};
struct ResolvedEndpoint
{
    PortKind kind = PortKind::None;
    int index = 0;     // socket or host-port number
    std::string error; // why it does not resolve, when kind is None
};
// Which port kinds a PCIe cable may join (a host socket, a PCIe switch or a chassis host port
// upstream; a device only below one of those).
bool isPcieUpstream(PortKind kind);
bool isDevice(PortKind kind);
bool pcieCompatible(PortKind a, PortKind b);

// What an endpoint ("item" or "item/port") names, or why it names nothing.
ResolvedEndpoint resolveEndpoint(const DesignIndex &design, const catalog::Catalog &catalog,
                                 const std::string &endpoint);

// "a host socket", "a GPU", ...: for messages about ports that cannot be joined.
const char *portKindName(PortKind kind);

// An id in double quotes, as the findings and link messages show ids.
std::string quoted(const std::string &id);

} // namespace clab::design
