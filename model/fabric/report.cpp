#include "fabric/report.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace clab::fabric {

namespace {

// Two decimals are more than any measurement behind these numbers supports; rounding keeps the
// JSON stable and readable.
double round2(double x)
{
    return std::round(x * 100.0) / 100.0;
}

double round3(double x)
{
    return std::round(x * 1000.0) / 1000.0;
}

std::string fixed(double x, int decimals = 1)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
    return buf;
}

std::string pad(const std::string &s, std::size_t width)
{
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

// "measured_GBps", the model's ratio to it and whether they are further apart than the tolerance.
void addMeasured(OrderedJson &entry, double modelGBps, const std::optional<double> &measured,
                 const std::string &measuredBy)
{
    if (!measured)
        return;
    entry["measured_GBps"] = round2(*measured);
    entry["model_over_measured"] = round3(modelGBps / *measured);
    entry["off_by_more_than_15_percent"] = offByMoreThanTolerance(modelGBps, *measured);
    entry["measured_by"] = measuredBy;
}

} // namespace

OrderedJson analysisToJson(const Analysis &a)
{
    OrderedJson root;
    OrderedJson systems = OrderedJson::array();
    for (const SystemReport &s : a.systems) {
        OrderedJson js;
        js["name"] = s.name;
        js["host"] = s.host;
        js["gpus"] = s.gpus;
        js["drives"] = s.drives;
        js["nics"] = s.nics;
        OrderedJson h2d = OrderedJson::array();
        for (const HostToDevice &h : s.h2d)
            h2d.push_back({{"device", h.device},
                           {"alone_GBps", round2(h.aloneGBps)},
                           {"concurrent_GBps", round2(h.concurrentGBps)},
                           {"all_systems_GBps", round2(h.allSystemsGBps)},
                           {"bottleneck", h.bottleneck},
                           {"route", h.route}});
        for (std::size_t i = 0; i < s.h2d.size(); ++i)
            addMeasured(h2d[i], s.h2d[i].aloneGBps, s.h2d[i].measuredGBps, s.h2d[i].measuredBy);
        js["h2d"] = std::move(h2d);
        OrderedJson p2p = OrderedJson::array();
        for (const PeerToPeer &p : s.p2p)
            p2p.push_back({{"from", p.from},
                           {"to", p.to},
                           {"kind", routeKindName(p.kind)},
                           {"GBps", round2(p.GBps)},
                           {"latency_us", round3(p.latencyUs)},
                           {"route", p.route}});
        for (std::size_t i = 0; i < s.p2p.size(); ++i)
            addMeasured(p2p[i], s.p2p[i].GBps, s.p2p[i].measuredGBps, s.p2p[i].measuredBy);
        js["p2p"] = std::move(p2p);
        OrderedJson storage = OrderedJson::array();
        for (const StorageRead &r : s.storage)
            storage.push_back({{"device", r.device},
                               {"alone_GBps", round2(r.aloneGBps)},
                               {"concurrent_GBps", round2(r.concurrentGBps)}});
        js["storage"] = std::move(storage);
        OrderedJson sharing = OrderedJson::array();
        for (const SharedCost &c : s.sharing)
            sharing.push_back({{"part", c.part},
                               {"shared_with", c.sharedWith},
                               {"lost_GBps", round2(c.lostGBps)}});
        js["sharing"] = std::move(sharing);
        js["ring_GBps"] = round2(s.ringGBps);
        js["ring_latency_us"] = round3(s.ringLatencyUs);
        if (s.measuredBusGBps) {
            OrderedJson bus;
            addMeasured(bus, s.ringGBps, s.measuredBusGBps, s.measuredBusBy);
            js["ring_measured"] = std::move(bus);
        }
        systems.push_back(std::move(js));
    }
    root["systems"] = std::move(systems);
    OrderedJson network = OrderedJson::array();
    for (const NetworkPath &n : a.network)
        network.push_back({{"from", n.from},
                           {"to", n.to},
                           {"GBps", round2(n.GBps)},
                           {"latency_us", round3(n.latencyUs)},
                           {"route", n.route}});
    root["network"] = std::move(network);
    OrderedJson findings = OrderedJson::array();
    for (const design::Finding &f : a.findings)
        findings.push_back({{"severity", design::severityName(f.severity)},
                            {"message", f.message},
                            {"items", f.items}});
    root["findings"] = std::move(findings);
    return root;
}

namespace {

// The measured transfers of a system beside the model's values, those further apart than the
// tolerance marked "(off by more than 15 %)".
void measuredToText(const SystemReport &s, std::ostringstream &out)
{
    std::vector<std::array<std::string, 4>> rows; // transfer, measured, model, by
    const auto add
        = [&](const std::string &what, double measured, double model, const std::string &by) {
              std::string mark = fixed(model / measured, 2);
              if (offByMoreThanTolerance(model, measured))
                  mark += " (off by more than 15 %)";
              rows.push_back({what, fixed(measured), fixed(model) + "  " + mark, by});
          };
    for (const HostToDevice &h : s.h2d)
        if (h.measuredGBps)
            add("host -> " + h.device, *h.measuredGBps, h.aloneGBps, h.measuredBy);
    for (const PeerToPeer &p : s.p2p)
        if (p.measuredGBps)
            add(p.from + " -> " + p.to, *p.measuredGBps, p.GBps, p.measuredBy);
    if (s.measuredBusGBps)
        add("ring bus bandwidth", *s.measuredBusGBps, s.ringGBps, s.measuredBusBy);
    if (rows.empty())
        return;
    out << "  Measured beside the model (GB/s; model / measured)\n";
    for (const auto &r : rows)
        out << "    " << pad(r[0], 22) << pad(r[1], 9) << pad(r[2], 34) << r[3] << "\n";
}

} // namespace

std::string analysisToText(const Analysis &a)
{
    std::ostringstream out;
    for (const SystemReport &s : a.systems) {
        out << "System " << s.name << " on host " << s.host << ": " << s.gpus.size() << " GPU(s), "
            << s.drives.size() << " drive(s), " << s.nics.size() << " NIC(s)\n";
        if (!s.h2d.empty()) {
            out << "  Host to device (GB/s)  " << pad("device", 14) << pad("alone", 8)
                << pad("system", 8) << pad("all", 8) << "limited by (system busy)\n";
            for (const HostToDevice &h : s.h2d)
                out << "                         " << pad(h.device, 14)
                    << pad(fixed(h.aloneGBps), 8) << pad(fixed(h.concurrentGBps), 8)
                    << pad(fixed(h.allSystemsGBps), 8) << h.bottleneck << "\n";
        }
        if (s.gpus.size() > 1) {
            out << "  Peer to peer (GB/s)\n  " << pad("", 12);
            for (const auto &to : s.gpus)
                out << pad(to, 9);
            out << "\n";
            std::size_t k = 0;
            for (const auto &from : s.gpus) {
                out << "  " << pad(from, 12);
                for (const auto &to : s.gpus) {
                    if (to == from) {
                        out << pad("-", 9);
                        continue;
                    }
                    out << pad(fixed(s.p2p[k].GBps), 9);
                    ++k;
                }
                out << "\n";
            }
            std::map<std::string, int> kinds;
            for (const PeerToPeer &p : s.p2p)
                ++kinds[routeKindName(p.kind)];
            out << "  Routes:";
            for (const auto &[kind, n] : kinds)
                out << " " << kind << " " << n;
            out << "\n  Ring over all GPUs at once: " << fixed(s.ringGBps) << " GB/s per GPU\n";
        }
        measuredToText(s, out);
        for (const StorageRead &r : s.storage)
            out << "  Drive " << r.device << ": " << fixed(r.aloneGBps) << " GB/s alone, "
                << fixed(r.concurrentGBps) << " GB/s with all drives reading\n";
        for (const SharedCost &c : s.sharing) {
            out << "  Shared " << c.part << " with";
            for (const auto &o : c.sharedWith)
                out << " " << o;
            out << ": costs " << fixed(c.lostGBps) << " GB/s of host-to-device bandwidth\n";
        }
        out << "\n";
    }
    for (const NetworkPath &n : a.network)
        out << "Network " << n.from << " <-> " << n.to << ": " << fixed(n.GBps) << " GB/s, "
            << fixed(n.latencyUs, 2) << " us\n";
    if (a.findings.empty())
        out << "No design-rule findings.\n";
    for (const design::Finding &f : a.findings)
        out << design::severityName(f.severity) << ": " << f.message << "\n";
    return out.str();
}

} // namespace clab::fabric
