// Price tables (`topo --prices`): bad input gives an InputError naming the JSON pointer.
#include "fuzzcommon.h"

#include "cluster/cost.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    try {
        (void)cluster::readPriceTable(std::string(fuzz::text(data, size)), "prices.json");
    } catch (const InputError &) {
    }
    return 0;
}
