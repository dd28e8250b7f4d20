#pragma once

#include "fabric/analysis.h"
#include "util/jsonreader.h"

#include <string>

namespace clab::fabric {

// The analysis as `composelab analyze --json` prints it (its fields: README.md, `analyze --json`).
OrderedJson analysisToJson(const Analysis &analysis);

// The analysis as readable tables, for `composelab analyze` without --json.
std::string analysisToText(const Analysis &analysis);

} // namespace clab::fabric
