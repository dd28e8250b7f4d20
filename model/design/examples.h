#pragma once

#include "design/design.h"

#include <string>
#include <string_view>
#include <vector>

namespace clab::design {

struct Example
{
    std::string fileName; // "seed-testbed.clab"
    std::string_view text;
};

// The example designs shipped in resources/examples/, compiled into the program.
std::vector<Example> bundledExamples();
// The seed testbed that the GUI opens on first start.
Design seedTestbed();
inline constexpr const char *kSeedExample = "seed-testbed.clab";

// A synthetic pool of about `devices` devices, for benchmarks and scaling tests: 16-slot Gen4
// chassis, each shared by four dual-socket hosts with one x16 cable each; per host three GPUs and
// one drive or NIC, composed into one system per host.
Design generatePool(int devices);

} // namespace clab::design
