#include "schedule/resources.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "util/inputerror.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace clab::schedule {

int Resources::totalGpus() const
{
    return std::accumulate(localGpus.begin(), localGpus.end(), 0)
           + std::accumulate(pooledGpus.begin(), pooledGpus.end(), 0);
}

std::vector<int> Resources::serverGpus() const
{
    std::vector<int> out = localGpus;
    for (std::size_t c = 0; c < composed.size(); ++c) {
        for (std::size_t h = 0; h < out.size(); ++h)
            out[h] += composed[c][h];
    }
    return out;
}

Resources resourcesOf(const design::Design &d, const catalog::Catalog &catalog,
                      const std::string &file)
{
    Resources r;
    std::map<std::string, int> hostIndex, chassisIndex;
    for (const auto &h : d.hosts) {
        hostIndex[h.id] = int(r.hosts.size());
        r.hosts.push_back(h.id);
    }
    for (const auto &c : d.chassis) {
        chassisIndex[c.id] = int(r.chassis.size());
        r.chassis.push_back(c.id);
    }
    r.localGpus.assign(r.hosts.size(), 0);
    r.pooledGpus.assign(r.chassis.size(), 0);
    r.composed.assign(r.chassis.size(), std::vector<int>(r.hosts.size(), 0));
    r.reachable.assign(r.hosts.size(), {});
    r.localIds.assign(r.hosts.size(), {});
    r.pooledIds.assign(r.chassis.size(), {});
    r.pooledHost.assign(r.chassis.size(), {});

    // Links as an item graph; a host reaches a chassis over switches only.
    std::map<std::string, std::vector<std::string>> next;
    for (const auto &l : d.links) {
        const std::string a = design::splitEndpoint(l.from).item,
                          b = design::splitEndpoint(l.to).item;
        next[a].push_back(b);
        next[b].push_back(a);
    }
    for (std::size_t h = 0; h < r.hosts.size(); ++h) {
        std::set<std::string> seen{r.hosts[h]};
        std::vector<std::string> todo{r.hosts[h]};
        while (!todo.empty()) {
            const std::string item = todo.back();
            todo.pop_back();
            for (const std::string &n : next[item]) {
                if (!seen.insert(n).second)
                    continue;
                if (const auto c = chassisIndex.find(n); c != chassisIndex.end())
                    r.reachable[h].push_back(c->second);
                else if (d.findSwitch(n))
                    todo.push_back(n);
            }
        }
        std::sort(r.reachable[h].begin(), r.reachable[h].end());
    }

    std::map<std::string, int> hostOfDevice; // by the systems
    for (const auto &s : d.systems) {
        if (const auto h = hostIndex.find(s.host); h != hostIndex.end()) {
            for (const std::string &dev : s.devices)
                hostOfDevice[dev] = h->second;
        }
    }
    for (const auto &l : d.links) { // a local device linked to a host's port
        const std::string a = design::splitEndpoint(l.from).item,
                          b = design::splitEndpoint(l.to).item;
        if (hostIndex.count(a) && d.device(b))
            hostOfDevice.emplace(b, hostIndex[a]);
        if (hostIndex.count(b) && d.device(a))
            hostOfDevice.emplace(a, hostIndex[b]);
    }
    std::vector<const design::Device *> gpus;
    for (const auto &dev : d.devices) {
        if (catalog.gpu(dev.model))
            gpus.push_back(&dev);
    }
    std::stable_sort(
        gpus.begin(), gpus.end(),
        [](const design::Device *a, const design::Device *b) { return a->slot < b->slot; });
    for (const design::Device *dev : gpus) {
        const auto host = hostOfDevice.find(dev->id);
        const int h = host != hostOfDevice.end() ? host->second : -1;
        if (const auto c = chassisIndex.find(dev->chassis); c != chassisIndex.end()) {
            const std::size_t ci = std::size_t(c->second);
            ++r.pooledGpus[ci];
            r.pooledIds[ci].push_back(dev->id);
            r.pooledHost[ci].push_back(h);
            if (h >= 0)
                ++r.composed[ci][std::size_t(h)];
        } else if (h >= 0) {
            ++r.localGpus[std::size_t(h)];
            r.localIds[std::size_t(h)].push_back(dev->id);
        }
    }
    bool pool = false;
    for (std::size_t h = 0; h < r.hosts.size(); ++h) {
        for (int c : r.reachable[h])
            pool = pool || r.pooledGpus[std::size_t(c)] > 0;
    }
    if (!pool)
        throw InputError(
            file, "",
            "no pool to schedule on: a pool is a chassis with GPUs in its slots and "
            "at least one host linked to one of its host ports (this design has "
                + std::to_string(r.chassis.size()) + " chassis, " + std::to_string(r.hosts.size())
                + " hosts and "
                + std::to_string(std::accumulate(r.pooledGpus.begin(), r.pooledGpus.end(), 0))
                + " GPUs in chassis)");
    return r;
}

} // namespace clab::schedule
