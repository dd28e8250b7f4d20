#pragma once

#include <map>
#include <string>
#include <vector>

namespace clab::catalog {
struct Entry;
class Catalog;
} // namespace clab::catalog

namespace clab::workload {
struct Workload;
}

namespace clab::perf {

struct Platform;
struct Prediction;

// One kind of part of a node, and how much of it the node has: a chassis shared with other
// systems counts as the share of its slots this system's devices hold (model/perf/ENERGY.md).
struct BillItem
{
    std::string kind; // "gpu", "host", "chassis", "switch", "nic", "nvme"
    std::string id;   // catalog id
    const catalog::Entry *part = nullptr;
    double count = 0;
    bool operator==(const BillItem &) const = default;
};

// What energy and money cost: every figure with where it comes from. The shipped table,
// resources/prices/parts.json, is a set of assumptions the user replaces with an edited copy.
struct Figure
{
    double value = 0;
    std::string source;
};

struct PartPrices
{
    std::string currency = "USD";
    Figure usdPerKwh;                  // electricity
    Figure pue;                        // facility power over IT power
    Figure lifeYears;                  // hardware amortisation
    std::map<std::string, Figure> usd; // catalog id -> price of one part
};

// Strict reading: unknown keys, figures without a source, negative prices are InputErrors
// naming `file` and the JSON pointer.
PartPrices readPartPrices(const std::string &text, const std::string &file);
// The shipped table, resources/prices/parts.json (compiled in).
const PartPrices &defaultPartPrices();
// The table predictions use: the shipped one until setPartPrices replaces it (the CLI's
// --part-prices, the user's ~/.local/share/ComposeLab/prices/parts.json). Replace it before
// predictions start; a table once in use stays valid for the life of the program.
const PartPrices &partPrices();
void setPartPrices(PartPrices prices);
// ~/.local/share/ComposeLab/prices/parts.json ($XDG_DATA_HOME respected).
std::string userPartPricesPath();

// The energy and cost of one predicted run: the time to train when the benchmark has a
// convergence table, else one epoch.
struct EnergyCost
{
    std::string basis; // "time_to_train" or "epoch"
    double runS = 0;
    double gpuW = 0;      // all GPUs, averaged over the step (idle while they wait)
    double otherW = 0;    // hosts, chassis, switches, NICs, drives
    double facilityW = 0; // (gpuW + otherW) x PUE
    double kwh = 0;
    double hardwareUsd = 0; // the run's share of the parts' price over their life
    double energyUsd = 0;
    double usd() const { return hardwareUsd + energyUsd; }
    std::vector<std::string> unknown; // parts without a power figure or a price (counted as 0)
};

// GPU draw while it computes and while it waits, as shares of its board power (sources in
// ENERGY.md).
inline constexpr double kGpuIdleShareOfTdp = 0.13;
inline constexpr double kGpuBusyShareOfTdp = 0.87;

EnergyCost energyCostOf(const Platform &platform, const Prediction &p, const workload::Workload &w,
                        const PartPrices &prices);

} // namespace clab::perf
