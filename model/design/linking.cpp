#include "design/linking.h"

#include "catalog/catalog.h"
#include "design/rules.h"

#include <algorithm>

namespace clab::design {

namespace {

// The PCIe generation and lane count an endpoint offers, 0 when unknown.
catalog::PcieSpec pcieOf(const DesignIndex &d, const catalog::Catalog &c, const std::string &ep)
{
    const Endpoint e = splitEndpoint(ep);
    if (const Host *h = d.host(e.item)) {
        if (const catalog::Host *spec = c.host(h->model))
            return {spec->pcieGen, 16};
    } else if (const Chassis *ch = d.chassis(e.item)) {
        if (const catalog::Chassis *spec = c.chassis(ch->model))
            return {spec->pcieGen, 16};
    } else if (const Switch *s = d.findSwitch(e.item)) {
        if (const catalog::PcieSwitch *spec = c.pcieSwitch(s->model))
            return {spec->gen, 16};
    } else if (const Device *dev = d.device(e.item)) {
        if (const catalog::Gpu *g = c.gpu(dev->model))
            return g->pcie;
        if (const catalog::Nvme *n = c.nvme(dev->model))
            return n->pcie;
        if (const catalog::Nic *n = c.nic(dev->model))
            return n->pcie;
    }
    return {0, 0};
}

const catalog::Nic *nicOf(const DesignIndex &d, const catalog::Catalog &c, const std::string &ep)
{
    const Device *dev = d.device(splitEndpoint(ep).item);
    return dev ? c.nic(dev->model) : nullptr;
}

const catalog::Gpu *gpuOf(const DesignIndex &d, const catalog::Catalog &c, const std::string &ep)
{
    const Device *dev = d.device(splitEndpoint(ep).item);
    return dev ? c.gpu(dev->model) : nullptr;
}

LinkChoice refuse(std::string why)
{
    LinkChoice choice;
    choice.error = std::move(why);
    return choice;
}

LinkChoice choosePcie(const DesignIndex &d, const catalog::Catalog &c, const std::string &from,
                      const std::string &to)
{
    const catalog::PcieSpec a = pcieOf(d, c, from);
    const catalog::PcieSpec b = pcieOf(d, c, to);
    if (a.gen == 0 || b.gen == 0)
        return refuse("the PCIe generation of one side is unknown");
    const int gen = std::min(a.gen, b.gen);
    int lanes = std::min(a.lanes, b.lanes);
    for (const int width : {16, 8, 4}) {
        if (lanes >= width) {
            lanes = width;
            break;
        }
    }
    if (const catalog::LinkKind *kind = c.pcieLink(gen, lanes))
        return {kind->id, 1, {}};
    return refuse("the catalog has no PCIe Gen" + std::to_string(gen) + " x" + std::to_string(lanes)
                  + " link");
}

LinkChoice chooseNvlink(const DesignIndex &d, const catalog::Catalog &c, const std::string &from,
                        const std::string &to, PortKind a, PortKind b)
{
    const catalog::Gpu *ga = gpuOf(d, c, from);
    const catalog::Gpu *gb = gpuOf(d, c, to);
    if (a == PortKind::NvSwitch || b == PortKind::NvSwitch) {
        const catalog::Gpu *gpu = ga ? ga : gb;
        const Switch *s = d.findSwitch(splitEndpoint(a == PortKind::NvSwitch ? from : to).item);
        const catalog::NvSwitch *spec = s ? c.nvSwitch(s->model) : nullptr;
        if (!gpu || !spec)
            return refuse("an NVSwitch board joins GPUs only");
        if (gpu->nvlinkGen != spec->nvlinkGen)
            return refuse("the GPU's NVLink generation does not match the NVSwitch board's");
        return {"nvlink" + std::to_string(spec->nvlinkGen), spec->linksPerGpu, {}};
    }
    if (ga->peerLink.empty() || gb->peerLink.empty())
        return refuse("two GPUs join by NVLink, and one of these has none");
    if (ga->peerLink != gb->peerLink)
        return refuse("the two GPUs have different GPU links (" + ga->peerLink + ", " + gb->peerLink
                      + ")");
    return {ga->peerLink, 1, {}};
}

} // namespace

LinkChoice chooseLink(const DesignIndex &d, const catalog::Catalog &c, const std::string &from,
                      const std::string &to)
{
    if (splitEndpoint(from).item == splitEndpoint(to).item)
        return refuse("a link joins two different items");
    const ResolvedEndpoint a = resolveEndpoint(d, c, from);
    const ResolvedEndpoint b = resolveEndpoint(d, c, to);
    if (a.kind == PortKind::None)
        return refuse(a.error);
    if (b.kind == PortKind::None)
        return refuse(b.error);
    if (pcieCompatible(a.kind, b.kind))
        return choosePcie(d, c, from, to);
    const bool gpuA = a.kind == PortKind::Gpu, gpuB = b.kind == PortKind::Gpu;
    if ((gpuA && gpuB) || (gpuA && b.kind == PortKind::NvSwitch)
        || (gpuB && a.kind == PortKind::NvSwitch))
        return chooseNvlink(d, c, from, to, a.kind, b.kind);
    const catalog::Nic *na = nicOf(d, c, from);
    const catalog::Nic *nb = nicOf(d, c, to);
    if (na && nb) {
        if (na->link != nb->link)
            return refuse("the two NICs speak different networks");
        return {na->link, 1, {}};
    }
    if ((na && b.kind == PortKind::NetworkSwitch) || (nb && a.kind == PortKind::NetworkSwitch)) {
        const catalog::Nic *nic = na ? na : nb;
        const Switch *s = d.findSwitch(splitEndpoint(na ? to : from).item);
        const catalog::NetworkSwitch *spec = s ? c.networkSwitch(s->model) : nullptr;
        const catalog::LinkKind *nicLink = c.link(nic->link);
        const catalog::LinkKind *switchLink = spec ? c.link(spec->link) : nullptr;
        if (!nicLink || !switchLink || nicLink->family != switchLink->family)
            return refuse("the NIC and the switch speak different networks");
        // The slower side sets the cable's speed.
        return {nicLink->rawGBps <= switchLink->rawGBps ? nicLink->id : switchLink->id, 1, {}};
    }
    if (a.kind == PortKind::NetworkSwitch && b.kind == PortKind::NetworkSwitch) {
        const Switch *sa = d.findSwitch(splitEndpoint(from).item);
        const Switch *sb = d.findSwitch(splitEndpoint(to).item);
        const catalog::NetworkSwitch *pa = c.networkSwitch(sa->model);
        const catalog::NetworkSwitch *pb = c.networkSwitch(sb->model);
        if (!pa || !pb || pa->family != pb->family)
            return refuse("the two switches speak different networks");
        return {pa->portGbps <= pb->portGbps ? pa->link : pb->link, 1, {}};
    }
    return refuse("these ports cannot be joined by any cable ComposeLab knows");
}

} // namespace clab::design
