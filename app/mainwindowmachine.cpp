// File > New from Machine…: a design from what a real machine printed.
#include "mainwindow.h"

#include "catalog/catalog.h"
#include "machine/machine.h"
#include "machine/measurements.h"
#include "util/fileio.h"
#include "util/inputerror.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QSettings>
#include <QStatusBar>

namespace clab {

void MainWindow::chooseMachineFiles()
{
    if (!maybeSave())
        return;
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("machineDirectory")).toString();
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("New from machine: nvidia-smi topo -m and -L output, or an MLPerf system JSON"),
        dir, tr("Machine outputs (*.txt *.log *.json *.out);;All files (*)"));
    if (paths.isEmpty())
        return;
    settings.setValue(QStringLiteral("machineDirectory"), QFileInfo(paths.front()).absolutePath());
    newFromMachine(paths);
}

bool MainWindow::newFromMachine(const QStringList &paths, const QString &gpu)
{
    const catalog::Catalog &cat = catalog::Catalog::builtin();
    machine::MachineOptions options;
    options.gpu = gpu.toStdString();
    try {
        std::vector<machine::MachineInput> inputs;
        bool matrix = false;
        bool named = false;
        for (const QString &path : paths) {
            machine::MachineInput in{path.toStdString(), readTextFile(path.toStdString())};
            const machine::InputKind kind = machine::kindOf(in.text);
            if (kind == machine::InputKind::Other && !machine::isMeasurementOutput(in))
                throw InputError(in.path, "",
                                 "not `nvidia-smi topo -m` output, `nvidia-smi -L` output, an "
                                 "MLPerf systems/*.json, or a p2pBandwidthLatencyTest, "
                                 "nvbandwidth, bandwidthTest or nccl-tests output");
            matrix = matrix || kind == machine::InputKind::TopoMatrix;
            named = named || kind == machine::InputKind::GpuNames;
            inputs.push_back(std::move(in));
        }
        if (matrix && !named && options.gpu.empty()) {
            QStringList gpus;
            for (const auto &[id, g] : cat.gpus())
                gpus << QString::fromStdString(id);
            bool ok = false;
            const QString chosen = QInputDialog::getItem(
                this, tr("GPU model"),
                tr("The topology matrix does not name the GPU model. Which GPU is it?"), gpus, 0,
                false, &ok);
            if (!ok)
                return false;
            options.gpu = chosen.toStdString();
        }
        const machine::MachineDesign built = machine::buildMachine(inputs, options, cat);
        const design::Design &d = built.design;
        m_document.loadRecovered(design::writeDesign(design::withUserParts(d)), QString(),
                                 QString::fromStdString(d.name));
    } catch (const InputError &e) {
        // A choice the files leave open ("gpu", "host", "nic") is not a place in the file.
        const bool choice = e.place() == "gpu" || e.place() == "host" || e.place() == "nic";
        showError(tr("Cannot build a design from these files"),
                  QString::fromStdString(choice ? e.file() + ": " + e.message() : e.what()));
        return false;
    } catch (const std::exception &e) {
        showError(tr("Cannot build a design from these files"), QString::fromStdString(e.what()));
        return false;
    }
    fitAfterLoad();
    statusBar()->showMessage(
        tr("Built from the machine's outputs; the design's description lists what was assumed."),
        10000);
    return true;
}

} // namespace clab
