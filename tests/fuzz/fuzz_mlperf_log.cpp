// MLPerf Training result logs: the input is result_0.txt of a submission folder, imported as
// `composelab import` would (parsing, dates, the olympic score, the store's rows).
#include "fuzzcommon.h"

#include "store/importmlperf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    const std::filesystem::path log = fuzz::scratch().write(
        "v1.0/Acme/results/box/resnet/result_0.txt", fuzz::text(data, size));
    fuzz::importRolledBack(
        [&](store::ImportSession &s) { store::importMlperfSubmission(s, log.parent_path()); });
    return 0;
}
