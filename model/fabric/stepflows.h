#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace clab::fabric {

// The transfers one training step of a composed system runs at the same time, reduced to what
// decides how they share the fabric: every directed link (or drive) that one of them crosses,
// with its capacity and, for each class of transfer, how many of its flows cross it.
//
// Classes: the gradient ring (each GPU to the next), the input copies (host memory to each GPU),
// storage reads (each drive to host memory) and the network traffic (each GPU to its NIC). The
// performance model gives each class its bytes per flow for a step and asks how long each class
// takes when they all run at once (perf/contention.h): a shared chassis uplink costs only when
// the flows that cross it together exceed it.
enum class FlowClass { Ring = 0, Input = 1, Storage = 2, Network = 3 };
inline constexpr std::size_t kFlowClasses = 4;
const char *flowClassName(FlowClass c);

struct SharedResource
{
    double capacityGBps = 0;
    std::array<int, kFlowClasses> flows{}; // flows of each class crossing it
    std::string label;                     // e.g. "hostA/cpu0 -> pool/up0 (pcie4x16)"
    bool operator==(const SharedResource &) const = default;
};

struct StepFlows
{
    std::vector<SharedResource> resources; // identical (capacity, flows) entries merged
    std::array<int, kFlowClasses> count{}; // flows of each class
    // What a flow of the class keeps of its share of the links: a peer-to-peer copy through a
    // root complex or staged through host memory gets less than the links would carry
    // (catalog routing factors); the smallest over the class's flows.
    std::array<double, kFlowClasses> factor{1, 1, 1, 1};
    std::array<double, kFlowClasses> latencyUs{}; // the largest over the class's flows
    bool operator==(const StepFlows &) const = default;
};

} // namespace clab::fabric
