// CSV tables given to `composelab import`: MLPerf results tables, throughput tables and generic
// run tables, told apart by their header.
#include "fuzzcommon.h"

#include "store/importtext.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    fuzz::importText(fuzz::text(data, size), "fuzz.csv", store::importCsvFile);
    return 0;
}
