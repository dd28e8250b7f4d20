#pragma once

#include "design/design.h"
#include "machine/topomatrix.h"

#include <string>
#include <string_view>
#include <vector>

namespace clab::catalog {
class Catalog;
}

namespace clab::machine {

// `composelab machine`: a design built from what a real machine printed.
struct MachineOptions
{
    std::string gpu;  // catalog GPU for every GPU; empty: from `nvidia-smi -L` among the inputs
    std::string name; // design and system name; empty: the host name of the paste, or "machine"
    std::string host; // catalog host; empty: a two-socket host of the GPUs' PCIe generation
    std::string nic;  // catalog NIC for the NICs; empty: a ConnectX-6 HDR (matrix), the described
                      // rate (MLPerf)
};

struct MachineInput
{
    std::string path;
    std::string text;
};

enum class InputKind { TopoMatrix, GpuNames, MlperfSystem, Other };
// What a machine input is, by its content.
InputKind kindOf(std::string_view text);

// GPU names in index order from `nvidia-smi -L` ("GPU 0: NVIDIA H100 PCIe (UUID: ...)") or
// `nvidia-smi --query-gpu=name --format=csv[,noheader]`; empty when the text is neither.
std::vector<std::string> gpuNames(std::string_view text);

struct MachineDesign
{
    design::Design design;
    std::vector<std::string> notes; // what was read, assumed or left out, for the user
};

// The design of a machine from its topology matrix. `gpuModels` are catalog GPU ids, one for
// every GPU of the matrix (in index order) or a single one for all. Throws InputError naming
// `file` when a GPU model is missing or unknown (the message lists the catalog's GPUs).
MachineDesign designFromTopo(const TopoMatrix &topo, const std::vector<std::string> &gpuModels,
                             const MachineOptions &options, const catalog::Catalog &catalog,
                             const std::string &file);

// The design of an MLPerf Training `systems/*.json`: one node as the model builds MLPerf rows, and
// a cluster of that many nodes when there are several. Throws InputError naming the file and what
// cannot be built (a TPU, a GPU the catalog lacks).
MachineDesign designFromMlperfSystem(std::string_view text, const MachineOptions &options,
                                     const catalog::Catalog &catalog, const std::string &file);

// The design of a machine from its inputs (a topology matrix with `nvidia-smi -L` output, or an
// MLPerf system file). Inputs of other kinds are left to the caller (measurements). Throws
// InputError for a missing or contradictory input, naming the file.
MachineDesign buildMachine(const std::vector<MachineInput> &inputs, const MachineOptions &options,
                           const catalog::Catalog &catalog);

// "V100-SXM2-16GB, ..., RTX-3090": for messages that ask for a GPU.
std::string catalogGpuList(const catalog::Catalog &catalog);

} // namespace clab::machine
