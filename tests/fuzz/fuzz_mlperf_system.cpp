// MLPerf system descriptions (systems/<system>.json, and v0.6's "key: {json}" lines), imported
// on their own as `composelab import systems/x.json` would.
#include "fuzzcommon.h"

#include "store/importmlperf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    const std::filesystem::path file
        = fuzz::scratch().write("systems/box.json", fuzz::text(data, size));
    fuzz::importRolledBack([&](store::ImportSession &s) { store::importMlperfSystem(s, file); });
    return 0;
}
