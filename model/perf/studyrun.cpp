#include "perf/studyrun.h"

#include "store/sha256.h"
#include "store/store.h"
#include "store/studies.h"

#include <algorithm>
#include <array>
#include <thread>

namespace clab::perf {

namespace {

constexpr std::uint64_t kBlock = 2048; // points a thread evaluates before the writer takes them

// The tags of a predicted point: the study, then "axis=value" for every axis.
std::string tagsOf(const std::string &study, const StudyResult &r)
{
    Json tags = Json::array({"study:" + study});
    for (const auto &[name, value] : r.axes)
        tags.push_back(name + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    return tags.dump();
}

// What the store keeps of a point: the point as JSON, its study, and its breakdown in the flat
// keys the charts read (compute_min ...), of the time to train or, without a convergence table,
// of one epoch.
std::string detailsOf(const StudyRunner &runner, const StudyResult &r)
{
    OrderedJson j = studyResultToJson(runner, r);
    // The run's own columns, its system and its tags say these already.
    for (const char *key :
         {"point", "axes", "system", "benchmark", "global_batch", "precision", "breakdown_min"})
        j.erase(key);
    j["study"] = runner.study().name;
    const Prediction &p = r.prediction;
    std::array<double, 4> parts{};
    if (p.timeToTrainMin) {
        parts = {p.breakdownMin.compute, p.breakdownMin.communication, p.breakdownMin.input,
                 p.breakdownMin.evaluation};
        j["breakdown_of"] = "time_to_train";
    } else {
        const workload::Workload *w = workload::Library::builtin().find(r.benchmark);
        if (!w || w->datasetSamples <= 0 || p.globalBatch <= 0)
            return j.dump();
        const double stepsPerEpochMin = w->datasetSamples / p.globalBatch / 60.0;
        parts = {p.computeS * stepsPerEpochMin, p.exposedCommS * stepsPerEpochMin,
                 p.stallS * stepsPerEpochMin, 0.0};
        j["breakdown_of"] = "epoch";
    }
    j["compute_min"] = parts[0];
    j["communication_min"] = parts[1];
    j["input_min"] = parts[2];
    j["evaluation_min"] = parts[3];
    return j.dump();
}

} // namespace

std::uint64_t shardPoints(std::uint64_t points, const Shard &shard)
{
    const auto n = std::uint64_t(shard.count), k = std::uint64_t(shard.index - 1);
    return points / n + (k < points % n ? 1 : 0);
}

StudyRunCounts runStudy(const StudyRunner &runner, store::Store *store,
                        const StudyRunOptions &options)
{
    const Study &study = runner.study();
    const Shard shard = options.shard;
    StudyRunCounts counts;
    counts.points = shardPoints(study.points(), shard);

    std::optional<store::Transaction> transaction;
    std::int64_t source = 0;
    std::vector<std::int64_t> systemIds(runner.compositions().size(), 0);
    if (store) {
        const std::string sha
            = store::sha256Hex(study.sha256 + " shard " + std::to_string(shard.index) + "/"
                               + std::to_string(shard.count));
        transaction.emplace(*store);
        if (store->findSource(sha)) {
            // Evaluated again for the caller, stored once.
            transaction->commit();
            transaction.reset();
            counts.alreadyStored = true;
            store = nullptr;
        } else {
            source = store->addSource({study.file, sha, "study"});
            store::addStudy(*store, source,
                            {study.name, study.sha256, shard.index, shard.count,
                             std::int64_t(study.points()), study.text});
        }
    }

    const int jobs = std::max(1, options.jobs);
    std::vector<StudyResult> results;
    for (std::uint64_t done = 0; done < counts.points;) {
        const std::uint64_t block
            = std::min<std::uint64_t>(kBlock * std::uint64_t(jobs), counts.points - done);
        results.assign(block, {});
        // The shard's i-th point is the study's point shard.index - 1 + i * shard.count.
        auto work = [&](std::uint64_t from, std::uint64_t to) {
            for (std::uint64_t i = from; i < to; ++i)
                results[i] = runner.evaluate(std::uint64_t(shard.index - 1)
                                             + (done + i) * std::uint64_t(shard.count));
        };
        std::vector<std::thread> threads;
        const std::uint64_t slice = (block + std::uint64_t(jobs) - 1) / std::uint64_t(jobs);
        for (int t = 1; t < jobs && std::uint64_t(t) * slice < block; ++t)
            threads.emplace_back(work, std::uint64_t(t) * slice,
                                 std::min(block, std::uint64_t(t + 1) * slice));
        work(0, std::min(block, slice));
        for (std::thread &t : threads)
            t.join();

        for (const StudyResult &r : results) {
            if (!r.dropped.empty()) {
                ++counts.dropped;
            } else {
                ++counts.predicted;
            }
            if (options.each)
                options.each(r);
            if (!store || !r.dropped.empty())
                continue;
            std::int64_t &system = systemIds[r.composition];
            const StudyRunner::Composition &c = runner.compositions()[r.composition];
            if (!system)
                system = store->addSystem({c.name, "ComposeLab study", c.description, c.design},
                                          source);
            store::RunRecord run;
            run.systemId = system;
            run.benchmark = r.benchmark;
            const Prediction &p = r.prediction;
            run.metric = p.timeToTrainMin ? "time_to_train" : "throughput";
            run.value = p.timeToTrainMin ? *p.timeToTrainMin : p.throughput;
            run.unit = p.timeToTrainMin ? "min" : "samples/s";
            run.globalBatch = p.globalBatch;
            run.precision = precisionName(p.precision);
            run.measured = false;
            run.tags = tagsOf(study.name, r);
            run.details = detailsOf(runner, r);
            run.place = "point " + std::to_string(r.index);
            store->addRun(run, source);
            ++counts.stored;
        }
        done += block;
        if (options.progress && !options.progress(done, counts.points)) {
            counts.cancelled = true;
            return counts; // the transaction rolls back
        }
    }
    if (transaction)
        transaction->commit();
    return counts;
}

} // namespace clab::perf
