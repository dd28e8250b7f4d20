#pragma once

// Helpers shared by the three files that read MLPerf system rows: systemspec.cpp (the row, counts,
// intra-node link, PCIe, composable), gpumatch.cpp (accelerator names) and hostnetwork.cpp (host
// processors and host networking). Private to model/perf: not part of the library's interface.

#include "perf/systemspec.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::catalog {
struct Gpu;
}

namespace clab::perf::detail {

// Text scanning (systemspec.cpp)
bool isDigit(char c);
bool isAlnum(char c);
std::string lower(std::string_view text);
bool contains(std::string_view hay, std::string_view needle);
std::string_view trim(std::string_view text);
std::optional<int> parseInt(std::string_view text);
std::vector<std::string> tokens(std::string_view text, bool keepPlus = false);
int leadingNumber(std::string_view token, std::size_t *end = nullptr);

// Whether a field says nothing usable, or names a network rather than a GPU link (systemspec.cpp)
bool describesNetwork(const std::string &text);
bool saysNothing(const std::string &text);

// Accelerator names (gpumatch.cpp)

// What an accelerator name says, whatever order the submitter wrote it in:
// "NVIDIA A100-SXM4-80GB (400W)" -> {a100, sxm, 4, 80, 400}.
struct GpuKey
{
    std::string model;
    std::string form; // "sxm", "pcie", "nvl" or empty
    int formGen = 0;  // SXM generation when written ("SXM" alone leaves it open)
    int memGB = 0;
    int powerW = 0;
    bool highPower = false; // the "-H" (DGX-2H) suffix
};

enum class GpuMatch { Found, NonNvidia, NotInCatalog, Vague };

struct GpuResult
{
    GpuMatch kind = GpuMatch::NotInCatalog;
    const catalog::Gpu *gpu = nullptr;
    GpuKey key;
};

GpuResult resolveGpu(std::string_view accelerator, const catalog::Catalog &cat);

// Host processor and host networking (hostnetwork.cpp)
void readHost(const MlperfSystemFields &fields, const catalog::Catalog &cat, SystemSpec &spec);
void readNetworking(const MlperfSystemFields &fields, SystemSpec &spec);

} // namespace clab::perf::detail
