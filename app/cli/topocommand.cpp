// `composelab topo`: scale-out topologies on the command line. Every number comes from
// model/cluster (reportOf); this file only parses, dispatches and prints.
#include "cli/topocommand.h"

#include "cluster/generators.h"
#include "cluster/report.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <ostream>

namespace clab::cli {

namespace {

const char *const kKinds = "fattree, rail, dragonfly, torus, hyperx, hammingmesh";

std::optional<cluster::Topology> build(const TopoOptions &o)
{
    using namespace cluster;
    if (o.kind == "fattree")
        return fatTree({o.endpoints, o.radix, o.taper, o.levels});
    if (o.kind == "rail")
        return railFatTree({o.servers, o.perServer, o.radix});
    if (o.kind == "dragonfly")
        return dragonfly({o.p, o.a, o.h, o.groups});
    if (o.kind == "torus")
        return torus(parseDims(o.dims, o.kind, "dims"));
    if (o.kind == "hyperx")
        return hyperX(parseDims(o.dims, o.kind, "dims"));
    if (o.kind == "hammingmesh") {
        const auto board = parseDims(o.board, o.kind, "board");
        const auto grid = parseDims(o.grid, o.kind, "grid");
        if (board.size() != 2)
            badParameter(o.kind, "board", "expected AxB, got \"" + o.board + "\"");
        if (grid.size() != 2)
            badParameter(o.kind, "grid", "expected XxY, got \"" + o.grid + "\"");
        return hammingMesh({board[0], board[1], grid[0], grid[1], o.radix});
    }
    return std::nullopt;
}

OrderedJson toJson(const cluster::TopologyReport &r, const cluster::PriceTable &prices)
{
    const auto &s = r.structure;
    OrderedJson j;
    j["kind"] = r.kind;
    j["description"] = r.description;
    j["accelerators"] = s.accelerators;
    j["switches"] = s.switches;
    OrderedJson links;
    for (int k = 0; k < cluster::kLinkKinds; ++k)
        links[cluster::linkKindName(cluster::LinkKind(k))] = s.links[std::size_t(k)];
    links["total"] = s.totalLinks();
    j["links"] = links;
    j["ports"] = {{"switch_used", s.switchPortsUsed},
                  {"switch_total", s.switchPortsTotal},
                  {"accelerator_used", s.acceleratorPortsUsed}};
    j["diameter"] = r.diameter;
    j["bisection_GBps"] = r.bisection.GBps;
    j["bisection_links"] = r.bisection.links;
    j["bisection_method"] = r.bisection.method;
    j["injection_GBps_per_accelerator"] = r.injectionGBps;
    j["alltoall_GBps_per_accelerator"] = r.alltoall.GBps;
    j["alltoall_limit"] = r.alltoall.limit;
    j["alltoall_fraction_of_injection"] = r.alltoall.GBps / r.injectionGBps;
    j["allreduce"] = OrderedJson::array();
    for (const auto &p : r.allreduce)
        j["allreduce"].push_back({{"bytes", p.bytes},
                                  {"seconds", p.seconds},
                                  {"GBps", p.GBps},
                                  {"algorithm", p.algorithm}});
    j["cost"] = r.cost.total();
    j["cost_currency"] = prices.currency;
    j["cost_breakdown"] = {{"switches", r.cost.switches},
                           {"copper", r.cost.copper},
                           {"optical", r.cost.optical},
                           {"board", r.cost.board}};
    j["cost_per_accelerator"] = r.costPerAccelerator;
    j["cost_per_allreduce_GBps"] = r.costPerAllreduceGBps;
    j["cost_per_alltoall_GBps"] = r.costPerAlltoallGBps;
    j["prices"] = {{"switch_port", prices.switchPort.usd},
                   {"copper_cable", prices.copperCable.usd},
                   {"optical_cable", prices.opticalCable.usd},
                   {"board_link", prices.boardLink.usd}};
    return j;
}

void printTable(const cluster::TopologyReport &r, const cluster::PriceTable &prices,
                std::ostream &out)
{
    const auto &s = r.structure;
    char buf[256];
    out << r.description << "\n";
    out << "  accelerators " << s.accelerators << ", switches " << s.switches << "\n";
    out << "  links: board " << s.links[0] << ", copper " << s.links[1] << ", optical "
        << s.links[2] << " (switch ports used " << s.switchPortsUsed << " of " << s.switchPortsTotal
        << ")\n";
    out << "  diameter " << r.diameter << " links\n";
    std::snprintf(buf, sizeof buf,
                  "  bisection %.0f GB/s (%s); injection %.0f GB/s, alltoall %.2f GB/s per "
                  "accelerator (%.1f %%, limited by %s)\n",
                  r.bisection.GBps, r.bisection.method.c_str(), r.injectionGBps, r.alltoall.GBps,
                  100 * r.alltoall.GBps / r.injectionGBps, r.alltoall.limit.c_str());
    out << buf << "  all-reduce:\n";
    for (const auto &p : r.allreduce) {
        std::snprintf(buf, sizeof buf, "    %12.0f B  %12.3f us  %8.2f GB/s  %s\n", p.bytes,
                      p.seconds * 1e6, p.GBps, p.algorithm.c_str());
        out << buf;
    }
    std::snprintf(buf, sizeof buf,
                  "  cost %.0f %s (switches %.0f, copper %.0f, optical %.0f, board %.0f); per "
                  "accelerator %.0f, per all-reduce GB/s %.1f, per alltoall GB/s %.1f\n",
                  r.cost.total(), prices.currency.c_str(), r.cost.switches, r.cost.copper,
                  r.cost.optical, r.cost.board, r.costPerAccelerator, r.costPerAllreduceGBps,
                  r.costPerAlltoallGBps);
    out << buf;
    std::snprintf(buf, sizeof buf,
                  "  prices: switch port %.0f, copper cable %.0f, optical cable %.0f, board "
                  "link %.0f (see --prices)\n",
                  prices.switchPort.usd, prices.copperCable.usd, prices.opticalCable.usd,
                  prices.boardLink.usd);
    out << buf;
}

} // namespace

int topoCommand(const TopoOptions &o, std::ostream &out, std::ostream &err)
{
    try {
        const auto topology = build(o);
        if (!topology) {
            err << "composelab topo: unknown kind \"" << o.kind << "\"; expected one of " << kKinds
                << "\n";
            return 2;
        }
        for (double s : o.sizes) {
            if (!(s > 0))
                cluster::badParameter(o.kind, "sizes", "expected message sizes above 0 bytes");
        }
        const cluster::PriceTable prices
            = o.prices.empty() ? cluster::defaultPriceTable()
                               : cluster::readPriceTable(readTextFile(o.prices), o.prices);
        const auto report = cluster::reportOf(
            *topology, prices, o.sizes.empty() ? cluster::defaultMessageSizes() : o.sizes);
        if (o.json)
            out << toJson(report, prices).dump(2) << "\n";
        else
            printTable(report, prices, out);
        return 0;
    } catch (const InputError &e) {
        err << "composelab topo: " << e.what() << "\n";
        return 1;
    }
}

void addTopoSubcommand(CLI::App &app, TopoOptions &o)
{
    CLI::App *cmd = app.add_subcommand(
        "topo", "Structure, bandwidth, all-reduce time and cost of a scale-out topology");
    cmd->add_option("kind", o.kind, kKinds)->required();
    cmd->add_option("--board", o.board, "hammingmesh: board of AxB accelerators");
    cmd->add_option("--grid", o.grid, "hammingmesh: grid of XxY boards");
    cmd->add_option("--endpoints", o.endpoints, "fattree: accelerators");
    cmd->add_option("--radix", o.radix, "fattree, rail, hammingmesh: switch ports");
    cmd->add_option("--taper", o.taper, "fattree: leaf down-links per up-link (1 nonblocking)");
    cmd->add_option("--levels", o.levels, "fattree: switch levels (0 automatic)");
    cmd->add_option("--servers", o.servers, "rail: servers");
    cmd->add_option("--per-server", o.perServer, "rail: accelerators (rails) per server");
    cmd->add_option("--dims", o.dims, "torus, hyperx: sizes, e.g. 32x32 or 8x8x8");
    cmd->add_option("--p", o.p, "dragonfly: accelerators per router");
    cmd->add_option("--a", o.a, "dragonfly: routers per group");
    cmd->add_option("--h", o.h, "dragonfly: global links per router");
    cmd->add_option("--groups", o.groups, "dragonfly: groups (0: a*h+1)");
    cmd->add_option("--prices", o.prices, "Price table (default resources/prices/prices.json)");
    cmd->add_option("--sizes", o.sizes, "All-reduce message sizes in bytes");
    cmd->add_flag("--json", o.json, "Machine-readable output");
}

} // namespace clab::cli
