#include "machine/measurements.h"

#include "store/importsession.h"
#include "store/importtext.h"
#include "store/store.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>

namespace clab::machine {

namespace {

bool isToolOutput(store::TextKind kind)
{
    using store::TextKind;
    return kind == TextKind::NcclTests || kind == TextKind::P2pMatrix
           || kind == TextKind::BandwidthTest || kind == TextKind::Nvbandwidth
           || kind == TextKind::NvbandwidthJson;
}

void importOne(store::ImportSession &session, const MachineInput &in)
{
    using store::TextKind;
    switch (store::sniff(in.path, in.text)) {
    case TextKind::NcclTests:
        return store::importNcclTests(session, in.path, in.text);
    case TextKind::P2pMatrix:
        return store::importP2pMatrix(session, in.path, in.text);
    case TextKind::BandwidthTest:
        return store::importBandwidthTest(session, in.path, in.text);
    case TextKind::Nvbandwidth:
        return store::importNvbandwidth(session, in.path, in.text);
    case TextKind::NvbandwidthJson:
        return store::importNvbandwidthJson(session, in.path, in.text);
    default:
        return;
    }
}

// "GPU3" -> "gpu3" when the design has that device; "" otherwise.
std::string deviceOf(const std::string &endpoint, const design::Design &design)
{
    const std::string id = asciiLower(endpoint);
    return id.rfind("gpu", 0) == 0 && design.device(id) ? id : std::string();
}

bool isHost(const std::string &endpoint)
{
    const std::string e = asciiLower(endpoint);
    return e == "host" || e.rfind("cpu", 0) == 0;
}

} // namespace

bool isMeasurementOutput(const MachineInput &input)
{
    return isToolOutput(store::sniff(input.path, input.text));
}

namespace {

using Endpoint = std::function<std::string(const std::string &, const std::string &system)>;

// One measurement per transfer and system, the best of `records` (each with the file it came
// from); `device` maps a tool's endpoint ("GPU3") on a system to a design device, "" for none.
std::vector<design::Measurement>
best(const std::vector<std::pair<store::BandwidthRecord, std::string>> &records,
     const Endpoint &device)
{
    std::map<std::tuple<std::string, std::string, std::string>, design::Measurement> best;
    std::map<std::string, std::pair<std::int64_t, design::Measurement>> bus; // per system
    for (const auto &[b, file] : records) {
        if (!b.gbps || *b.gbps <= 0 || b.details.find("implausible") != std::string::npos)
            continue;
        const std::string test = asciiLower(b.test);
        const bool nccl = b.tool == "nccl-tests";
        if (test.find("bidirectional") != std::string::npos
            || test.find("latency") != std::string::npos
            || test.find("disabled") != std::string::npos
            || (!nccl
                && (test.find("all_to") != std::string::npos
                    || test.find("_to_all") != std::string::npos)))
            continue; // both ways at once, latencies, copies staged through the host, all GPUs
        design::Measurement m;
        m.GBps = *b.gbps;
        m.tool = b.tool;
        m.test = b.test;
        m.source = file;
        m.system = b.system;
        if (nccl) {
            if (test.find("all_reduce") == std::string::npos
                || test.find("out-of-place") == std::string::npos)
                continue;
            const std::int64_t size = b.messageBytes.value_or(0);
            const auto it = bus.find(b.system);
            if (it == bus.end() || size > it->second.first) {
                m.kind = "collective";
                bus[b.system] = {size, m};
            }
            continue;
        }
        if (b.link == "h2d" && isHost(b.from)) {
            m.kind = "h2d";
            m.to = device(b.to, b.system);
        } else if (b.link == "d2h" && isHost(b.to)) {
            m.kind = "d2h";
            m.from = device(b.from, b.system);
        } else if (b.link == "p2p") {
            m.kind = "p2p";
            m.from = device(b.from, b.system);
            m.to = device(b.to, b.system);
            if (m.from.empty() || m.to.empty() || m.from == m.to)
                continue;
        } else {
            continue;
        }
        if ((m.kind == "h2d" && m.to.empty()) || (m.kind == "d2h" && m.from.empty()))
            continue;
        auto &slot = best[{m.kind, m.from, m.to}];
        if (m.GBps > slot.GBps)
            slot = m;
    }
    std::vector<design::Measurement> out;
    for (auto &[key, m] : best)
        out.push_back(m);
    for (auto &[system, sized] : bus)
        out.push_back(sized.second);
    return out;
}

// "GPU3" -> 3, or nullopt.
std::optional<std::size_t> gpuIndex(const std::string &endpoint)
{
    const std::string e = asciiLower(endpoint);
    if (e.size() < 4 || e.rfind("gpu", 0) != 0)
        return std::nullopt;
    std::size_t i = 0;
    for (std::size_t k = 3; k < e.size(); ++k) {
        if (!std::isdigit(static_cast<unsigned char>(e[k])) || i > 100000)
            return std::nullopt;
        i = i * 10 + static_cast<std::size_t>(e[k] - '0');
    }
    return i;
}

} // namespace

std::vector<design::Measurement> measurementsOf(const std::vector<MachineInput> &inputs,
                                                const design::Design &design,
                                                std::vector<std::string> &notes)
{
    store::Store db(":memory:");
    store::ImportReport report;
    const store::ImportControl control;
    store::ImportSession session(db, control, report);
    std::vector<std::pair<store::BandwidthRecord, std::string>> records; // with its file
    for (const MachineInput &in : inputs) {
        if (!isMeasurementOutput(in))
            continue;
        const std::size_t before = db.bandwidth().size();
        importOne(session, in);
        const std::vector<store::BandwidthRecord> all = db.bandwidth();
        for (std::size_t i = before; i < all.size(); ++i)
            records.emplace_back(all[i], in.path);
    }
    std::vector<design::Measurement> out = best(
        records, [&](const std::string &e, const std::string &) { return deviceOf(e, design); });
    if (!out.empty())
        notes.push_back(std::to_string(out.size())
                        + " measurements attached from the tool outputs (the tools' GPU i is "
                          "gpu<i> here: CUDA's device order, which follows the PCI bus unless "
                          "CUDA_DEVICE_ORDER said otherwise)");
    return out;
}

std::vector<design::Measurement>
storedMeasurements(const std::vector<store::BandwidthRecord> &stored, const design::Design &design,
                   const catalog::Catalog &catalog)
{
    // The GPUs of each design system in the design's order, by the system's name.
    std::map<std::string, std::vector<std::string>> gpus;
    std::map<std::string, std::string> named; // lower-case name -> the design's spelling
    for (const design::System &system : design.systems) {
        named[asciiLower(system.name)] = system.name;
        std::vector<std::string> &ids = gpus[system.name];
        for (const std::string &id : system.devices) {
            const design::Device *d = design.device(id);
            if (d && catalog.gpu(d->model))
                ids.push_back(id);
        }
    }
    std::vector<std::pair<store::BandwidthRecord, std::string>> records;
    for (const store::BandwidthRecord &b : stored) {
        const auto it = named.find(asciiLower(b.system));
        if (b.system.empty() || it == named.end())
            continue;
        records.emplace_back(b, "the experiment store (" + b.place + ")");
        records.back().first.system = it->second;
    }
    return best(records, [&](const std::string &endpoint, const std::string &system) {
        const std::optional<std::size_t> i = gpuIndex(endpoint);
        const std::vector<std::string> &ids = gpus[system];
        return i && *i < ids.size() ? ids[*i] : std::string();
    });
}

} // namespace clab::machine
