#pragma once

#include "schedule/resources.h"

#include <memory>
#include <tuple>
#include <vector>

namespace clab::schedule {

// What a running job holds: GPUs of static servers, or a pool's local GPUs and chassis GPUs
// composed to a host.
struct Holding
{
    std::vector<std::pair<int, int>> servers;          // static: (server, GPUs)
    std::vector<std::pair<int, int>> local;            // pool: (host, GPUs)
    std::vector<std::tuple<int, int, int>> composedTo; // pool: (chassis, host, GPUs)
    // pool: where those GPUs were composed before (chassis, host or -1 for none, GPUs), so that
    // a take can be undone exactly
    std::vector<std::tuple<int, int, int>> composedFrom;
    bool recomposed = false; // pool: some GPUs changed host
};

class Allocator
{
public:
    virtual ~Allocator() = default;
    virtual bool canEverFit(int gpus) const = 0; // on this system when it is empty
    virtual bool take(int gpus, Holding &out) = 0;
    virtual void give(const Holding &h) = 0; // the job ended: its GPUs stay composed where it ran
    virtual void undo(const Holding &h) = 0; // a take that did not start: as if never taken
    virtual std::unique_ptr<Allocator> clone() const = 0; // to try the future on a copy
    int freeGpus() const { return m_free; }

protected:
    int m_free = 0;
};

std::unique_ptr<Allocator> staticServers(const Resources &r);
std::unique_ptr<Allocator> composablePool(const Resources &r);

} // namespace clab::schedule
