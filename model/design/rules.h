#pragma once

#include "design/design.h"
#include "design/designindex.h"

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
};

const char *severityName(Severity severity);

// The design rules: what a real composable system cannot be (a device composed to two hosts, a
// slot filled twice, ports that cannot be linked, lanes over budget, NVLink on a GPU without it,
// unknown catalog ids, ...). Never throws; every problem becomes a finding.
std::vector<Finding> checkDesign(const Design &design, const catalog::Catalog &catalog);

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

ResolvedEndpoint resolveEndpoint(const DesignIndex &design, const catalog::Catalog &catalog,
                                 const std::string &endpoint);

} // namespace clab::design
