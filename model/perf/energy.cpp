#include "perf/energy.h"

#include "catalog/catalog.h"
#include "perf/model.h"
#include "perf/platform.h"
#include "util/embedded.h"
#include "util/jsonreader.h"
#include "workload/workload.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>

namespace clab::perf {

namespace {

Figure readFigure(ObjectReader &parent, const char *key, const char *valueKey)
{
    ObjectReader r = parent.object(key);
    Figure f;
    f.value = r.number(valueKey);
    if (f.value < 0)
        r.fail(valueKey, "expected at least 0, got " + std::to_string(f.value));
    f.source = r.string("source");
    if (f.source.empty())
        r.fail("source", "expected where the figure comes from (or \"assumption: ...\")");
    r.finish();
    return f;
}

constexpr double kSecondsPerYear = 365.25 * 24 * 3600;

} // namespace

PartPrices readPartPrices(const std::string &text, const std::string &file)
{
    const Json root = parseJson(text, file);
    ObjectReader r(root, "", file);
    const int version = r.integer("formatVersion", 1, 1);
    if (version != 1)
        r.fail("formatVersion", "expected 1, got " + std::to_string(version));
    PartPrices p;
    p.currency = r.string("currency", "USD");
    r.string("note", "");
    p.usdPerKwh = readFigure(r, "electricity", "perKwh");
    p.pue = readFigure(r, "pue", "value");
    if (p.pue.value < 1)
        r.fail("pue", "expected a PUE of at least 1, got " + std::to_string(p.pue.value));
    p.lifeYears = readFigure(r, "life", "years");
    if (p.lifeYears.value <= 0)
        r.fail("life", "expected a life of more than 0 years");
    const Json &partsJson = r.raw("parts");
    ObjectReader parts = r.object("parts");
    for (auto it = partsJson.begin(); it != partsJson.end(); ++it)
        p.usd[it.key()] = readFigure(parts, it.key().c_str(), "price");
    parts.finish();
    r.finish();
    return p;
}

const PartPrices &defaultPartPrices()
{
    static const PartPrices table = [] {
        const std::string path = "resources/prices/parts.json";
        return readPartPrices(std::string(embeddedText(path)), path);
    }();
    return table;
}

namespace {
std::atomic<const PartPrices *> g_inUse{nullptr};
}

const PartPrices &partPrices()
{
    const PartPrices *p = g_inUse.load();
    return p ? *p : defaultPartPrices();
}

void setPartPrices(PartPrices prices)
{
    static std::mutex mutex;
    static std::vector<std::unique_ptr<const PartPrices>> kept;
    const std::lock_guard lock(mutex);
    kept.push_back(std::make_unique<const PartPrices>(std::move(prices)));
    g_inUse.store(kept.back().get());
}

std::string userPartPricesPath()
{
    return (std::filesystem::path(catalog::Catalog::userFolder()).parent_path() / "prices"
            / "parts.json")
        .string();
}

EnergyCost energyCostOf(const Platform &platform, const Prediction &p, const workload::Workload &w,
                        const PartPrices &prices)
{
    EnergyCost e;
    if (p.timeToTrainMin) {
        e.basis = "time_to_train";
        e.runS = *p.timeToTrainMin * 60;
    } else {
        e.basis = "epoch";
        e.runS = p.throughput > 0 ? w.datasetSamples / p.throughput : 0;
    }
    const double nodes = std::max(1, platform.nodes);
    // A GPU draws its busy share of board power while it computes and its idle share while it
    // waits for exposed communication or input.
    const double busy = p.stepS > 0 ? std::clamp(p.computeS / p.stepS, 0.0, 1.0) : 1.0;
    double hardwareUsd = 0;
    for (const BillItem &b : platform.bill) {
        double watts = 0;
        if (b.kind == "gpu") {
            const auto *g = static_cast<const catalog::Gpu *>(b.part);
            watts
                = g->tdpW * (kGpuIdleShareOfTdp + (kGpuBusyShareOfTdp - kGpuIdleShareOfTdp) * busy);
            e.gpuW += watts * b.count * nodes;
        } else if (b.part && b.part->powerW) {
            e.otherW += *b.part->powerW * b.count * nodes;
        } else {
            e.unknown.push_back("power of " + b.kind + " " + b.id);
        }
        const auto price = prices.usd.find(b.id);
        if (price != prices.usd.end())
            hardwareUsd += price->second.value * b.count * nodes;
        else
            e.unknown.push_back("price of " + b.kind + " " + b.id);
    }
    e.facilityW = (e.gpuW + e.otherW) * prices.pue.value;
    e.kwh = e.facilityW * e.runS / 3.6e6;
    e.energyUsd = e.kwh * prices.usdPerKwh.value;
    e.hardwareUsd = hardwareUsd * e.runS / (prices.lifeYears.value * kSecondsPerYear);
    return e;
}

} // namespace clab::perf
