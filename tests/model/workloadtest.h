#pragma once

// Shared by the workload tests: one valid workload file, which the bad-file rows break one
// thing at a time.
#include "util/jsonreader.h"

#include <string>

namespace clab::workloadtest {

// One valid workload; the bad-file rows each break one thing in a copy of it.
inline Json validWorkload()
{
    return Json{{"id", "toy"},
                {"name", "Toy"},
                {"aliases", {"TOY-1"}},
                {"source", "made up for the test"},
                {"parameters", 1e6},
                {"trainFlopsPerSample", 6e6},
                {"activationBytesPerSample", 1e5},
                {"inputBytesPerSample", 1e4},
                {"decodeCoreSecondsPerSample", 1e-3},
                {"datasetSamples", 1000},
                {"evalSamples", 100},
                {"evalFlopsPerSample", 2e6},
                {"evalEverySamples", 1000},
                {"defaultPrecision", "fp16"},
                {"qualityTarget", "90%"},
                {"convergence",
                 {{{"globalBatch", 100}, {"samples", 1000}, {"source", "a"}},
                  {{"globalBatch", 200}, {"samples", 1200}, {"source", "b"}},
                  {{"globalBatch", 400}, {"samples", 2000}, {"source", "c"}}}}};
}

inline std::string fileText(const Json &workload)
{
    return Json{{"workloads", Json::array({workload})}}.dump();
}

} // namespace clab::workloadtest
