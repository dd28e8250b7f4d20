#include "design/ports.h"

#include "catalog/catalog.h"

#include <utility>

namespace clab::design {

using catalog::Catalog;
using catalog::Kind;

namespace {

bool parsePort(const std::string &port, const char *prefix, int &index)
{
    const std::string p(prefix);
    if (port.rfind(p, 0) != 0 || port.size() == p.size() || port.size() > p.size() + 4)
        return false;
    index = 0;
    for (std::size_t i = p.size(); i < port.size(); ++i) {
        if (port[i] < '0' || port[i] > '9')
            return false;
        index = index * 10 + (port[i] - '0');
    }
    return true;
}

} // namespace

std::string quoted(const std::string &id)
{
    return "\"" + id + "\"";
}

const char *portKindName(PortKind k)
{
    switch (k) {
    case PortKind::None:
        return "nothing";
    case PortKind::HostSocket:
        return "a host socket";
    case PortKind::ChassisPort:
        return "a chassis host port";
    case PortKind::PcieSwitch:
        return "a PCIe switch";
    case PortKind::NetworkSwitch:
        return "a network switch";
    case PortKind::NvSwitch:
        return "an NVSwitch";
    case PortKind::Gpu:
        return "a GPU";
    case PortKind::Nvme:
        return "an NVMe drive";
    case PortKind::Nic:
        return "a NIC";
    }
    return "?";
}

bool isPcieUpstream(PortKind k)
{
    return k == PortKind::HostSocket || k == PortKind::PcieSwitch || k == PortKind::ChassisPort;
}

bool isDevice(PortKind k)
{
    return k == PortKind::Gpu || k == PortKind::Nvme || k == PortKind::Nic;
}

bool pcieCompatible(PortKind a, PortKind b)
{
    if (!isPcieUpstream(a))
        std::swap(a, b);
    if (!isPcieUpstream(a))
        return false; // device to device, or something that has no PCIe port
    switch (a) {
    case PortKind::HostSocket:
        return b == PortKind::ChassisPort || b == PortKind::PcieSwitch || isDevice(b);
    case PortKind::PcieSwitch:
        return b == PortKind::PcieSwitch || b == PortKind::ChassisPort || b == PortKind::HostSocket
               || isDevice(b);
    case PortKind::ChassisPort:
        return b == PortKind::HostSocket || b == PortKind::PcieSwitch;
    default:
        return false;
    }
}

ResolvedEndpoint resolveEndpoint(const DesignIndex &d, const Catalog &c,
                                 const std::string &endpoint)
{
    const Endpoint ep = splitEndpoint(endpoint);
    ResolvedEndpoint r;
    if (const Host *h = d.host(ep.item)) {
        const catalog::Host *spec = c.host(h->model);
        const int sockets = spec ? spec->sockets : 1;
        if (ep.port.empty()) {
            r.kind = PortKind::HostSocket;
        } else if (parsePort(ep.port, "cpu", r.index) && r.index < sockets) {
            r.kind = PortKind::HostSocket;
        } else {
            r.error = quoted(ep.item) + " has no port " + quoted(ep.port) + " (its sockets are cpu0"
                      + (sockets > 1 ? " to cpu" + std::to_string(sockets - 1) : std::string())
                      + ")";
        }
        return r;
    }
    if (const Chassis *ch = d.chassis(ep.item)) {
        const catalog::Chassis *spec = c.chassis(ch->model);
        const int ports = spec ? spec->hostPorts : 0;
        if (parsePort(ep.port, "up", r.index) && r.index < ports)
            r.kind = PortKind::ChassisPort;
        else
            r.error = "a chassis is cabled at a host port up0 to up" + std::to_string(ports - 1)
                      + ", not " + quoted(ep.port.empty() ? ep.item : endpoint);
        return r;
    }
    if (const Switch *s = d.findSwitch(ep.item)) {
        const auto kind = c.kindOf(s->model);
        if (kind == Kind::PcieSwitch)
            r.kind = PortKind::PcieSwitch;
        else if (kind == Kind::NetworkSwitch)
            r.kind = PortKind::NetworkSwitch;
        else if (kind == Kind::NvSwitch)
            r.kind = PortKind::NvSwitch;
        else
            r.error = quoted(ep.item) + " has an unknown model";
        return r;
    }
    if (const Device *dev = d.device(ep.item)) {
        const auto kind = c.kindOf(dev->model);
        if (!ep.port.empty())
            r.error = "device ports are not named; write " + quoted(ep.item);
        else if (kind == Kind::Gpu)
            r.kind = PortKind::Gpu;
        else if (kind == Kind::Nvme)
            r.kind = PortKind::Nvme;
        else if (kind == Kind::Nic)
            r.kind = PortKind::Nic;
        else
            r.error = quoted(ep.item) + " has an unknown model";
        return r;
    }
    r.error = "no item " + quoted(ep.item) + " in the design";
    return r;
}

} // namespace clab::design
