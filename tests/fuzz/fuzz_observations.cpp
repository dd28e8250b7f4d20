// Results tables read by `composelab calibrate` and `validate`: each row becomes an observation
// (or is skipped with its reason) and validate predicts it with the shipped calibration.
#include "fuzzcommon.h"

#include "perf/calibration.h"
#include "perf/observations.h"
#include "util/csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    perf::ObservationSet set;
    try {
        perf::addCsv(CsvTable::parse(fuzz::text(data, size), "fuzz.csv"), set);
    } catch (const InputError &) {
        return 0;
    }
    for (const perf::Observation &o : set.rows)
        (void)perf::predictObservation(o, perf::Calibration::builtin());
    return 0;
}
