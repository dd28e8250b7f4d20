// nccl-tests output (all_reduce_perf and friends), as `composelab import` reads it: bad input gives
// an InputError naming the line, never a crash, a leak or UB.
#include "fuzzcommon.h"

#include "store/importtext.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    fuzz::importText(fuzz::text(data, size), "nccl.txt", store::importNcclTests);
    return 0;
}
