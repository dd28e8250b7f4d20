#include "perf/systemspec.h"
#include "perf/systemspec_p.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <map>

// Host processors and host networking of MLPerf Training rows (see systemspec.cpp for how the
// free-text columns are read).

namespace clab::perf::detail {

// ---------------------------------------------------------------------------------------------
// Host processors

namespace {

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

} // namespace

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
// Host networking

namespace {

bool isLower(char c)
{
    return std::islower(static_cast<unsigned char>(c)) != 0;
}

struct NetworkPart
{
    double gbps = 0;
    std::vector<SystemSpec::Ports> ports;
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
    if (rate > 0)
        part.ports.push_back({std::max(count, 1), rate});
    part.gbps = rate * std::max(count, 1);
    return part;
}

struct NetworkReading
{
    double gbps = 0;
    std::vector<SystemSpec::Ports> ports;
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
    std::map<std::string, NetworkPart> byFamily;
    bool anyKept = false;
    for (const auto &[seg, label] : segments) {
        if (anyCompute ? label != 1 : label == -1)
            continue;
        anyKept = true;
        const NetworkPart part = readNetworkSegment(seg);
        NetworkPart &sum = byFamily[part.family];
        sum.gbps += part.gbps;
        for (const SystemSpec::Ports &p : part.ports) {
            auto same = std::find_if(sum.ports.begin(), sum.ports.end(),
                                     [&](const SystemSpec::Ports &q) { return q.gbps == p.gbps; });
            if (same != sum.ports.end())
                same->count += p.count;
            else
                sum.ports.push_back(p);
        }
    }
    if (!anyKept) {
        reading.note = "only management/storage networking listed";
        return reading;
    }
    // Several families unlabelled ("1x Ethernet 80Gb/Sec, 8x NVIDIA NDR (400Gb/s)"): the larger
    // is the training fabric, the other the management port.
    for (const auto &[family, part] : byFamily) {
        const bool better
            = part.gbps > reading.gbps || (part.gbps == reading.gbps && reading.family.empty());
        if (better) {
            reading.gbps = part.gbps;
            reading.ports = part.ports;
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

} // namespace

void readNetworking(const MlperfSystemFields &fields, SystemSpec &spec)
{
    NetworkReading net = readNetwork(fields.hostNetworking);
    std::string source = "host networking";
    // 1 or 10 GbE on a multi-node system is its management port: at 0.1 to 1 GB/s a node, the
    // gradient all-reduce alone would take minutes a step, where the submissions' whole runs take
    // minutes (4xC4140 in v0.7: 16 V100 "1Gb Ethernet", ResNet-50 in 40 min). The training
    // fabric is then not described.
    constexpr double kManagementGbps = 10;
    if (spec.nodes > 1 && net.gbps > 0 && net.gbps <= kManagementGbps) {
        spec.notes.push_back("network: " + std::string(trim(fields.hostNetworking))
                             + " is taken for the management port, not the training fabric");
        net = {};
    }
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
    spec.networkPorts = net.ports;
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

} // namespace clab::perf::detail
