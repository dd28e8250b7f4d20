#include "perf/systemspec.h"
#include "perf/systemspec_p.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cctype>

// Accelerator names of MLPerf Training rows, matched to catalog GPUs (see systemspec.cpp for how
// the free-text columns are read).

namespace clab::perf::detail {

// ---------------------------------------------------------------------------------------------
// Accelerator names

namespace {

std::string alnumLower(std::string_view text)
{
    std::string out;
    for (char c : text)
        if (isAlnum(c))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Whether text, lower-cased and stripped of everything but letters and digits, equals flat;
// without building the stripped string (this runs for every alias of every row).
bool sameFlat(std::string_view flat, std::string_view text)
{
    std::size_t i = 0;
    for (char c : text) {
        if (!isAlnum(c))
            continue;
        if (i == flat.size() || flat[i] != std::tolower(static_cast<unsigned char>(c)))
            return false;
        ++i;
    }
    return i == flat.size();
}

GpuKey parseGpuName(std::string_view name)
{
    GpuKey key;
    bool nvl = false;
    for (const std::string &t : tokens(name)) {
        std::size_t end = 0;
        const int number = leadingNumber(t, &end);
        if (t == "h") {
            key.highPower = true;
        } else if (t.rfind("sxm", 0) == 0) {
            key.form = "sxm";
            if (t.size() > 3)
                key.formGen = std::max(0, leadingNumber(std::string_view(t).substr(3)));
        } else if (t == "pcie") {
            if (key.form.empty())
                key.form = "pcie";
        } else if (t == "nvl") {
            nvl = true;
        } else if (number >= 0 && t.substr(end) == "gb") {
            key.memGB = number;
        } else if (number >= 0 && t.substr(end) == "w") {
            key.powerW = number;
        } else if (key.model.empty() && number < 0 && t.rfind("hbm", 0) != 0) {
            // A model token is letters then digits, maybe one more letter: v100, l40s, a5000.
            std::size_t i = 0;
            while (i < t.size() && !isDigit(t[i]))
                ++i;
            if (i > 0 && i <= 2 && i < t.size()) {
                std::size_t j = i;
                while (j < t.size() && isDigit(t[j]))
                    ++j;
                if (t.size() - j <= 1)
                    key.model = t;
            }
        }
    }
    // "H100 NVL Tensor Core GPU (PCIe)": the NVL pair is a PCIe card, but a distinct part.
    if (nvl)
        key.form = "nvl";
    return key;
}

GpuKey catalogKey(const catalog::Gpu &gpu)
{
    GpuKey key = parseGpuName(gpu.id);
    if (key.form.empty())
        key.form = lower(gpu.formFactor).rfind("sxm", 0) == 0 ? "sxm" : lower(gpu.formFactor);
    if (key.memGB == 0)
        key.memGB = static_cast<int>(gpu.memGB + 0.5);
    return key;
}

bool looksNonNvidia(const std::string &lowered)
{
    static const char *const markers[]
        = {"tpu",    "gaudi",    "habana", "ipu", "graphcore", "ascend",    "amd",
           "radeon", "instinct", "intel",  "n/a", "cerebras",  "sambanova", "kunlun"};
    for (const char *m : markers)
        if (contains(lowered, m))
            return true;
    return false;
}

} // namespace

GpuResult resolveGpu(std::string_view accelerator, const catalog::Catalog &cat)
{
    GpuResult result;
    const std::string lowered = lower(trim(accelerator));
    if (lowered.empty()) {
        result.kind = GpuMatch::NonNvidia;
        return result;
    }
    result.key = parseGpuName(accelerator);

    // Exact id or alias, ignoring case and punctuation: the catalog lists the spellings it has
    // seen, and those win over the structural match below (the only match for the few other
    // makers' parts it has, such as AMD's Instinct MI300X).
    const std::string flat = alnumLower(accelerator);
    for (const auto &[id, gpu] : cat.gpus()) {
        bool same = sameFlat(flat, id);
        for (const std::string &alias : gpu.aliases)
            same = same || sameFlat(flat, alias);
        if (same) {
            result.kind = GpuMatch::Found;
            result.gpu = &gpu;
            return result;
        }
    }
    if (looksNonNvidia(lowered)) {
        result.kind = GpuMatch::NonNvidia;
        return result;
    }

    const GpuKey &key = result.key;
    const bool nvidiaWord = contains(lowered, "nvidia") || contains(lowered, "tesla")
                            || contains(lowered, "rtx") || contains(lowered, "quadro");
    const bool nvidiaModel
        = !key.model.empty()
          && std::string_view("vahltbpk").find(key.model[0]) != std::string_view::npos;
    if (!nvidiaWord && !nvidiaModel) {
        result.kind = GpuMatch::NonNvidia;
        return result;
    }
    if (key.model.empty()) {
        result.kind = GpuMatch::Vague;
        return result;
    }

    std::vector<const catalog::Gpu *> candidates;
    for (const auto &[id, gpu] : cat.gpus()) {
        // Cheap filter before parsing the id: catalog ids start with the model ("L40S-...").
        if (id.size() < key.model.size() || !sameFlat(key.model, id.substr(0, key.model.size()))
            || (id.size() > key.model.size() && isAlnum(id[key.model.size()])))
            continue;
        const GpuKey c = catalogKey(gpu);
        if (c.model != key.model)
            continue;
        if (!key.form.empty() && key.form != c.form)
            continue;
        if (key.formGen != 0 && key.formGen != c.formGen)
            continue;
        if (key.memGB != 0 && key.memGB != c.memGB)
            continue;
        candidates.push_back(&gpu);
    }
    if (candidates.size() == 1) {
        result.kind = GpuMatch::Found;
        result.gpu = candidates.front();
    } else {
        // Several parts fit ("NVIDIA A100": SXM4 or PCIe, 40 or 80 GB) or none does.
        result.kind = candidates.empty() ? GpuMatch::NotInCatalog : GpuMatch::Vague;
    }
    return result;
}

} // namespace clab::perf::detail

namespace clab::perf {

std::optional<std::string> matchGpu(std::string_view accelerator, const catalog::Catalog &catalog)
{
    const detail::GpuResult result = detail::resolveGpu(accelerator, catalog);
    if (result.kind != detail::GpuMatch::Found)
        return std::nullopt;
    return result.gpu->id;
}

} // namespace clab::perf
