#include "perf/systemspec.h"
#include "perf/systemspec_p.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <map>

// Reads the free-text system columns of MLPerf Training results. The strings were typed by
// dozens of submitters over six rounds, so every reader below is a small tolerant scanner rather
// than a grammar; the shapes it accepts are the ones seen in shared/reference/
// mlperf_training_calibration.csv (see tests/model/tst_systemspec.cpp for the real examples).
//
// This file holds the row as a whole (counts, intra-node link, PCIe generation, composable
// chassis) and the text helpers; accelerator names are read in gpumatch.cpp, host processors and
// host networking in hostnetwork.cpp, joined by perf/systemspec_p.h.

namespace clab::perf::detail {

bool isDigit(char c)
{
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool contains(std::string_view hay, std::string_view needle)
{
    return hay.find(needle) != std::string_view::npos;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// A whole field that is a plain non-negative integer ("8"), else nullopt ("", "-", "8x").
std::optional<int> parseInt(std::string_view text)
{
    text = trim(text);
    if (text.empty() || text.size() > 9)
        return std::nullopt;
    int value = 0;
    for (char c : text) {
        if (!isDigit(c))
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

// Lower-case runs of letters and digits; '+' is kept when asked because it is part of Intel model
// numbers ("8480+" and "8480" are not the same part in every generation).
std::vector<std::string> tokens(std::string_view text, bool keepPlus)
{
    std::vector<std::string> out;
    std::string current;
    for (char c : text) {
        if (isAlnum(c) || (keepPlus && c == '+' && !current.empty())) {
            current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!current.empty()) {
            out.push_back(std::move(current));
            current.clear();
        }
    }
    if (!current.empty())
        out.push_back(std::move(current));
    return out;
}

// Leading integer of a token ("80gb" -> 80), or -1 when it does not start with a digit.
int leadingNumber(std::string_view token, std::size_t *end)
{
    std::size_t i = 0;
    int value = 0;
    while (i < token.size() && isDigit(token[i]) && i < 9)
        value = value * 10 + (token[i++] - '0');
    if (end)
        *end = i;
    return i == 0 ? -1 : value;
}

// ---------------------------------------------------------------------------------------------
// Generations

namespace {

// "NVLINK 3.0", "NVLink Gen4", "NVLINK2.0", "4th Gen NVLink", else the bidirectional per-GPU
// rate NVIDIA quotes: 300 GB/s (V100, NVLink 2), 600 (A100, 3), 900 (H100, 4), 1800 (B200, 5).
// 0 when absent.
int nvlinkGenFromText(const std::string &text)
{
    for (std::size_t pos = text.find("nvlink"); pos != std::string::npos;
         pos = text.find("nvlink", pos + 1)) {
        std::size_t i = pos + 6;
        while (i < text.size() && text[i] == ' ')
            ++i;
        if (text.compare(i, 3, "gen") == 0)
            i += 3;
        while (i < text.size() && text[i] == ' ')
            ++i;
        // One digit, maybe ".0": "NVLink 600 GB/s" is a rate, not generation 6.
        if (i < text.size() && isDigit(text[i]) && (i + 1 == text.size() || !isDigit(text[i + 1])))
            return text[i] - '0';
        // "4th gen nvlink"
        const std::size_t gen = text.rfind("gen", pos);
        if (gen != std::string::npos && gen + 10 >= pos && gen >= 4 && isDigit(text[gen - 4]))
            return text[gen - 4] - '0';
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!isDigit(text[i]) || (i > 0 && isAlnum(text[i - 1])))
            continue;
        std::size_t end = 0;
        const int n = leadingNumber(std::string_view(text).substr(i), &end);
        std::size_t j = i + end;
        while (j < text.size() && text[j] == ' ')
            ++j;
        if (text.compare(j, 2, "gb") == 0) {
            if (n == 1800)
                return 5;
            if (n == 900)
                return 4;
            if (n == 600)
                return 3;
            if (n == 300)
                return 2;
        }
        i += end;
    }
    return 0;
}

// "PCIe 4.0x16", "PCIe Gen4", "PCIe, Gen5", "2x PCIe Gen 4", "PCIe 4" -> 4; 0 when absent.
int pcieGenFromText(std::string_view raw)
{
    const std::string text = lower(raw);
    const std::size_t pos = text.find("pcie");
    if (pos == std::string::npos)
        return 0;
    std::size_t i = pos + 4;
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '-'))
        ++i;
    if (text.compare(i, 3, "gen") == 0)
        i += 3;
    while (i < text.size() && text[i] == ' ')
        ++i;
    if (i < text.size() && isDigit(text[i]) && (i + 1 == text.size() || !isDigit(text[i + 1])))
        return text[i] - '0';
    return 0;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Intra-node interconnect

bool describesNetwork(const std::string &text)
{
    return (contains(text, "infiniband") || contains(text, "ethernet") || contains(text, "gbe"))
           && !contains(text, "nvlink") && !contains(text, "pcie");
}

bool saysNothing(const std::string &text)
{
    const std::string_view t = trim(text);
    return t.empty() || t == "n/a" || t == "na" || t == "-" || t == "todo" || t == "custom"
           || t == "none";
}

namespace {

void readIntraNode(const MlperfSystemFields &fields, const catalog::Gpu &gpu, SystemSpec &spec)
{
    const std::string text = lower(fields.acceleratorInterconnect);
    const std::string form = lower(gpu.formFactor);
    const bool sxm = form.rfind("sxm", 0) == 0;
    const bool sxm2Board = gpu.id.rfind("V100-SXM2", 0) == 0;
    const bool dgx2Board = gpu.id.rfind("V100-SXM3", 0) == 0;
    const bool unknown = saysNothing(text) || describesNetwork(text);
    const bool nvswitch = contains(text, "nvswitch") || contains(text, "nv switch");
    const bool bridge = contains(text, "bridge");
    const bool nvlink = contains(text, "nvlink");
    const bool pcie = contains(text, "pcie") || contains(text, "pci-e");

    auto inferred = [&](const std::string &why) {
        const std::string given = std::string(trim(fields.acceleratorInterconnect));
        spec.notes.push_back("intra-node link inferred from " + why + " (interconnect field: '"
                             + (given.empty() ? std::string("(empty)") : given) + "')");
    };

    if (spec.gpusPerNode == 1) {
        // One GPU per node has no peer traffic inside the node.
        spec.intraNode = IntraNode::Pcie;
    } else if (spec.composable) {
        spec.intraNode = IntraNode::Pcie;
    } else if (nvswitch || dgx2Board) {
        // V100-SXM3 exists only on the DGX-2/HGX-2 NVSwitch baseboard.
        spec.intraNode = IntraNode::NvSwitch;
    } else if (form == "superchip" && gpu.arch == "Blackwell") {
        // A Grace-Blackwell superchip's GPUs reach each other only through NVLink switch trays
        // (GB200 NVL72: 18 compute trays of 4 GPUs, one NVLink domain), never over PCIe. A
        // Grace-Hopper superchip (GH200) has one GPU and may sit in a node without NVLink
        // between nodes' GPUs: the text decides, below.
        spec.intraNode = IntraNode::NvSwitch;
        if (unknown || !nvlink)
            inferred("the Superchip form factor (NVLink switch trays)");
    } else if (form == "oam") {
        // An AMD Instinct OAM sits on a baseboard that joins every pair of its 8 GPUs by one
        // Infinity Fabric (xGMI) link, whatever the text says ("XGMI", "Infinity Fabric Link",
        // "None" or nothing).
        spec.intraNode = IntraNode::NvlinkMesh;
        if (unknown || !(contains(text, "xgmi") || contains(text, "infinity")))
            inferred("the OAM form factor (an Infinity Fabric mesh on the baseboard)");
    } else if (bridge && gpu.nvlinkGen > 0) {
        spec.intraNode = IntraNode::NvlinkBridge;
    } else if (sxm) {
        // An SXM module always sits on an NVLink baseboard, whatever the text says: DGX-1/HGX-1
        // V100 boards are the hybrid cube mesh; A100/H100 boards of 8 carry NVSwitches, boards
        // of 4 (HGX A100/H100 4-GPU) join every pair directly without a switch.
        spec.intraNode
            = (sxm2Board || spec.gpusPerNode <= 4) ? IntraNode::NvlinkMesh : IntraNode::NvSwitch;
        if (unknown)
            inferred("the " + gpu.formFactor + " form factor and "
                     + std::to_string(spec.gpusPerNode) + " GPUs per node");
        else if (!nvlink)
            inferred("the " + gpu.formFactor + " form factor; the text names no NVLink");
    } else if (form == "nvl") {
        // H100 NVL is sold as a pair of PCIe cards joined by three NVLink bridges.
        spec.intraNode = IntraNode::NvlinkBridge;
        if (!nvlink)
            inferred("the NVL form factor (bridged pairs)");
    } else if (nvlink && gpu.nvlinkGen > 0) {
        // A PCIe card reaches NVLink only through a bridge.
        spec.intraNode = IntraNode::NvlinkBridge;
        spec.notes.push_back("NVLink on a PCIe card read as NVLink bridges");
    } else {
        spec.intraNode = IntraNode::Pcie;
        if (unknown)
            inferred("the PCIe form factor");
        else if (!pcie)
            inferred("the PCIe form factor; the text does not fit it");
    }

    if (spec.intraNode == IntraNode::Pcie || gpu.nvlinkGen == 0)
        return;
    spec.nvlinkGen = gpu.nvlinkGen;
    const int textGen = nvlinkGenFromText(text);
    if (textGen != 0 && textGen != gpu.nvlinkGen)
        spec.notes.push_back("interconnect says NVLink " + std::to_string(textGen) + " but "
                             + gpu.id + " has NVLink " + std::to_string(gpu.nvlinkGen) + "; using "
                             + std::to_string(gpu.nvlinkGen));
}

void readPcieGen(const MlperfSystemFields &fields, const catalog::Catalog &cat,
                 const catalog::Gpu &gpu, SystemSpec &spec)
{
    int gen = pcieGenFromText(fields.acceleratorHostInterconnect);
    if (gen == 0)
        gen = pcieGenFromText(fields.acceleratorInterconnect);
    if (gen == 0) {
        gen = gpu.pcie.gen;
        const catalog::Host *host = spec.host.empty() ? nullptr : cat.host(spec.host);
        if (host && host->pcieGen > 0 && host->pcieGen < gen) {
            gen = host->pcieGen;
            spec.notes.push_back("PCIe generation limited by host " + host->id);
        }
    } else if (gpu.pcie.gen > 0 && gen > gpu.pcie.gen) {
        spec.notes.push_back("host interconnect says PCIe " + std::to_string(gen) + " but " + gpu.id
                             + " is PCIe " + std::to_string(gpu.pcie.gen));
        gen = gpu.pcie.gen;
    }
    spec.pcieGen = gen;
}

bool mentionsComposable(const MlperfSystemFields &fields)
{
    for (const std::string *field :
         {&fields.hwNotes, &fields.acceleratorInterconnect, &fields.acceleratorHostInterconnect,
          &fields.hostNetworkingTopology}) {
        const std::string text = lower(*field);
        if (contains(text, "composable") || contains(text, "liqid") || contains(text, "gigaio")
            || contains(text, "falcon"))
            return true;
        if (contains(text, "external")
            && (contains(text, "pci") || contains(text, "box") || contains(text, "chassis")
                || contains(text, "enclosure")))
            return true;
        for (const std::string &t : tokens(text))
            if (t == "cdi")
                return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------

bool readCounts(const MlperfSystemFields &fields, SystemSpec &spec, std::string &reason)
{
    std::optional<int> perNode = parseInt(fields.acceleratorsPerNode);
    std::optional<int> nodes = parseInt(fields.numberOfNodes);
    const std::optional<int> total = parseInt(fields.acceleratorCount);
    if (!perNode) {
        if (total && nodes && *nodes > 0 && *total % *nodes == 0) {
            perNode = *total / *nodes;
            spec.notes.push_back("GPUs per node from accelerator_count / number_of_nodes");
        } else if (total && !nodes) {
            perNode = *total;
            nodes = 1;
            spec.notes.push_back("no per-node or node count: all GPUs assumed in one node");
        } else {
            reason = "unparseable GPU count: per node '" + fields.acceleratorsPerNode + "', total '"
                     + fields.acceleratorCount + "'";
            return false;
        }
    }
    if (*perNode <= 0) {
        reason = "no GPUs per node: '" + fields.acceleratorsPerNode + "'";
        return false;
    }
    if (!nodes) {
        if (total && *total % *perNode == 0) {
            nodes = *total / *perNode;
            spec.notes.push_back("node count from accelerator_count / accelerators_per_node");
        } else {
            nodes = 1;
            spec.notes.push_back("number of nodes missing; assumed 1");
        }
    }
    if (*nodes <= 0) {
        reason = "no nodes: '" + fields.numberOfNodes + "'";
        return false;
    }
    spec.gpusPerNode = *perNode;
    spec.nodes = *nodes;
    if (total && *total != *perNode * *nodes)
        spec.notes.push_back("accelerator_count " + std::to_string(*total) + " differs from "
                             + std::to_string(*perNode) + " x " + std::to_string(*nodes));
    return true;
}

} // namespace

} // namespace clab::perf::detail

namespace clab::perf {

ParsedSystem parseMlperfSystem(const MlperfSystemFields &fields, const catalog::Catalog &catalog)
{
    ParsedSystem parsed;
    const std::string name(detail::trim(fields.accelerator));
    const detail::GpuResult gpu = detail::resolveGpu(name, catalog);
    switch (gpu.kind) {
    case detail::GpuMatch::NonNvidia:
        parsed.skipReason = "non-NVIDIA accelerator: " + (name.empty() ? "(empty)" : name);
        return parsed;
    case detail::GpuMatch::NotInCatalog:
        parsed.skipReason = "GPU not in catalog: " + name;
        return parsed;
    case detail::GpuMatch::Vague:
        parsed.skipReason = "accelerator name too vague: " + name;
        return parsed;
    case detail::GpuMatch::Found:
        break;
    }

    SystemSpec spec;
    spec.gpu = gpu.gpu->id;
    if (gpu.key.highPower)
        spec.notes.push_back("'-H' high-power variant mapped to " + spec.gpu);
    if (gpu.key.powerW > 0 && gpu.gpu->tdpW > 0
        && gpu.key.powerW != static_cast<int>(gpu.gpu->tdpW))
        spec.notes.push_back("runs at " + std::to_string(gpu.key.powerW) + " W; catalog part is "
                             + std::to_string(static_cast<int>(gpu.gpu->tdpW)) + " W");
    if (!detail::readCounts(fields, spec, parsed.skipReason))
        return parsed;

    spec.composable = detail::mentionsComposable(fields);
    if (spec.composable)
        spec.notes.push_back("GPUs in an external PCIe chassis");
    detail::readHost(fields, catalog, spec);
    detail::readIntraNode(fields, *gpu.gpu, spec);
    detail::readPcieGen(fields, catalog, *gpu.gpu, spec);
    detail::readNetworking(fields, spec);
    parsed.spec = std::move(spec);
    return parsed;
}

} // namespace clab::perf
