// `composelab machine`: nvidia-smi topo -m (with -L output) or an MLPerf system file becomes a
// design. Bad input gives an InputError naming the file, never a crash; a matrix that parses
// builds a design whose GPUs are the matrix' GPUs.
#include "fuzzcommon.h"

#include "catalog/catalog.h"
#include "machine/machine.h"
#include "machine/topomatrix.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    const std::string text(fuzz::text(data, size));
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    try {
        if (machine::looksLikeTopoMatrix(text)) {
            const machine::TopoMatrix topo = machine::parseTopoMatrix(text, "topo.txt");
            machine::MachineOptions options;
            const auto built
                = machine::designFromTopo(topo, {"A100-SXM4-80GB"}, options, catalog, "topo.txt");
            fuzz::require(!built.design.hosts.empty(), "a parsed matrix builds a host");
        }
        machine::buildMachine({{"in.txt", text}}, machine::MachineOptions{}, catalog);
    } catch (const InputError &) {
    }
    return 0;
}
