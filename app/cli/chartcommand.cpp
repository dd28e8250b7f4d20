#include "cli/validators.h"
#include "cli/chartcommand.h"
#include "cli/offscreenapp.h"

#include "cli/userstore.h"

#include "charts/clustercharts.h"
#include "charts/storequery.h"
#include "cluster/paperqueue.h"
#include "cluster/topologyspec.h"
#include "util/inputerror.h"
#include "store/sqlite.h"
#include "util/fileio.h"
#include "views/charts/chartexport.h"
#include "views/charts/chartwidget.h"

#include <CLI/CLI.hpp>

#include <QApplication>
#include <QBuffer>
#include <QPixmap>

#include <cmath>
#include <cstdio>
#include <memory>
#include <ostream>

namespace clab::cli {

namespace {

// Utilisation against faulty boards for the three policies, median over the seeds, with the
// paper's published points when the grid is one of its systems.
charts::ChartData placementChartOf(const ChartOptions &o)
{
    const auto grid = cluster::parsePair(o.grid, "hammingmesh", "grid");
    const auto board = cluster::parsePair(o.board, "hammingmesh", "board");
    cluster::PlacementStudyParams p;
    p.x = grid.first;
    p.y = grid.second;
    p.queue = o.queue == "trace" ? cluster::JobQueue::Trace : cluster::JobQueue::Paper;
    p.faultyCounts = o.faultyBoards;
    p.seed = o.seed;
    p.seeds = o.seeds;
    const std::string system = board.first == board.second
                                   ? cluster::paperSystemName(board.first, board.second, p.x, p.y)
                                   : o.board + " boards on a " + o.grid + " grid";
    return charts::placementStudyChart(p, board.first, board.second, system);
}

} // namespace

int chartCommand(const ChartOptions &options, std::ostream &out, std::ostream &err)
{
    charts::ChartKind kind;
    if (!charts::parseChartKind(options.kind, kind)) {
        err << "chart: unknown kind \"" << options.kind
            << "\" (ttt, scaling, bandwidth, heatmap, collective, breakdown, parity, error, "
               "compare, pareto, pareto-energy, placement)\n";
        return 2;
    }
    if (options.measuredOnly && options.predictedOnly) {
        err << "chart: --measured and --predicted exclude each other\n";
        return 2;
    }
    const QString outPath = QString::fromStdString(options.out);
    const QString suffix = outPath.section(QLatin1Char('.'), -1).toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("pdf")
        && suffix != QLatin1String("svg")) {
        err << "chart: --out must end in .png, .pdf or .svg: " << options.out << "\n";
        return 2;
    }
    int width = options.width, height = options.height;
    if (!options.size.empty() && !views::parseChartSize(options.size, width, height)) {
        err << "chart: --size: expected WIDTHxHEIGHT with a unit (6x4in, 15x10cm, 900x560px), "
               "between 2x1.5 and 100x100 inches, got \""
            << options.size << "\"\n";
        return 2;
    }
    if (options.style != "paper" && options.style != "slides") {
        err << "chart: --style: expected paper or slides, got \"" << options.style << "\"\n";
        return 2;
    }
    charts::ChartData chart;
    std::string db = options.db;
    if (kind == charts::ChartKind::Placement) {
        try {
            chart = placementChartOf(options);
        } catch (const InputError &e) {
            err << "chart: " << e.what() << "\n";
            return 1;
        }
    } else {
        try {
            db = storeFor(options.db, err);
            charts::StoreQuery store(db);
            store::RunFilter filter;
            filter.benchmark = options.benchmark;
            filter.system = options.system;
            filter.kind = options.measuredOnly    ? store::RunKind::Measured
                          : options.predictedOnly ? store::RunKind::Predicted
                                                  : store::RunKind::All;
            chart = kind == charts::ChartKind::Scaling
                        ? charts::scalingChart(store.runs(filter), !options.linear)
                        : charts::chartFromStore(store, kind, filter);
        } catch (const store::StoreError &e) {
            err << e.what() << "\n";
            return 1;
        }
    }
    for (const std::string &note : chart.notes)
        err << "chart: " << note << "\n";
    if (chart.empty()) {
        err << db << ": nothing to draw for a " << options.kind << " chart"
            << (options.benchmark.empty() ? "" : " of benchmark " + options.benchmark)
            << (options.system.empty() ? "" : " on systems matching \"" + options.system + "\"")
            << "\n";
        return 1;
    }
    if (!options.csv.empty()) {
        try {
            writeFileAtomically(options.csv, charts::toCsv(chart));
        } catch (const std::exception &e) {
            err << "chart: " << e.what() << "\n";
            return 1;
        }
    }
    std::unique_ptr<QApplication> app;
    if (std::string problem; !ensureWidgetApplication(app, problem)) {
        err << "chart: " << problem << "\n";
        return 1;
    }
    QString error;
    const bool ok
        = views::exportChartData(chart, {width, height, options.style == "slides" ? 1.5 : 1.0},
                                 outPath, options.dpi, &error);
    if (!ok) {
        err << "chart: " << error.toStdString() << "\n";
        return 1;
    }
    out << "Wrote " << options.out;
    if (!options.csv.empty())
        out << " and " << options.csv;
    out << "\n";
    return 0;
}

void addChartSubcommand(CLI::App &app, ChartOptions &options)
{
    CLI::App *cmd = app.add_subcommand(
        "chart", "Draw a chart of the experiment store (PNG, PDF or SVG), headless");
    cmd->add_option("--db", options.db, "Experiment store (SQLite file; default: the user's)");
    cmd->add_option("--kind", options.kind,
                    "ttt, scaling, bandwidth, heatmap, collective, breakdown, parity (predicted "
                    "against measured), error (the error's spread per benchmark), compare (a "
                    "study's variants), pareto (time against cost), "
                    "pareto-energy (time against energy) or placement (HammingMesh job "
                    "placement: utilisation against faulty boards, not from the store)")
        ->required();
    cmd->add_option("--grid", options.grid, "placement: grid of XxY boards (default 64x64)");
    cmd->add_option("--board", options.board, "placement: board of AxB accelerators (default 2x2)");
    cmd->add_option("--queue", options.queue,
                    "placement: paper (the HammingMesh paper's job sizes, the default) or trace")
        ->check(CLI::IsMember({"paper", "trace"}));
    cmd->add_option("--faulty-boards", options.faultyBoards,
                    "placement: faulty-board counts, e.g. 25,50,100 (default: four steps of a "
                    "40th of the grid, at most 25)")
        ->delimiter(',');
    cmd->add_option("--seed", options.seed, "placement: first seed of queues and faults");
    cmd->add_option("--seeds", options.seeds, "placement: seeds per point (default 5)");
    cmd->add_option("--benchmark", options.benchmark, "Only this benchmark");
    cmd->add_option("--system", options.system, "Only systems whose name contains this");
    cmd->add_flag("--measured", options.measuredOnly, "Only measured runs");
    cmd->add_flag("--predicted", options.predictedOnly, "Only predicted runs");
    cmd->add_flag("--linear", options.linear, "Scaling chart: linear axes (default: log)");
    cmd->add_option("--dpi", options.dpi, "PNG resolution (default 150)")
        ->check(wholeNumber(10, 2400));
    cmd->add_option("--width", options.width, "Width in pixels at 96 dpi (default 900)")
        ->check(wholeNumber(200, 10000));
    cmd->add_option(
           "--height", options.height,
           "Height in pixels at 96 dpi (default 560, taller for a long list of categories or a "
           "narrow chart's long legend)")
        ->check(wholeNumber(150, 10000));
    cmd->add_option("--size", options.size,
                    "Width x height with a unit: 6x4in, 15x10cm or 900x560px (instead of "
                    "--width and --height)");
    cmd->add_option("--style", options.style,
                    "paper (default) or slides (text and lines one and a half times larger)");
    cmd->add_option("--csv", options.csv, "Also write the plotted numbers as CSV");
    cmd->add_option("--out", options.out, "Chart file: .png, .pdf or .svg")->required();
}

std::function<void()> chartBenchmarkBody()
{
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return {};
    // 100,000 points: a predicted scaling curve from 1 to 100,000 GPUs, its ideal line and a
    // measured point per power of two.
    charts::RunPoint r;
    r.benchmark = "resnet";
    r.metric = "time_to_train";
    r.unit = "min";
    std::vector<charts::RunPoint> runs;
    runs.reserve(100020);
    for (int n = 1; n <= 100000; ++n) {
        r.gpus = n;
        r.measured = false;
        r.value = 3000.0 / n + 0.002 * std::log2(double(n)) * 10;
        runs.push_back(r);
    }
    for (int n = 1; n <= 65536; n *= 2) {
        r.gpus = n;
        r.measured = true;
        r.value = 3100.0 / n + 0.03 * std::log2(double(n));
        runs.push_back(r);
    }
    auto chart = std::make_shared<charts::ChartData>(charts::scalingChart(runs));
    auto widget = std::shared_ptr<views::ChartWidget>(new views::ChartWidget);
    widget->resize(900, 560);
    return [chart, widget] {
        widget->setChart(*chart);
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        widget->toPixmap(900, 560, 1.0).save(&buffer, "PNG");
        volatile qsizetype n = png.size();
        (void)n;
    };
}

} // namespace clab::cli
