// Calibration files (`validate --calibration`, datasets/calibration.json): bad input gives an
// InputError, and a calibration that reads is written back as a file that reads again.
#include "fuzzcommon.h"

#include "perf/calibration.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    perf::Calibration read;
    try {
        read = perf::Calibration::fromJson(fuzz::text(data, size), "fuzz.json");
    } catch (const InputError &) {
        return 0;
    }
    const std::string saved = read.toJson();
    const perf::Calibration again = perf::Calibration::fromJson(saved, "saved.json");
    fuzz::require(again.toJson() == saved, "a saved calibration writes back the same");
    return 0;
}
