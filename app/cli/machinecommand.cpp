#include "cli/machinecommand.h"

#include "catalog/catalog.h"
#include "fabric/analysis.h"
#include "machine/measurements.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <ostream>

namespace clab::cli {

int machineCommand(const MachineCommandOptions &options, std::ostream &out, std::ostream &err)
{
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    try {
        if (!options.force && std::filesystem::exists(options.out)) {
            err << "composelab machine: " << options.out
                << " exists; give --force to replace it (it is unchanged)\n";
            return 1;
        }
        std::vector<machine::MachineInput> inputs;
        for (const std::string &file : options.files) {
            machine::MachineInput in{file, readTextFile(file)};
            if (machine::kindOf(in.text) == machine::InputKind::Other
                && !machine::isMeasurementOutput(in))
                throw InputError(file, "",
                                 "not `nvidia-smi topo -m` output, `nvidia-smi -L` output, an "
                                 "MLPerf systems/*.json, or a p2pBandwidthLatencyTest, "
                                 "nvbandwidth, bandwidthTest or nccl-tests output");
            inputs.push_back(std::move(in));
        }
        const machine::MachineDesign built = machine::buildMachine(inputs, options.machine, cat);
        design::saveDesign(design::withUserParts(built.design), options.out);
        const design::Design &d = built.design;
        int gpus = 0, nics = 0, nvlinks = 0;
        std::string otherKind; // GPU links that are not NVLink (an AMD board's xGMI)
        for (const auto &dev : d.devices) {
            gpus += cat.gpu(dev.model) ? 1 : 0;
            nics += cat.nic(dev.model) ? 1 : 0;
        }
        for (const auto &l : d.links) {
            const catalog::LinkKind *kind = cat.link(l.kind);
            if (!kind || kind->family != catalog::LinkFamily::Nvlink)
                continue;
            nvlinks += l.count;
            if (l.kind.rfind("nvlink", 0) != 0)
                otherKind = l.kind;
        }
        out << "Wrote " << options.out << ": \"" << d.name << "\", " << gpus << " GPU"
            << (gpus == 1 ? "" : "s") << " (" << (d.devices.empty() ? "" : d.devices.front().model)
            << "), " << nics << " NIC" << (nics == 1 ? "" : "s") << ", " << d.switches.size()
            << " switch" << (d.switches.size() == 1 ? "" : "es") << ", " << nvlinks
            << (otherKind.empty() ? " NVLink" : " " + otherKind) << " link"
            << (nvlinks == 1 ? "" : "s");
        if (d.cluster)
            out << ", " << d.cluster->nodes << " nodes";
        out << "\n";
        for (const std::string &note : built.notes)
            out << "  note: " << note << "\n";
        for (const auto &finding : fabric::findingsOf(d, cat))
            out << "  design rule: " << finding.message << "\n";
    } catch (const InputError &e) {
        // The model names the choices it needs by place (gpu, host, nic); here they are options.
        if (e.place() == "gpu" || e.place() == "host" || e.place() == "nic")
            err << "composelab machine: " << e.file() << ": --" << e.place() << ": " << e.message()
                << "\n";
        else
            err << "composelab machine: " << e.what() << "\n";
        return 1;
    } catch (const std::exception &e) {
        err << "composelab machine: " << e.what() << "\n" << options.out << " is unchanged.\n";
        return 1;
    }
    return 0;
}

void addMachineSubcommand(CLI::App &app, MachineCommandOptions &options)
{
    CLI::App *cmd = app.add_subcommand(
        "machine", "Build a design from a real machine: `nvidia-smi topo -m` output (with "
                   "`nvidia-smi -L` output or --gpu for the model), or an MLPerf systems/*.json");
    cmd->add_option("files", options.files, "Output files of the machine")->required();
    cmd->add_option("--gpu", options.machine.gpu, "Catalog GPU of every GPU (or its full name)");
    cmd->add_option("--name", options.machine.name, "Name of the design and its system");
    cmd->add_option("--host", options.machine.host, "Catalog host (default: by PCIe generation)");
    cmd->add_option("--nic", options.machine.nic,
                    "Catalog NIC model of the machine's NICs (default: a ConnectX-6 HDR for a "
                    "matrix, the described rate for an MLPerf system)");
    cmd->add_option("--out", options.out, "Design file to write (.clab)")->required();
    cmd->add_flag("--force", options.force, "Replace OUT when it exists");
}

} // namespace clab::cli
