#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab::catalog {

// Specs of the parts a design is built from, read from resources/catalog/*.json (see its
// README.md for the format and the meaning of every key). All bandwidths are GB/s per direction.

struct Entry
{
    std::string id;
    std::string name;
    std::string source;
    std::string notes;
    std::vector<std::string> aliases;
    // Electrical power of the part at work, for the energy of a run (perf/energy.h); a GPU uses
    // its tdpW instead. Absent: the part's power is not known and the energy says so.
    std::optional<double> powerW;
    std::string powerSource;
    // A part the user defined (their catalog folder, --catalog, or embedded in a design): its
    // figures are theirs, not measured, and predictions on it say so.
    bool user = false;
};

struct PcieSpec
{
    int gen = 0;
    int lanes = 16;
};

struct Tflops
{
    std::optional<double> fp32, tf32, fp16, bf16, fp8;
};

// What a GPU really reaches, measured: large dense GEMMs per precision (cuBLAS) and a streaming
// copy of device memory. The performance model's compute terms start from these, not from the
// datasheet peaks; an unmeasured one is estimated from measured parts (perf/gpurates.h).
struct Achieved
{
    Tflops gemmTflops;
    std::optional<double> memBwGBps;
    // GPUs with a faster warpgroup matrix path (Hopper's wgmma): the share of the measured GEMM
    // rate that kernels built on the older warp-level mma.sync reach. Absent: the measured parts
    // of the same architecture's, else 1 (on earlier GPUs the measured GEMMs are such kernels).
    std::optional<double> warpMmaShare;
    // The fixed time of one matrix kernel, µs: a GEMM of F FLOPs takes t0 + F / R (R the large-GEMM
    // rate), fitted to published size sweeps. Absent: the measured parts of the same
    // architecture's, else the median of all measured parts.
    std::optional<double> gemmFixedUs;
    std::string source;
};

struct Gpu : Entry
{
    std::string arch;
    std::string formFactor;
    Tflops tflops;
    double memGB = 0;
    double memBwGBps = 0;
    int nvlinkGen = 0; // 0: no NVLink
    // The GPU's own links to other GPUs: NVLink ("nvlink4"), or an AMD Instinct's Infinity
    // Fabric ("xgmi-mi300"); the link kind id, empty for none, and how many a GPU has.
    std::string peerLink;
    int peerLinks = 0;
    PcieSpec pcie;
    double tdpW = 0;
    Achieved achieved;
};

struct Host : Entry
{
    std::string cpu;
    int sockets = 1;
    int coresPerSocket = 0;
    int pcieGen = 0;
    int lanesPerSocket = 0;
    double memBwGBpsPerSocket = 0;
    std::string interSocketLink; // link kind id
    int interSocketCount = 0;
    // DRAM of a typical server built on these processors; 0 when unknown. The page cache that
    // keeps a dataset read from the drives after its first epoch lives in it.
    double memGB = 0;
    std::string memSource;
};

struct Nvme : Entry
{
    PcieSpec pcie;
    double readGBps = 0;
    double writeGBps = 0;
    double capacityTB = 0;
};

struct Nic : Entry
{
    PcieSpec pcie;
    int ports = 1;
    double portGbps = 0;
    std::vector<std::string> protocols;
    std::string link; // link kind of one port
};

struct PcieSwitch : Entry
{
    int gen = 0;
    int lanes = 0;
    int ports = 0;
    double hopLatencyNs = 0;
};

struct Chassis : Entry
{
    int pcieGen = 0;
    int slots = 0;
    int slotLanes = 16;
    int hostPorts = 0;
    std::string switchModel; // PcieSwitch id
    std::vector<int> switchOfSlot;
    std::vector<int> switchOfHostPort;
    std::vector<std::array<int, 3>> interSwitch; // switch a, switch b, lanes
    int switchCount() const;
};

struct NetworkSwitch : Entry
{
    std::string family; // "infiniband" or "ethernet"
    int ports = 0;
    double portGbps = 0;
    double latencyNs = 0;
    std::string link;
};

struct NvSwitch : Entry
{
    int nvlinkGen = 0;
    int gpus = 0;
    int linksPerGpu = 0;
};

struct NvlinkBridge : Entry
{
    int nvlinkGen = 0;
    int links = 0;
    std::vector<std::string> gpus;
};

enum class LinkFamily { Pcie, Nvlink, Infiniband, Ethernet, Socket };

struct LinkKind : Entry
{
    LinkFamily family = LinkFamily::Pcie;
    int gen = 0;
    int lanes = 0;
    double rawGBps = 0; // per direction; for NVLink per link
    double achievedFraction = 1;
    double latencyUs = 0;
    double achievedGBps(int count = 1) const { return rawGBps * achievedFraction * count; }
};

struct Routing : Entry
{
    double p2pViaRootComplex = 1;
    double stagedViaHost = 1;
    // Each direction's share of stagedViaHost when staged copies run both ways at once.
    double stagedBothWays = 1;
    double rootComplexLatencyUs = 0;
    double stagedLatencyUs = 0;
    double dmaSetupLatencyUs = 0;
};

enum class Kind {
    Gpu,
    Host,
    Nvme,
    Nic,
    PcieSwitch,
    Chassis,
    NetworkSwitch,
    NvSwitch,
    NvlinkBridge,
    Link,
    Routing
};

const char *kindName(Kind kind);
std::optional<LinkFamily> linkFamilyFromString(std::string_view text);
const char *linkFamilyName(LinkFamily family);

class Catalog
{
public:
    // The program's catalog: the parts compiled in from resources/catalog/, and the user's
    // parts added since (addUserParts). A reference stays valid for the life of the program:
    // adding parts publishes a new catalog and keeps the old ones, so a thread that holds one
    // reads a catalog nobody changes under it.
    static const Catalog &builtin();
    // Adds user parts (a file of catalog sections) to the program's catalog. A part already there
    // with the same definition is skipped; with another definition, or a bad file, it throws
    // InputError naming the file and place, and the catalog stays as it was.
    static void addUserParts(std::string_view text, const std::string &fileName);
    // Checks what addUserParts would check, and adds nothing: for a form that must refuse a bad
    // part before it writes the file.
    static void checkUserParts(std::string_view text, const std::string &fileName);
    // Every *.json of a folder, as addUserParts; a folder that does not exist adds nothing.
    // Returns the files it could not add, each with its reason, and adds the others.
    static std::vector<std::string> addUserFolder(const std::string &folder);
    // ~/.local/share/ComposeLab/catalog ($XDG_DATA_HOME respected).
    static std::string userFolder();

    // Adds the sections of one catalog file; throws InputError naming the file and JSON pointer.
    void addFile(std::string_view text, const std::string &fileName);
    // Checks references between entries (link kinds, switch models); throws InputError.
    void checkReferences() const;

    const Gpu *gpu(std::string_view id) const { return find(m_gpus, id); }
    const Host *host(std::string_view id) const { return find(m_hosts, id); }
    const Nvme *nvme(std::string_view id) const { return find(m_nvme, id); }
    const Nic *nic(std::string_view id) const { return find(m_nics, id); }
    const PcieSwitch *pcieSwitch(std::string_view id) const { return find(m_pcieSwitches, id); }
    const Chassis *chassis(std::string_view id) const { return find(m_chassis, id); }
    const NetworkSwitch *networkSwitch(std::string_view id) const
    {
        return find(m_networkSwitches, id);
    }
    const NvSwitch *nvSwitch(std::string_view id) const { return find(m_nvSwitches, id); }
    const NvlinkBridge *nvlinkBridge(std::string_view id) const
    {
        return find(m_nvlinkBridges, id);
    }
    const LinkKind *link(std::string_view id) const { return find(m_links, id); }
    // The PCIe link kind of a generation and width ("pcie4x16"), or nullptr.
    const LinkKind *pcieLink(int gen, int lanes) const;
    const Routing &routing() const { return m_routing; }

    std::optional<Kind> kindOf(std::string_view id) const;
    const Entry *entry(std::string_view id) const;
    // Ids of the given kinds nearest to a misspelt one, best first (for "did you mean").
    std::vector<std::string> suggest(std::string_view id, const std::vector<Kind> &kinds,
                                     std::size_t count = 3) const;
    std::vector<const Entry *> entries(Kind kind) const;
    // An entry as its file wrote it (JSON text), and the section it belongs in ("gpus"); empty
    // for an unknown id.
    std::string entryJson(std::string_view id) const;
    std::string sectionOf(std::string_view id) const;
    // The catalog sections holding the user parts among `ids`: what a design embeds so that it
    // opens on a machine without them. "" when none is a user part.
    std::string userPartsJson(const std::vector<std::string> &ids) const;

    const std::map<std::string, Gpu, std::less<>> &gpus() const { return m_gpus; }
    const std::map<std::string, Host, std::less<>> &hosts() const { return m_hosts; }
    const std::map<std::string, LinkKind, std::less<>> &links() const { return m_links; }
    const std::map<std::string, NvSwitch, std::less<>> &nvSwitches() const { return m_nvSwitches; }

private:
    template<typename T>
    static const T *find(const std::map<std::string, T, std::less<>> &map, std::string_view id)
    {
        const auto it = map.find(id);
        return it == map.end() ? nullptr : &it->second;
    }

    std::map<std::string, Gpu, std::less<>> m_gpus;
    std::map<std::string, Host, std::less<>> m_hosts;
    std::map<std::string, Nvme, std::less<>> m_nvme;
    std::map<std::string, Nic, std::less<>> m_nics;
    std::map<std::string, PcieSwitch, std::less<>> m_pcieSwitches;
    std::map<std::string, Chassis, std::less<>> m_chassis;
    std::map<std::string, NetworkSwitch, std::less<>> m_networkSwitches;
    std::map<std::string, NvSwitch, std::less<>> m_nvSwitches;
    std::map<std::string, NvlinkBridge, std::less<>> m_nvlinkBridges;
    std::map<std::string, LinkKind, std::less<>> m_links;
    std::map<std::string, Kind, std::less<>> m_kinds;
    std::map<std::string, std::string, std::less<>> m_files; // id -> file it came from
    // id -> (section, JSON text of the entry)
    std::map<std::string, std::pair<std::string, std::string>, std::less<>> m_raw;
    void markUser(const std::string &id);
    // The program's catalog with user parts added, checked but not published; nullptr when all
    // of them are there already.
    static std::unique_ptr<Catalog> withUserParts(std::string_view text,
                                                  const std::string &fileName);
    Routing m_routing;
    bool m_hasRouting = false;
};

// Edit distance (Levenshtein, case-insensitive), used for suggestions.
std::size_t editDistance(std::string_view a, std::string_view b);

} // namespace clab::catalog
