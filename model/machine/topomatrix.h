#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace clab::machine {

// What `nvidia-smi topo -m` prints: how every pair of GPUs and NICs is connected, and which CPUs
// and NUMA node each GPU is near. Read from any driver since 2016 (SOC or SYS/NODE legends), with
// tabs or spaces, ANSI escapes, a shell prompt before it and other output after it.
struct TopoMatrix
{
    std::vector<std::string> devices; // column order: "GPU0", ..., "NIC0", ...
    std::vector<std::vector<std::string>>
        cells;                             // [row][column]: "X", "NV12", "PIX", "SYS"; "" unknown
    std::vector<std::string> cpuAffinity;  // per device; "" when not printed (NIC rows)
    std::vector<std::string> numaAffinity; // per device; "" when not printed or "N/A"
    std::map<std::string, std::string> nicNames; // "NIC0" -> "mlx5_0", from the NIC legend
    std::string hostName;                        // from a "user@host:~$" prompt line, if any

    bool isGpu(std::size_t i) const { return devices[i].rfind("GPU", 0) == 0; }
    // The connection of two devices as either row prints it ("" when neither does).
    const std::string &cell(std::size_t a, std::size_t b) const;
};

// True when the text holds a topology matrix (a header of GPU columns followed by their rows).
bool looksLikeTopoMatrix(std::string_view text);
// Reads the first topology matrix of the text; throws InputError naming the file and line, and what
// was expected, when it is not one or is cut short.
TopoMatrix parseTopoMatrix(std::string_view text, const std::string &file);

// Connection codes, nearest first.
enum class Hop { Self, Nvlink, Pix, Pxb, Phb, Node, Sys, Unknown };
Hop hopOf(std::string_view code);
int nvlinkCount(std::string_view code); // NV12 -> 12; 0 for other codes

} // namespace clab::machine
