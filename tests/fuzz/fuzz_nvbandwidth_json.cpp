// nvbandwidth -j output, as `composelab import` reads it: bad input gives an InputError naming
// the JSON place, never a crash, a leak or UB.
#include "fuzzcommon.h"

#include "store/importtext.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    fuzz::importText(fuzz::text(data, size), "nvbandwidth.json", store::importNvbandwidthJson);
    return 0;
}
