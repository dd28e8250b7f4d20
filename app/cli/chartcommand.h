#pragma once

#include <functional>
#include <iosfwd>
#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab chart --kind placement [--grid XxY] [--board AxB] [--queue paper|trace]
// [--faulty-boards N,...] [--seeds N]` draws utilisation against faulty boards for the three
// HammingMesh placement policies instead (model/cluster/placementstudy.h).
// `composelab chart [--db DB] --kind KIND [--benchmark B] [--system S] [--measured|--predicted]
// [--dpi N] [--csv FILE] --out FILE.{png,svg,pdf}`: draws a chart of the experiment store
// headless (an offscreen QApplication when none is running).
struct ChartOptions
{
    std::string db;   // empty: the user's store (cli/userstore.h)
    std::string kind; // ttt, scaling, bandwidth, heatmap, collective, breakdown
    std::string benchmark;
    std::string system; // substring of the system name
    bool measuredOnly = false;
    bool predictedOnly = false;
    bool linear = false; // scaling: linear axes instead of log
    int dpi = 150;
    int width = 900;             // pixels at 96 dpi
    int height = 0;              // 0: ChartWidget::preferredHeight
    std::string size;            // "6x4in", "15x10cm", "900x560px": width and height (beats both)
    std::string style = "paper"; // paper or slides (text and lines 1.5x)
    std::string csv;
    std::string out;
    // --kind placement: a HammingMesh placement study instead of the store
    std::string grid = "64x64", board = "2x2"; // boards, accelerators per board
    std::string queue = "paper";               // or "trace"
    std::vector<long long> faultyBoards;       // empty: cluster::placementFaultLevels
    std::uint64_t seed = 1;
    int seeds = 5;
};

// 0 written, 1 bad input (store, empty chart, unwritable file: message on err), 2 usage.
int chartCommand(const ChartOptions &options, std::ostream &out, std::ostream &err);

// Adds the `chart` subcommand; after parsing, app.get_subcommand("chart")->parsed() tells.
void addChartSubcommand(CLI::App &app, ChartOptions &options);

// The timed body of `composelab bench`'s chart_100k: redraws a scaling chart with a
// 100,000-point predicted curve (plus measured points and the ideal line) offscreen and encodes it
// as PNG in memory. Needs a running QApplication (the bench makes one); returns an empty function
// (skip) without one.
std::function<void()> chartBenchmarkBody();

} // namespace clab::cli
