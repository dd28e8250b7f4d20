#pragma once

#include "fabric/analysis.h"
#include "perf/model.h"
#include "perf/service.h"
#include "store/predictedruns.h"

#include <string>
#include <vector>

namespace clab {

// One benchmark predicted for one composed system, with what it was predicted at.
struct SystemPrediction
{
    const workload::Workload *workload = nullptr;
    perf::Precision precision = perf::Precision::Fp16;
    perf::Prediction prediction;
};

// The GUI's benchmarks (ResNet-50 and BERT-Large unless the user chose others) for every system
// of an analysed design, each at its default precision and global batch; a system without a GPU
// gets none; unknown ids are skipped. With a memo, systems predicted before are not predicted
// again (the GUI after an edit).
inline const std::vector<std::string> kDefaultBenchmarks = {"resnet50", "bert_large"};
std::vector<std::vector<SystemPrediction>>
defaultPredictions(const design::Design &design, const fabric::Analysis &analysis,
                   const std::vector<std::string> &benchmarks = kDefaultBenchmarks,
                   perf::PredictionMemo *memo = nullptr);

// A prediction as the experiment store keeps it (details: the `predict --json` object).
store::PredictedRun predictedRun(const std::string &system, const SystemPrediction &p);
// What the store records about the system a prediction is for.
std::string systemDescription(const fabric::SystemReport &system, int nodes = 1);

} // namespace clab
