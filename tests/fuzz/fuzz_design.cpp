// Design files (.clab): readDesign on any bytes gives a Design or an InputError, never a crash,
// a leak or UB; and a design that reads survives save -> load -> save byte for byte (FORMAT.md).
#include "fuzzcommon.h"

#include "design/design.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    design::Design read;
    try {
        read = design::readDesign(fuzz::text(data, size), "fuzz.clab");
    } catch (const InputError &) {
        return 0;
    }
    const std::string saved = design::writeDesign(read);
    const design::Design again = design::readDesign(saved, "saved.clab");
    fuzz::require(again == read, "a saved design reads back as the same design");
    fuzz::require(design::writeDesign(again) == saved, "save -> load -> save gives the same bytes");
    return 0;
}
