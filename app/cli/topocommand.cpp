// `composelab topo`: scale-out topologies on the command line. Every number comes from
// model/cluster (reportOf); this file only parses, dispatches and prints.
#include "cli/topocommand.h"

#include "cluster/placementstudy.h"
#include "cluster/report.h"
#include "util/fileio.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <ostream>

namespace clab::cli {

namespace {

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

const char *queueName(const cluster::PlacementStudy &s)
{
    if (!s.traceQueue)
        return "given";
    return s.queue == cluster::JobQueue::Paper ? "paper" : "trace";
}

OrderedJson toJson(const cluster::PlacementStudy &s, const TopoOptions &o)
{
    OrderedJson j;
    j["grid"] = {{"x", s.x}, {"y", s.y}, {"boards", 1LL * s.x * s.y}};
    j["queue"] = {{"source", queueName(s)},
                  {"jobs", s.jobs.size()},
                  {"requested_boards", s.requestedBoards},
                  {"sizes", s.jobs}};
    if (s.traceQueue)
        j["queue"]["seed"] = o.seed;
    if (s.traceQueue && s.queue == cluster::JobQueue::Trace)
        j["queue"]["max_job_boards"] = s.maxJob;
    j["seeds"] = s.seeds;
    j["faulty_fraction"] = o.faulty;
    j["faulty_boards"] = s.faultyBoards;
    j["faulty_at"] = OrderedJson::array();
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
        if (s.faults[i])
            j["faulty_at"].push_back({int(i) / s.y, int(i) % s.y});
    }
    j["runs"] = OrderedJson::array();
    for (const auto &run : s.runs) {
        const auto &r = run.result;
        OrderedJson blocks = OrderedJson::array();
        for (const auto &b : r.blocks) {
            OrderedJson block = {{"job", b.job},   {"boards", run.jobs[std::size_t(b.job)]},
                                 {"row", b.row},   {"col", b.col},
                                 {"rows", b.rows}, {"cols", b.cols}};
            if (!b.rowIds.empty()) {
                block["row_ids"] = b.rowIds;
                block["col_ids"] = b.colIds;
            }
            blocks.push_back(std::move(block));
        }
        OrderedJson entry = {{"policy", cluster::policyName(run.policy)},
                             {"faults", run.withFaults},
                             {"faulty_boards", run.faultyBoards},
                             {"jobs", run.jobs.size()},
                             {"placed_jobs", r.placedJobs},
                             {"requested_boards", r.requestedBoards},
                             {"allocated_boards", r.allocatedBoards},
                             {"healthy_boards", r.healthyBoards},
                             {"utilisation", run.medianUtilisation()}};
        if (s.seeds > 1)
            entry["utilisation_by_seed"] = run.utilisations;
        entry["blocks"] = std::move(blocks);
        j["runs"].push_back(std::move(entry));
    }
    return j;
}

void printPlacement(const cluster::PlacementStudy &s, const TopoOptions &o,
                    std::pair<int, int> board, std::ostream &out)
{
    char buf[256];
    const long long boards = 1LL * s.x * s.y;
    out << "Job placement on a " << s.x << "x" << s.y << " grid of " << board.first << "x"
        << board.second << " boards (" << boards << " boards, "
        << boards * board.first * board.second << " accelerators)\n";
    out << "  queue: " << s.jobs.size() << " jobs asking for " << s.requestedBoards << " boards";
    if (s.traceQueue && s.queue == cluster::JobQueue::Paper)
        out << " (the HammingMesh paper's: Alibaba PAI job sizes until every healthy board is "
               "asked for, seed "
            << o.seed << ")";
    else if (s.traceQueue)
        out << " (trace-like sizes up to " << s.maxJob << " boards, seed " << o.seed << ")";
    out << "\n";
    if (o.faulty > 0)
        out << "  faulty boards: " << s.faultyBoards << " of " << boards
            << " (each with probability " << o.faulty << ")\n";
    if (s.seeds > 1)
        out << "  " << s.seeds << " seeds (" << o.seed << " to "
            << o.seed + std::uint64_t(s.seeds) - 1
            << "); jobs, placed and boards are the first seed's, utilisation the median\n";
    out << "  policy   faulty  placed jobs   requested   allocated     healthy  utilisation\n";
    for (const auto &run : s.runs) {
        const auto &r = run.result;
        std::snprintf(
            buf, sizeof buf, "  %-7s  %6lld  %5d of %-5zu  %10lld  %10lld  %10lld  %9.2f %%\n",
            cluster::policyName(run.policy), run.faultyBoards, r.placedJobs, run.jobs.size(),
            r.requestedBoards, r.allocatedBoards, r.healthyBoards, 100 * run.medianUtilisation());
        out << buf;
    }
    out << "  utilisation: boards the placed jobs asked for / healthy boards; sorted and greedy "
           "take contiguous, near-square blocks, submesh any rows and columns\n";
}

int placeCommand(const TopoOptions &o, std::ostream &out, std::ostream &err)
{
    if (o.kind != "hammingmesh") {
        err << "composelab topo: --place works on hammingmesh only, not \"" << o.kind << "\"\n";
        return 2;
    }
    std::vector<cluster::PlacementPolicy> policies;
    if (o.place == "submesh" || o.place == "all")
        policies.push_back(cluster::PlacementPolicy::Submesh);
    if (o.place == "sorted" || o.place == "both" || o.place == "all")
        policies.push_back(cluster::PlacementPolicy::Sorted);
    if (o.place == "greedy" || o.place == "both" || o.place == "all")
        policies.push_back(cluster::PlacementPolicy::Greedy);
    if (policies.empty()) {
        err << "composelab topo: --place: unknown policy \"" << o.place
            << "\"; expected submesh, sorted, greedy, both (sorted and greedy) or all\n";
        return 2;
    }
    if (o.queue != "trace" && o.queue != "paper") {
        err << "composelab topo: --queue: unknown queue \"" << o.queue
            << "\"; expected trace or paper\n";
        return 2;
    }
    const auto board = cluster::parsePair(o.board, o.kind, "board");
    const auto grid = cluster::parsePair(o.grid, o.kind, "grid");
    cluster::PlacementStudyParams p;
    p.x = grid.first;
    p.y = grid.second;
    p.jobs = o.jobs;
    p.queue = o.queue == "paper" ? cluster::JobQueue::Paper : cluster::JobQueue::Trace;
    p.jobBoards = o.jobsBoards;
    p.maxJob = o.maxJob;
    p.faultyFraction = o.faulty;
    p.faultyCounts = o.faultyBoards;
    p.seed = o.seed;
    p.seeds = o.seeds;
    p.policies = policies;
    const cluster::PlacementStudy study = cluster::studyPlacement(p);
    if (o.json)
        out << toJson(study, o).dump(2) << "\n";
    else
        printPlacement(study, o, board, out);
    return 0;
}

} // namespace

int topoCommand(const TopoOptions &o, std::ostream &out, std::ostream &err)
{
    try {
        if (!o.place.empty())
            return placeCommand(o, out, err);
        if (!cluster::isTopologyKind(o.kind)) {
            err << "composelab topo: unknown kind \"" << o.kind << "\"; expected one of "
                << cluster::kTopologyKinds << "\n";
            return 2;
        }
        for (double s : o.sizes) {
            if (!(s > 0))
                cluster::badParameter(o.kind, "sizes", "expected message sizes above 0 bytes");
        }
        const cluster::PriceTable prices
            = o.prices.empty() ? cluster::defaultPriceTable()
                               : cluster::readPriceTable(readTextFile(o.prices), o.prices);
        const auto report
            = cluster::reportOf(cluster::buildTopology(o), prices,
                                o.sizes.empty() ? cluster::defaultMessageSizes() : o.sizes);
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
    cmd->add_option("kind", o.kind, cluster::kTopologyKinds)->required();
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
    CLI::Option *place
        = cmd->add_option("--place", o.place,
                          "hammingmesh: place a job queue on the grid and report utilisation: "
                          "submesh (any rows and columns), sorted or greedy (contiguous "
                          "blocks), both (sorted and greedy) or all")
              ->check(CLI::IsMember({"submesh", "sorted", "greedy", "both", "all"}));
    cmd->add_option("--faulty", o.faulty,
                    "--place: fraction of faulty boards (adds runs with faults)")
        ->needs(place);
    cmd->add_option("--faulty-boards", o.faultyBoards,
                    "--place: exactly this many faulty boards, e.g. 50,100 (adds runs for each)")
        ->delimiter(',')
        ->needs(place);
    cmd->add_option("--queue", o.queue,
                    "--place: trace (trace-like sizes, the default) or paper (the HammingMesh "
                    "paper's Alibaba job sizes until every healthy board is asked for)")
        ->check(CLI::IsMember({"trace", "paper"}))
        ->needs(place);
    cmd->add_option("--seed", o.seed, "--place: seed of the job queue and the faults")
        ->needs(place);
    cmd->add_option("--seeds", o.seeds,
                    "--place: run seeds seed..seed+N-1 and report the median utilisation")
        ->needs(place);
    cmd->add_option("--jobs-boards", o.jobsBoards,
                    "--place: boards the trace-like queue asks for (default: the grid's)")
        ->needs(place);
    cmd->add_option("--max-job", o.maxJob,
                    "--place: largest trace-like job in boards (default: a quarter of the grid)")
        ->needs(place);
    cmd->add_option("--jobs", o.jobs, "--place: the job queue in boards, e.g. 4,4,2,16")
        ->delimiter(',')
        ->needs(place);
    cmd->add_flag("--json", o.json, "Machine-readable output");
}

} // namespace clab::cli
