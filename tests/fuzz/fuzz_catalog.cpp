// Catalog files (resources/catalog/*.json and the user's own): reading a file and checking its
// references gives an InputError for bad input, never a crash, a leak or UB.
#include "fuzzcommon.h"

#include "catalog/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    catalog::Catalog catalog;
    try {
        catalog.addFile(fuzz::text(data, size), "fuzz.json");
        catalog.checkReferences();
    } catch (const InputError &) {
    }
    return 0;
}
