#pragma once

#include "machine/machine.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab machine FILE... [--gpu MODEL] [--name NAME] [--host MODEL] [--nic MODEL]
// --out DESIGN.clab`: a design from what a real machine printed (`nvidia-smi topo -m` with
// `nvidia-smi -L`, or an MLPerf systems/*.json).
struct MachineCommandOptions
{
    std::vector<std::string> files;
    machine::MachineOptions machine;
    std::string out;
    bool force = false; // replace an existing OUT
};

// 0 written, 1 an input that cannot be read or built (named, with the place), OUT untouched.
int machineCommand(const MachineCommandOptions &options, std::ostream &out, std::ostream &err);
void addMachineSubcommand(CLI::App &app, MachineCommandOptions &options);

} // namespace clab::cli
