// What follows the canvas selection: the Results' system, and Edit > Vary in Study.
#include "mainwindow.h"

#include "catalog/catalog.h"
#include "views/canvas/canvasscene.h"
#include "views/plans/plansview.h"
#include "views/study/studypanel.h"
#include "views/systems/systemsview.h"

#include <QDockWidget>
#include <QStatusBar>
#include <QThread>

#include <algorithm>

namespace clab {

void MainWindow::followSelection()
{
    // The results follow the canvas: selecting a host or device shows its system's bandwidth.
    const std::vector<std::string> ids = m_scene->selectedIds();
    if (ids.empty())
        return;
    for (std::size_t i = 0; i < m_document.design().systems.size(); ++i) {
        const design::System &s = m_document.design().systems[i];
        if (s.host == ids.front()
            || std::find(s.devices.begin(), s.devices.end(), ids.front()) != s.devices.end()) {
            m_view->selectSystem(int(i));
            m_plans->selectSystem(int(i));
            return;
        }
    }
}

std::string MainWindow::selectedSystem() const
{
    const design::Design &d = m_document.design();
    for (const std::string &id : m_scene->selectedIds())
        for (const design::System &s : d.systems)
            if (s.host == id
                || std::find(s.devices.begin(), s.devices.end(), id) != s.devices.end())
                return s.name;
    return d.systems.empty() ? std::string() : d.systems.front().name;
}

void MainWindow::varySelection()
{
    const std::string system = selectedSystem();
    if (system.empty()) {
        statusBar()->showMessage(tr("Compose a system first: a study varies a composed system."),
                                 8000);
        return;
    }
    // A GPU selected: vary its model; a host: how many GPUs; anything else: the benchmark.
    QString axis = QStringLiteral("benchmark");
    const std::vector<std::string> ids = m_scene->selectedIds();
    if (!ids.empty()) {
        const design::Device *device = m_document.design().device(ids.front());
        if (device && catalog::Catalog::builtin().gpu(device->model))
            axis = QStringLiteral("gpu");
        else if (m_document.design().host(ids.front()))
            axis = QStringLiteral("gpus");
    }
    m_study->studyDesign(m_document.design(), system);
    if (auto *dock = findChild<QDockWidget *>(QStringLiteral("studyDock"))) {
        dock->show();
        dock->raise();
    }
    m_study->askVary(axis);
}

} // namespace clab
