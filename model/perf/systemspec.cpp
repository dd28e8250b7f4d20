#include "perf/systemspec.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <map>

// Reads the free-text system columns of MLPerf Training results. The strings were typed by
// dozens of submitters over six rounds, so every reader below is a small tolerant scanner rather
// than a grammar; the shapes it accepts are the ones seen in shared/reference/
// mlperf_training_calibration.csv (see tests/model/tst_systemspec.cpp for the real examples).

namespace clab::perf {

namespace {

bool isDigit(char c)
{
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

bool isLower(char c)
{
    return std::islower(static_cast<unsigned char>(c)) != 0;
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
std::vector<std::string> tokens(std::string_view text, bool keepPlus = false)
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

// Whether text holds model as a whole token, ignoring case ("8480" is not in "8480C"; "8480" is
// in "8480+", the "+" that submitters drop).
bool hasModelToken(std::string_view text, std::string_view model)
{
    for (std::size_t at = 0; at + model.size() <= text.size(); ++at) {
        if (at > 0 && isAlnum(text[at - 1]))
            continue;
        bool same = true;
        for (std::size_t k = 0; k < model.size() && same; ++k)
            same = std::tolower(static_cast<unsigned char>(text[at + k])) == model[k];
        const std::size_t end = at + model.size();
        if (same && (end == text.size() || !isAlnum(text[end])))
            return true;
    }
    return false;
}

// Leading integer of a token ("80gb" -> 80), or -1 when it does not start with a digit.
int leadingNumber(std::string_view token, std::size_t *end = nullptr)
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
// Accelerator names

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

enum class GpuMatch { Found, NonNvidia, NotInCatalog, Vague };

struct GpuResult
{
    GpuMatch kind = GpuMatch::NotInCatalog;
    const catalog::Gpu *gpu = nullptr;
    GpuKey key;
};

GpuResult resolveGpu(std::string_view accelerator, const catalog::Catalog &cat)
{
    GpuResult result;
    const std::string lowered = lower(trim(accelerator));
    if (lowered.empty() || looksNonNvidia(lowered)) {
        result.kind = GpuMatch::NonNvidia;
        return result;
    }
    result.key = parseGpuName(accelerator);

    // Exact id or alias, ignoring case and punctuation: the catalog lists the spellings it has
    // seen, and those win over the structural match below.
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

// ---------------------------------------------------------------------------------------------
// Host processors

// Model numbers in a processor name: "8480c", "8462y+", "7742", "7v12", "power9", "2698".
std::vector<std::string> cpuModels(std::string_view text)
{
    std::vector<std::string> out;
    for (const std::string &t : tokens(text, true)) {
        if (t.rfind("power", 0) == 0 && t.size() > 5 && isDigit(t[5])) {
            out.push_back(t);
            continue;
        }
        const auto digits = std::count_if(t.begin(), t.end(), isDigit);
        if (t.size() >= 4 && digits >= 3 && isDigit(t[0]) && !contains(t, "ghz")
            && !contains(t, "core"))
            out.push_back(t);
    }
    return out;
}

const catalog::Host *matchHost(std::string_view processor, const catalog::Catalog &cat)
{
    const std::vector<std::string> wanted = cpuModels(processor);
    if (wanted.empty())
        return nullptr;
    // The suffix letters name different parts (8380H is a 28-core Cooper Lake, 6248R a 24-core
    // refresh), so only the exact model number, letters included, counts.
    for (const auto &[id, host] : cat.hosts()) {
        for (const std::string &w : wanted) {
            bool found = hasModelToken(host.cpu, w);
            for (const std::string &alias : host.aliases)
                found = found || hasModelToken(alias, w);
            if (found)
                return &host;
        }
    }
    return nullptr;
}

// "AMD EPYC 7763 64-Core Processor" -> 64.
int coresFromName(std::string_view processor)
{
    const std::string text = lower(processor);
    const std::size_t pos = text.find("-core");
    if (pos == std::string::npos)
        return 0;
    std::size_t begin = pos;
    while (begin > 0 && isDigit(text[begin - 1]))
        --begin;
    return begin == pos ? 0 : leadingNumber(std::string_view(text).substr(begin));
}

// "2x AMD EPYC 7742" -> 2.
int socketsFromName(std::string_view processor)
{
    const std::string_view text = trim(processor);
    std::size_t end = 0;
    const int n = leadingNumber(text, &end);
    if (n > 0 && end < text.size() && (text[end] == 'x' || text[end] == 'X'))
        return n;
    return 0;
}

void readHost(const MlperfSystemFields &fields, const catalog::Catalog &cat, SystemSpec &spec)
{
    const catalog::Host *host = matchHost(fields.hostProcessor, cat);
    int sockets = parseInt(fields.hostProcessorsPerNode).value_or(0);
    if (sockets == 0)
        sockets = socketsFromName(fields.hostProcessor);
    const bool socketsGiven = sockets > 0;
    if (host) {
        if (!socketsGiven || sockets == host->sockets) {
            spec.host = host->id;
            sockets = host->sockets;
        } else {
            spec.notes.push_back("host " + host->id + " has " + std::to_string(host->sockets)
                                 + " sockets but the row says " + std::to_string(sockets)
                                 + "; host left unset");
        }
    } else {
        const std::string_view text = trim(fields.hostProcessor);
        spec.notes.push_back("host processor not in catalog: '"
                             + std::string(text.empty() ? "(empty)" : text) + "'");
    }

    const int perSocket = host ? host->coresPerSocket : coresFromName(fields.hostProcessor);
    const int count = parseInt(fields.hostProcessorCoreCount).value_or(0);
    const std::string socketText = std::to_string(sockets);
    if (count > 0 && sockets > 0) {
        if (perSocket > 0 && count == perSocket * sockets && sockets > 1) {
            spec.hostCoresPerNode = count;
            spec.notes.push_back("host cores: core-count field " + std::to_string(count)
                                 + " is the node total");
        } else if (perSocket > 0 && count > perSocket) {
            // More cores than one socket of this part has: the submitter gave the node total
            // (or a slightly short one, e.g. 127 with one core reserved).
            spec.hostCoresPerNode = count;
            spec.notes.push_back("host cores: core-count field " + std::to_string(count)
                                 + " exceeds " + std::to_string(perSocket)
                                 + " per socket, taken as the node total");
        } else if (perSocket == 0 && count > 96 && sockets > 1) {
            // No CPU of these rounds has more than 96 cores per socket.
            spec.hostCoresPerNode = count;
            spec.notes.push_back("host cores: core-count field " + std::to_string(count)
                                 + " taken as the node total");
        } else {
            spec.hostCoresPerNode = count * sockets;
            std::string note = "host cores: " + socketText + " x " + std::to_string(count)
                               + " from the core-count fields";
            if (perSocket > 0 && count < perSocket)
                note
                    += " (fewer than the " + std::to_string(perSocket) + " per socket of the part)";
            spec.notes.push_back(note);
        }
    } else if (count > 0) {
        spec.hostCoresPerNode = count;
        spec.notes.push_back("host cores: socket count unknown, core-count field "
                             + std::to_string(count) + " taken as the node total");
    } else if (perSocket > 0 && sockets > 0) {
        spec.hostCoresPerNode = perSocket * sockets;
        spec.notes.push_back("host cores: " + socketText + " x " + std::to_string(perSocket)
                             + (host ? " from the catalog" : " from the processor name"));
    } else {
        spec.notes.push_back("host cores unknown");
    }
}

// ---------------------------------------------------------------------------------------------
// Generations

// "NVLINK 3.0", "NVLink Gen4", "NVLINK2.0", "4th Gen NVLink", else the bidirectional per-GPU
// rate NVIDIA quotes: 300 GB/s (V100, NVLink 2), 600 (A100, 3), 900 (H100, 4). 0 when absent.
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
// Host networking

struct NetworkPart
{
    double gbps = 0;
    std::string family;
};

// One NIC group: "8x ConnectX-6 IB HDR 200Gb/Sec", "InfiniBand HDR 200Gb/s x8", "4x NDR 400G".
NetworkPart readNetworkSegment(std::string_view raw)
{
    NetworkPart part;
    const std::string text = lower(raw);
    const std::vector<std::string> words = tokens(text);
    auto hasWord = [&](std::string_view w) {
        return std::find(words.begin(), words.end(), w) != words.end();
    };

    // Family: a named fabric ("InfiniBand", "Ethernet", "RoCE") beats a unit or signalling
    // name, since "8x 200Gbe Infiniband" uses "Gbe" loosely; among equals the first named wins
    // ("HDR100/100GbE" is a VPI card configured as IB).
    auto firstOf = [&](std::initializer_list<const char *> keys) {
        std::size_t at = std::string::npos;
        for (const char *k : keys)
            at = std::min(at, text.find(k));
        return at;
    };
    std::size_t ibAt = firstOf({"infiniband", "quantum", "omni-path", "omnipath"});
    if (hasWord("ib"))
        ibAt = std::min(ibAt, text.find("ib"));
    std::size_t ethAt = firstOf({"ethernet", "roce"});
    if (ibAt == std::string::npos && ethAt == std::string::npos) {
        ibAt = firstOf({"edr", "hdr", "ndr"});
        ethAt = firstOf({"gbe", "gig"});
    }
    if (ibAt != std::string::npos || ethAt != std::string::npos)
        part.family = ibAt <= ethAt ? "infiniband" : "ethernet";

    // Rate: the largest "<n> Gb/s", "<n>Gbps", "<n>GbE", "<n>G". "GB/s" (bytes) is not a NIC
    // rate here; in these columns it labels PCIe bandwidths or management ports.
    double rate = 0;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (!isDigit(raw[i]) || (i > 0 && (isDigit(raw[i - 1]) || raw[i - 1] == '.')))
            continue;
        std::size_t j = i;
        double value = 0;
        while (j < raw.size() && isDigit(raw[j]))
            value = value * 10 + (raw[j++] - '0');
        while (j < raw.size() && raw[j] == ' ')
            ++j;
        if (j < raw.size() && (raw[j] == 'G' || raw[j] == 'g')) {
            const char next = j + 1 < raw.size() ? raw[j + 1] : ' ';
            if (next == 'b' || !std::isalpha(static_cast<unsigned char>(next)))
                rate = std::max(rate, value);
        }
    }
    if (rate == 0) {
        // Only the signalling name: EDR 100, HDR 200, NDR 400 Gb/s per port.
        static const std::pair<const char *, double> names[]
            = {{"hdr100", 100}, {"ndr200", 200}, {"edr", 100},
               {"hdr", 200},    {"ndr", 400},    {"xdr", 800}};
        for (const auto &[name, value] : names)
            if (hasWord(name)) {
                rate = value;
                break;
            }
    }
    if (rate == 0
        && (contains(text, "gig ") || contains(text, "giga ") || contains(text, "gigabit")))
        rate = 1;

    // Count: "8x", "8 x", "2xBF3" before, "x8" after; "(4X EDR)" in parentheses is the lane
    // width of one port, not a number of NICs.
    int count = 0;
    int depth = 0;
    for (std::size_t i = 0; i < raw.size() && count == 0; ++i) {
        depth += raw[i] == '(' ? 1 : raw[i] == ')' ? -1 : 0;
        if (depth > 0 || !isDigit(raw[i]) || (i > 0 && (isAlnum(raw[i - 1]) || raw[i - 1] == '.')))
            continue;
        std::size_t end = 0;
        const int n = leadingNumber(raw.substr(i), &end);
        std::size_t j = i + end;
        if (j < raw.size() && raw[j] == ' ')
            ++j;
        if (j < raw.size() && (raw[j] == 'x' || raw[j] == 'X')
            && (j + 1 == raw.size() || !isLower(raw[j + 1])))
            count = n;
        i += end - 1;
    }
    for (std::size_t i = 1; i + 1 < raw.size() && count == 0; ++i) {
        if (raw[i] != 'x' || raw[i - 1] != ' ' || !isDigit(raw[i + 1]))
            continue;
        std::size_t end = 0;
        const int n = leadingNumber(raw.substr(i + 1), &end);
        if ((i + 1 + end == raw.size() || !isAlnum(raw[i + 1 + end])) && n <= 64)
            count = n;
    }
    if (count == 0 && (contains(text, "dual port") || contains(text, "dual-port")))
        count = 2;
    part.gbps = rate * std::max(count, 1);
    return part;
}

struct NetworkReading
{
    double gbps = 0;
    std::string family;
    std::string note;
};

NetworkReading readNetwork(std::string_view raw)
{
    NetworkReading reading;
    const std::string text = lower(raw);
    if (saysNothing(text))
        return reading;

    // Split into NIC groups; keep the compute fabric when the submitter labelled it, else drop
    // what is labelled management or storage (those links carry no gradient traffic).
    std::vector<std::pair<std::string_view, int>> segments; // text, 1 compute, -1 other, 0 none
    std::size_t start = 0;
    for (std::size_t i = 0; i <= raw.size(); ++i) {
        const bool split = i == raw.size() || raw[i] == ',' || raw[i] == ';' || raw[i] == '+'
                           || text.compare(i, 5, " and ") == 0;
        if (!split)
            continue;
        std::string_view seg = raw.substr(start, i - start);
        start = i + 1;
        std::string segLower = lower(seg);
        int label = 0;
        const std::size_t compute = segLower.find("compute");
        if (compute != std::string::npos) {
            seg = seg.substr(compute + 7);
            label = 1;
        } else if (contains(segLower, "for ew")) {
            label = 1;
        } else if (contains(segLower, "management") || contains(segLower, "storage")
                   || contains(segLower, "for ns")) {
            label = -1;
        }
        if (!trim(seg).empty())
            segments.emplace_back(seg, label);
    }
    const bool anyCompute = std::any_of(segments.begin(), segments.end(),
                                        [](const auto &s) { return s.second == 1; });
    std::map<std::string, double> byFamily;
    bool anyKept = false;
    for (const auto &[seg, label] : segments) {
        if (anyCompute ? label != 1 : label == -1)
            continue;
        anyKept = true;
        const NetworkPart part = readNetworkSegment(seg);
        byFamily[part.family] += part.gbps;
    }
    if (!anyKept) {
        reading.note = "only management/storage networking listed";
        return reading;
    }
    // Several families unlabelled ("1x Ethernet 80Gb/Sec, 8x NVIDIA NDR (400Gb/s)"): the larger
    // is the training fabric, the other the management port.
    for (const auto &[family, gbps] : byFamily) {
        const bool better = gbps > reading.gbps || (gbps == reading.gbps && reading.family.empty());
        if (better) {
            reading.gbps = gbps;
            reading.family = family;
        }
    }
    if (reading.gbps == 0)
        reading.note = "no line rate given";
    else if (byFamily.size() > 1)
        reading.note = "kept the " + (reading.family.empty() ? "unnamed" : reading.family)
                       + " links, the larger group";
    if (contains(text, "omni"))
        reading.note += std::string(reading.note.empty() ? "" : "; ")
                        + "Omni-Path counted as InfiniBand-class";
    return reading;
}

void readNetworking(const MlperfSystemFields &fields, SystemSpec &spec)
{
    NetworkReading net = readNetwork(fields.hostNetworking);
    std::string source = "host networking";
    // Some submitters put the node's fabric under accelerator interconnect ("InfiniBand 100
    // Gb/sec (4X EDR)") or the topology column ("8x 200Gbe Infiniband, 2x 10GbE Ethernet").
    if (net.gbps == 0 && describesNetwork(lower(fields.acceleratorInterconnect))) {
        const NetworkReading other = readNetwork(fields.acceleratorInterconnect);
        if (other.gbps > 0) {
            net = other;
            source = "accelerator interconnect";
        }
    }
    if (net.gbps == 0 && describesNetwork(lower(fields.hostNetworkingTopology))) {
        const NetworkReading other = readNetwork(fields.hostNetworkingTopology);
        if (other.gbps > 0) {
            net = other;
            source = "host networking topology";
        }
    }
    spec.networkGbpsPerNode = net.gbps;
    spec.networkFamily = net.family;
    if (source != "host networking")
        spec.notes.push_back("network read from the " + source + " field");
    if (spec.nodes > 1 && net.gbps == 0) {
        const std::string_view given = trim(fields.hostNetworking);
        spec.notes.push_back("network rate unknown ("
                             + (net.note.empty() ? std::string("nothing usable") : net.note)
                             + "): '" + std::string(given.empty() ? "(empty)" : given) + "'");
    } else if (!net.note.empty() && net.gbps > 0) {
        spec.notes.push_back("network: " + net.note);
    }
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

std::optional<std::string> matchGpu(std::string_view accelerator, const catalog::Catalog &catalog)
{
    const GpuResult result = resolveGpu(accelerator, catalog);
    if (result.kind != GpuMatch::Found)
        return std::nullopt;
    return result.gpu->id;
}

ParsedSystem parseMlperfSystem(const MlperfSystemFields &fields, const catalog::Catalog &catalog)
{
    ParsedSystem parsed;
    const std::string name(trim(fields.accelerator));
    const GpuResult gpu = resolveGpu(name, catalog);
    switch (gpu.kind) {
    case GpuMatch::NonNvidia:
        parsed.skipReason = "non-NVIDIA accelerator: " + (name.empty() ? "(empty)" : name);
        return parsed;
    case GpuMatch::NotInCatalog:
        parsed.skipReason = "GPU not in catalog: " + name;
        return parsed;
    case GpuMatch::Vague:
        parsed.skipReason = "accelerator name too vague: " + name;
        return parsed;
    case GpuMatch::Found:
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
    if (!readCounts(fields, spec, parsed.skipReason))
        return parsed;

    spec.composable = mentionsComposable(fields);
    if (spec.composable)
        spec.notes.push_back("GPUs in an external PCIe chassis");
    readHost(fields, catalog, spec);
    readIntraNode(fields, *gpu.gpu, spec);
    readPcieGen(fields, catalog, *gpu.gpu, spec);
    readNetworking(fields, spec);
    parsed.spec = std::move(spec);
    return parsed;
}

} // namespace clab::perf
