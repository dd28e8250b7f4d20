#include "cli/validators.h"
#include "cli/rendercommand.h"
#include "cli/offscreenapp.h"

#include "catalog/catalog.h"
#include "design/design.h"
#include "fabric/analysis.h"
#include "util/inputerror.h"
#include "views/canvas/canvasexport.h"
#include "views/canvas/canvasscene.h"

#include <CLI/CLI.hpp>
#include <QApplication>
#include <QGuiApplication>

#include <memory>
#include <ostream>

namespace clab::cli {

void addRenderSubcommand(CLI::App &app, RenderOptions &options)
{
    CLI::App *cmd = app.add_subcommand(
        "render", "Draw a design's canvas to an image (PNG, SVG or PDF) without a display");
    cmd->add_option("file", options.file, "Design file (.clab)")->required();
    cmd->add_option("--out,-o", options.out, "Output file: .png, .svg or .pdf")->required();
    cmd->add_option("--dpi", options.dpi, "Resolution of a PNG (96 = one pixel per canvas unit)")
        ->check(wholeNumber(24, 1200));
}

int renderCommand(const RenderOptions &options, std::ostream &out, std::ostream &err)
{
    design::Design design;
    try {
        design = design::loadDesign(options.file);
    } catch (const InputError &e) {
        err << "composelab render: " << e.what() << "\n";
        return 1;
    }
    // Drawing text needs a QApplication; headless runs get Qt's offscreen platform.
    std::unique_ptr<QApplication> app;
    if (std::string problem; !ensureWidgetApplication(app, problem)) {
        err << "composelab render: " << problem << "\n";
        return 1;
    }
    const catalog::Catalog &catalog = catalog::Catalog::builtin();
    views::CanvasScene scene;
    scene.setDesign(design, fabric::findingsOf(design, catalog));
    QString error;
    if (!views::exportScene(&scene, QString::fromStdString(options.out), options.dpi, &error)) {
        err << "composelab render: " << error.toStdString() << "\n";
        return 1;
    }
    out << "Wrote " << options.out << "\n";
    return 0;
}

} // namespace clab::cli
