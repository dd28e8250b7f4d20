#include "cli/editbench.h"

#include "commands/moveitemscommand.h"
#include "document.h"

#include "catalog/catalog.h"
#include "design/autolayout.h"
#include "design/examples.h"
#include "fabric/analysis.h"
#include "views/canvas/canvasscene.h"

#include <QApplication>

#include <memory>

namespace clab::cli {

std::function<void()> editMoveBenchmarkBody()
{
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return {};
    struct Canvas
    {
        Document document;
        views::CanvasScene scene;
        std::vector<design::Finding> findings;
    };
    auto canvas = std::make_shared<Canvas>();
    Canvas *c = canvas.get();
    // Laid out, as a saved design is after Tidy layout: a design with items placed around the
    // others places them all again after every move.
    design::Design pool = design::generatePool(1000);
    pool.layout = design::autoLayout(pool, catalog::Catalog::builtin(), false);
    c->document.setDesign(std::move(pool));
    c->findings = fabric::findingsOf(c->document.design(), catalog::Catalog::builtin());
    c->scene.setDesign(c->document.design(), c->findings);
    // What MainWindow::refresh does after a move.
    QObject::connect(&c->document, &Document::changed, &c->scene, [c](const Change &change) {
        if (change.only(Change::Layout))
            c->scene.setLayout(c->document.design().layout);
    });
    const std::string host = c->document.design().hosts.front().id;
    auto step = std::make_shared<int>(0);
    return [canvas, host, step] {
        const double x = 40.0 * (++*step % 2);
        // Each its own command: pushed moves of one item merge, as a drag's do.
        canvas->document.undoStack()->push(
            new commands::MoveItemsCommand(&canvas->document, {{host, {x, 80}}}));
    };
}

} // namespace clab::cli
