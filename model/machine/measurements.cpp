#include "machine/measurements.h"

#include "store/importsession.h"
#include "store/importtext.h"
#include "store/store.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <map>

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
    // The best value per transfer; the collective at the largest message size.
    std::map<std::tuple<std::string, std::string, std::string>, design::Measurement> best;
    std::optional<std::int64_t> largest;
    design::Measurement bus;
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
        if (nccl) {
            if (test.find("all_reduce") == std::string::npos
                || test.find("out-of-place") == std::string::npos)
                continue;
            if (!largest || b.messageBytes.value_or(0) > *largest) {
                largest = b.messageBytes.value_or(0);
                m.kind = "collective";
                bus = m;
            }
            continue;
        }
        if (b.link == "h2d" && isHost(b.from)) {
            m.kind = "h2d";
            m.to = deviceOf(b.to, design);
        } else if (b.link == "d2h" && isHost(b.to)) {
            m.kind = "d2h";
            m.from = deviceOf(b.from, design);
        } else if (b.link == "p2p") {
            m.kind = "p2p";
            m.from = deviceOf(b.from, design);
            m.to = deviceOf(b.to, design);
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
    if (largest)
        out.push_back(bus);
    if (!out.empty())
        notes.push_back(std::to_string(out.size())
                        + " measurements attached from the tool outputs (the tools' GPU i is "
                          "gpu<i> here: CUDA's device order, which follows the PCI bus unless "
                          "CUDA_DEVICE_ORDER said otherwise)");
    return out;
}

} // namespace clab::machine
