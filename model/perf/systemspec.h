#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::catalog {
class Catalog;
}

namespace clab::perf {

// A training system as the performance model sees it, whether it came from a design (a composed
// system, or several joined by a network) or from the free-text fields of a recorded result.
enum class IntraNode {
    Unknown,
    NvSwitch,     // every GPU pair through an NVSwitch (DGX/HGX)
    NvlinkBridge, // GPU pairs joined by NVLink bridges, the rest over PCIe
    NvlinkMesh,   // direct NVLink between some pairs (DGX-1 hybrid cube mesh), no switch
    Pcie          // PCIe only
};

struct SystemSpec
{
    std::string gpu; // catalog GPU id, e.g. "A100-SXM4-80GB"
    int gpusPerNode = 0;
    int nodes = 1;
    std::string host;         // catalog host id when the processor is known, else empty
    int hostCoresPerNode = 0; // CPU cores per node (all sockets), 0 when unknown
    IntraNode intraNode = IntraNode::Unknown;
    int nvlinkGen = 0; // generation of the NVLink in use, 0 for none
    int pcieGen = 0;   // PCIe generation between host and GPUs
    bool composable
        = false; // GPUs in an external PCIe chassis ("GPUs are installed in an external PCI box")
    int chassisUplinks
        = 0; // host cables into each chassis, spread over the sockets; 0: one per socket
    double networkGbpsPerNode
        = 0; // inter-node line rate per node, all NICs (Gb/s); 0 when unknown/none
    std::string networkFamily; // "infiniband", "ethernet" or empty
    // The NIC ports making up networkGbpsPerNode, a group per rate as the description lists them
    // ("8x 400Gb/s NDR, 2x 200Gb/s HDR": {8, 400}, {2, 200}); empty when not known.
    struct Ports
    {
        int count = 0;
        double gbps = 0; // each
    };
    std::vector<Ports> networkPorts;
    std::vector<std::string> notes; // what was assumed, for the report
};

// The fields of one row of an MLPerf results table (mlperf_training_calibration.csv header).
struct MlperfSystemFields
{
    std::string accelerator;             // "NVIDIA A100-SXM4-80GB (400W)"
    std::string acceleratorsPerNode;     // "8"
    std::string numberOfNodes;           // "1"
    std::string acceleratorCount;        // "8" (total), used when per-node is missing
    std::string hostProcessor;           // "2x AMD EPYC 7742", "AMD EPYC 7742 64-Core Processor"
    std::string hostProcessorsPerNode;   // "2"
    std::string hostProcessorCoreCount;  // "64"
    std::string acceleratorInterconnect; // "NVLINK 3.0, NVSWITCH 2.0 600GB/s"
    std::string acceleratorHostInterconnect; // "PCIe 4.0 x16"
    std::string hostNetworking; // "8x 200Gb/s HDR InfiniBand", "Mellanox ConnectX-6 ..."
    std::string hostNetworkingTopology;
    std::string hwNotes; // "GPUs are installed in an external PCI box"
};

struct ParsedSystem
{
    std::optional<SystemSpec> spec; // nullopt when the row cannot be modelled
    std::string skipReason;         // why not, e.g. "non-NVIDIA accelerator: tpu-v3"
};

// Understands the messy strings of MLPerf system descriptions: accelerator names with power
// suffixes and vendor prefixes, "2x AMD EPYC 7742", "NVLINK 3.0, NVSWITCH 2.0 600GB/s",
// "8x 200Gb/s HDR InfiniBand". Never guesses at random: what it cannot read it either leaves
// unknown (with a note) or gives as the reason to skip.
ParsedSystem parseMlperfSystem(const MlperfSystemFields &fields, const catalog::Catalog &catalog);

// The catalog GPU that an accelerator name means, or nullopt ("NVIDIA A100-SXM-80GB CTS" ->
// "A100-SXM4-80GB", "Tesla V100-SXM3-32GB-H" -> "V100-SXM3-32GB").
std::optional<std::string> matchGpu(std::string_view accelerator, const catalog::Catalog &catalog);

} // namespace clab::perf
