#include "perf/report.h"

#include "catalog/catalog.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace clab::perf {

namespace {

double round4(double x)
{
    return std::round(x * 1e4) / 1e4;
}

std::string fixed(double x, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
    return buf;
}

// A share of a sample (0.25, 0.125): three significant digits.
std::string significant(double x)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", x);
    return buf;
}

std::string noPredictionReason(const Observation &o)
{
    if (o.workload && o.workload->convergence.empty())
        return "no convergence table for " + o.workload->id
               + " (MLPerf has no reference points for it)";
    return "the model gave no prediction";
}

} // namespace

OrderedJson predictionToJson(const std::string &system, const workload::Workload &w,
                             const Prediction &p)
{
    OrderedJson j;
    j["system"] = system;
    j["benchmark"] = w.id;
    j["global_batch"] = p.globalBatch;
    j["step_time_s"] = std::round(p.stepS * 1e6) / 1e6;
    j["throughput_samples_per_s"] = std::round(p.throughput * 10) / 10;
    j["time_to_train_min"]
        = p.timeToTrainMin ? OrderedJson(round4(*p.timeToTrainMin)) : OrderedJson();
    j["breakdown_min"] = {{"compute", round4(p.breakdownMin.compute)},
                          {"communication", round4(p.breakdownMin.communication)},
                          {"input", round4(p.breakdownMin.input)},
                          {"evaluation", round4(p.breakdownMin.evaluation)}};
    j["memory"] = {{"fits", p.fits},
                   {"required_GB", std::round(p.requiredGB * 10) / 10},
                   {"available_GB", p.availableGB}};
    j["step_s"] = {{"compute", p.computeS},
                   {"communication", p.communicationS},
                   {"exposed_communication", p.exposedCommS},
                   {"node_sync", p.syncS},
                   {"input", p.inputS},
                   {"input_stall", p.stallS},
                   {"input_first_pass", p.coldInputS}};
    j["first_pass_steps"] = p.coldSteps;
    j["plan"] = {{"tensor", p.plan.tensor},
                 {"pipeline", p.plan.pipeline},
                 {"recompute", p.plan.recompute},
                 {"data", p.dataParallel},
                 {"micro_batch", p.microBatch}};
    j["samples_to_converge"] = p.samples ? OrderedJson(*p.samples) : OrderedJson();
    j["steps"] = p.steps;
    j["evaluations"] = p.evaluations;
    j["precision"] = precisionName(p.precision);
    j["software"] = p.software;
    j["loader"] = p.loader;
    j["global_batch_chosen"] = p.batchChosen;
    j["compute_s"] = {{"math", p.mathS},
                      {"memory", p.memoryS},
                      {"optimizer", p.optimizerS},
                      {"overhead", p.overheadS}};
    j["kernel_fixed_s"] = p.kernelFixedS; // part of compute_s.overhead
    j["gemm_efficiency"] = round4(p.gemmEfficiency);
    j["utilization"] = round4(p.utilization);
    j["interval_min"]
        = p.timeToTrainMin
              ? OrderedJson::array({round4(p.intervalMin[0]), round4(p.intervalMin[1])})
              : OrderedJson();
    j["interval_throughput"] = {std::round(p.intervalThroughput[0] * 10) / 10,
                                std::round(p.intervalThroughput[1] * 10) / 10};
    j["extrapolation"] = p.extrapolation;
    j["energy"] = energyToJson(p.energy, partPrices().currency);
    j["notes"] = p.notes;
    return j;
}

OrderedJson energyToJson(const std::optional<EnergyCost> &e, const std::string &currency)
{
    if (!e)
        return OrderedJson();
    OrderedJson j;
    j["basis"] = e->basis;
    j["run_s"] = std::round(e->runS * 10) / 10;
    j["power_w"] = {{"gpus", std::round(e->gpuW)},
                    {"other", std::round(e->otherW)},
                    {"facility", std::round(e->facilityW)}};
    j["energy_kwh"] = round4(e->kwh);
    j["cost"] = {{"currency", currency},
                 {"hardware", round4(e->hardwareUsd)},
                 {"energy", round4(e->energyUsd)},
                 {"total", round4(e->usd())}};
    j["unknown"] = e->unknown;
    return j;
}

std::string predictionToText(const std::string &system, const workload::Workload &w,
                             const Prediction &p)
{
    std::ostringstream out;
    out << w.name << " on " << system << ", global batch " << p.globalBatch << " ("
        << (p.localBatch < 1 ? significant(p.localBatch) : fixed(p.localBatch, 1))
        << " per replica; tensor " << p.plan.tensor << " x pipeline " << p.plan.pipeline
        << " x data " << p.dataParallel << ")\n";
    out << "  step " << fixed(p.stepS * 1e3, 2) << " ms: compute " << fixed(p.computeS * 1e3, 2)
        << " ms, communication " << fixed(p.communicationS * 1e3, 2) << " ms of which exposed "
        << fixed(p.exposedCommS * 1e3, 2) << " ms";
    if (p.syncS > 0)
        out << " (" << fixed(p.syncS * 1e3, 2) << " ms waiting for the slowest node)";
    out << ", input " << fixed(p.inputS * 1e3, 2) << " ms (stall " << fixed(p.stallS * 1e3, 2)
        << " ms)\n";
    if (p.coldSteps > 0)
        out << "    first pass over the dataset, from the drives: input "
            << fixed(p.coldInputS * 1e3, 2) << " ms a step for " << fixed(p.coldSteps, 0)
            << " steps\n";
    out << "    compute: math " << fixed(p.mathS * 1e3, 2) << " ms (at "
        << fixed(p.gemmEfficiency * 100, 0) << " % of the measured GEMM rate), memory "
        << fixed(p.memoryS * 1e3, 2) << " ms, optimizer " << fixed(p.optimizerS * 1e3, 2)
        << " ms, overhead " << fixed(p.overheadS * 1e3, 2) << " ms";
    if (p.kernelFixedS > 0)
        out << " (" << fixed(p.kernelFixedS * 1e3, 2)
            << " ms of it the matrix kernels' fixed time)";
    out << "\n";
    out << "  throughput " << fixed(p.throughput, 1) << " samples/s (80 % interval "
        << fixed(p.intervalThroughput[0], 1) << " to " << fixed(p.intervalThroughput[1], 1) << "), "
        << fixed(p.utilization * 100, 1) << " % of the " << precisionName(p.precision)
        << " dense peak\n";
    out << "  precision " << precisionName(p.precision) << ", software " << p.software
        << ", loader " << p.loader << "\n";
    if (p.timeToTrainMin) {
        out << "  time to train " << fixed(*p.timeToTrainMin, 2) << " min (80 % interval "
            << fixed(p.intervalMin[0], 2) << " to " << fixed(p.intervalMin[1], 2) << "; "
            << fixed(p.steps, 0) << " steps, " << fixed(*p.samples, 0) << " samples, "
            << fixed(p.evaluations, 0) << " evaluations)\n";
        out << "    compute " << fixed(p.breakdownMin.compute, 2) << ", communication "
            << fixed(p.breakdownMin.communication, 2) << ", input "
            << fixed(p.breakdownMin.input, 2) << ", evaluation "
            << fixed(p.breakdownMin.evaluation, 2) << " min\n";
    }
    out << "  memory " << fixed(p.requiredGB, 1) << " of " << fixed(p.availableGB, 0)
        << " GB per GPU" << (p.fits ? "" : ": DOES NOT FIT") << "\n";
    if (p.energy) {
        const EnergyCost &e = *p.energy;
        out << "  energy " << fixed(e.kwh, 2) << " kWh over "
            << (e.basis == "epoch" ? "one epoch" : "the run") << " (" << fixed(e.facilityW / 1e3, 2)
            << " kW with the facility: GPUs " << fixed(e.gpuW / 1e3, 2) << " kW, other parts "
            << fixed(e.otherW / 1e3, 2) << " kW); cost " << fixed(e.usd(), 2) << " "
            << partPrices().currency << " (hardware " << fixed(e.hardwareUsd, 2) << ", energy "
            << fixed(e.energyUsd, 2)
            << ", at assumed prices: resources/prices/parts.json or your prices/parts.json)\n";
        if (!e.unknown.empty()) {
            out << "    counted as 0:";
            for (const auto &u : e.unknown)
                out << " " << u << ";";
            out << "\n";
        }
    }
    for (const auto &e : p.extrapolation)
        out << "  extrapolation: " << e << "\n";
    for (const auto &n : p.notes)
        out << "  note: " << n << "\n";
    return out.str();
}

OrderedJson statsToJson(const std::map<std::string, ErrorStats> &stats)
{
    OrderedJson j = OrderedJson::object();
    for (const auto &[name, s] : stats)
        j[name] = {{"rows", s.rows},
                   {"median_abs_error", round4(s.median)},
                   {"p90_abs_error", round4(s.p90)}};
    return j;
}

OrderedJson validationToJson(const ObservationSet &set, const std::vector<RowResult> &results)
{
    OrderedJson rows = OrderedJson::array();
    for (const RowResult &r : results) {
        const Observation &o = *r.row;
        const bool minutes = o.kind == Observation::Kind::Minutes;
        const OrderedJson predicted
            = r.predicted ? OrderedJson(minutes ? round4(*r.predicted)
                                                : std::round(*r.predicted * 100) / 100)
                          : OrderedJson();
        rows.push_back(
            {{"round", o.round},
             {"submitter", o.submitter},
             {"system", o.system},
             {"benchmark", o.benchmark},
             {"gpu", o.platform.gpu ? o.platform.gpu->id : std::string()},
             {minutes ? "measured_minutes" : "measured_samples_per_s", o.measured},
             {minutes ? "predicted_minutes" : "predicted_samples_per_s", predicted},
             {"skip_reason", r.predicted ? OrderedJson() : OrderedJson(noPredictionReason(o))},
             {"where", o.where}});
    }
    std::map<std::string, int> reasons;
    for (const Skipped &s : set.skipped) {
        ++reasons[s.reason];
        rows.push_back({{"round", s.row.round},
                        {"submitter", s.row.submitter},
                        {"system", s.row.system},
                        {"benchmark", s.row.benchmark},
                        {"measured_minutes", s.row.measured},
                        {"predicted_minutes", nullptr},
                        {"skip_reason", s.reason},
                        {"where", s.where}});
    }
    OrderedJson j;
    j["rows"] = std::move(rows);
    std::size_t predicted = 0;
    for (const RowResult &r : results) {
        if (r.predicted)
            ++predicted;
        else
            ++reasons[noPredictionReason(*r.row)];
    }
    j["summary"] = {{"errors", statsToJson(summarize(results))},
                    {"errors_by_architecture", statsToJson(summarizeByArchitecture(results))},
                    {"convergence_floor", statsToJson(convergenceFloor(results))},
                    {"predicted", predicted},
                    {"skipped", set.skipped.size() + results.size() - predicted},
                    {"skip_reasons", reasons}};
    return j;
}

namespace {

void printStats(std::ostream &out, const std::map<std::string, ErrorStats> &stats)
{
    for (const auto &[name, s] : stats)
        out << "  " << name << ": " << s.rows << " rows, median " << fixed(s.median * 100, 1)
            << " %, p90 " << fixed(s.p90 * 100, 1) << " %\n";
}

} // namespace

std::string validationToText(const ObservationSet &set, const std::vector<RowResult> &results)
{
    std::ostringstream out;
    for (const RowResult &r : results) {
        const Observation &o = *r.row;
        const char *unit = o.kind == Observation::Kind::Minutes ? " min" : " samples/s";
        out << o.round << "  " << o.submitter << "  " << o.system << "  " << o.benchmark
            << ": measured " << fixed(o.measured, 2) << unit << ", predicted "
            << (r.predicted ? fixed(*r.predicted, 2) + unit : std::string("-")) << "\n";
    }
    out << "\nAbsolute error by benchmark (median, 90th percentile):\n";
    printStats(out, summarize(results));
    out << "By GPU architecture:\n";
    printStats(out, summarizeByArchitecture(results));
    out << "What the convergence tables alone miss (their samples against those each row "
           "trained; a perfect step time would still be off by this):\n";
    printStats(out, convergenceFloor(results));
    std::map<std::string, int> reasons;
    for (const Skipped &s : set.skipped)
        ++reasons[s.reason];
    out << "Skipped " << set.skipped.size() << " rows:\n";
    for (const auto &[reason, n] : reasons)
        out << "  " << n << "  " << reason << "\n";
    return out.str();
}

} // namespace clab::perf
