// Study files (`composelab study`): bad input gives an InputError naming the JSON pointer; a study
// that reads and is small is evaluated point by point, as the study command does.
#include "fuzzcommon.h"

#include "catalog/catalog.h"
#include "perf/study.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    try {
        const perf::Study study = perf::readStudy(fuzz::text(data, size), "fuzz.clabstudy",
                                                  catalog::Catalog::builtin());
        if (study.points() > 256)
            return 0;
        const perf::StudyRunner runner(study, catalog::Catalog::builtin(),
                                       perf::Calibration::builtin());
        for (std::uint64_t i = 0; i < study.points(); ++i)
            (void)runner.evaluate(i);
    } catch (const InputError &) {
    }
    return 0;
}
