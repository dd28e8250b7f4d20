#pragma once

#include "perf/fit.h"
#include "perf/model.h"
#include "util/jsonreader.h"

#include <string>

namespace clab::perf {

// `composelab predict --json` (schema in README.md).
OrderedJson predictionToJson(const std::string &system, const workload::Workload &w,
                             const Prediction &p);
std::string predictionToText(const std::string &system, const workload::Workload &w,
                             const Prediction &p);

// `composelab validate --json`: every row (skipped ones with their reason) and the summary.
OrderedJson validationToJson(const ObservationSet &set, const std::vector<RowResult> &results);
std::string validationToText(const ObservationSet &set, const std::vector<RowResult> &results);

// The "energy" object of predict --json and study results; null without a bill of parts.
OrderedJson energyToJson(const std::optional<EnergyCost> &e, const std::string &currency);

OrderedJson statsToJson(const std::map<std::string, ErrorStats> &stats);

} // namespace clab::perf
