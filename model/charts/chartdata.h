#pragma once

#include <cstddef>
#include <string>
#include <vector>

// Plain series that a chart draws: every number on a chart is computed here, so
// the CLI's --csv, the tests and the widget all see the same values. No Qt.
namespace clab::charts {

enum class ChartKind {
    Ttt,
    Scaling,
    Bandwidth,
    Heatmap,
    Collective,
    Breakdown,
    Parity,
    Compare,
    Pareto,
    ParetoEnergy,
    Error,
    Placement // HammingMesh job placement (clustercharts.h), not drawn from the store
};
enum class SeriesKind { Measured, Predicted, Ideal };
// How a line is drawn; Auto leaves it to the series kind (ideal lines dashed).
enum class LineStyle { Auto, Solid, Dashed, Dotted };

const char *chartKindName(ChartKind kind); // "ttt", "scaling", ...
bool parseChartKind(const std::string &text, ChartKind &kind);
const char *seriesKindName(SeriesKind kind); // "measured", "predicted", "ideal"

// No axis carries more category labels than this; builders fold or leave out the rest.
inline constexpr std::size_t kMaxCategories = 40;

struct Axis
{
    std::string label; // with the unit: "time to train (min)"
    bool log = false;
};

// Bar charts (categories non-empty): values[i] belongs to categories[i], NaN where there is none.
// Line and point charts (categories empty): x[i], values[i] pairs, sorted by x.
struct Series
{
    std::string name;
    SeriesKind kind = SeriesKind::Measured;
    std::vector<double> x;
    std::vector<double> values;
    LineStyle line = LineStyle::Auto;
    // What the series stands for (a system): its colour and marker follow this name, so a system
    // looks the same in every chart. Empty: colours go by the series' order.
    std::string identity{};
};

// A label placed at (x, y) in plot coordinates; for bar charts x is the category index.
struct Annotation
{
    double x = 0;
    double y = 0;
    std::string text;
};

// A matrix (heat map): cells row-major, rows.size() x columns.size(), NaN where nothing was
// measured. Rows are senders, columns receivers.
struct Matrix
{
    std::vector<std::string> rows;
    std::vector<std::string> columns;
    std::vector<double> cells;
    std::string valueLabel; // colour scale label with unit
    double at(std::size_t r, std::size_t c) const { return cells[r * columns.size() + c]; }
};

// The spread of a category's values (the error chart): P10 to P90 as whiskers, the quartiles as
// the box, and the values beyond the whiskers as points.
struct Box
{
    std::size_t count = 0;
    double p10 = 0, q1 = 0, median = 0, q3 = 0, p90 = 0;
    std::vector<double> outliers;
};

struct ChartData
{
    ChartKind kind = ChartKind::Ttt;
    std::string title;
    Axis x;
    Axis y;
    std::vector<std::string> categories;
    std::vector<Series> series;
    bool stacked = false;    // bars of all series stacked (breakdown) instead of side by side
    bool horizontal = false; // bars along x, categories down the y axis (many or long labels)
    std::vector<Annotation> annotations;
    Matrix matrix;                  // heat maps only
    std::vector<Box> boxes;         // box charts: boxes[i] belongs to categories[i]
    std::vector<std::string> notes; // what was left out and why, for the CLI to print

    bool empty() const;
};

// The plotted numbers as CSV. Bars: category,<series...>; lines: series,kind,x,y; heat maps:
// from,to,value; boxes: category,count,p10,q1,median,q3,p90. Numbers in shortest round-trip form;
// empty cell where there is no value.
std::string toCsv(const ChartData &chart);

// "+12 %", "-3 %", "0 %": the error of a prediction against a measurement, rounded to a percent.
std::string errorLabel(double predicted, double measured);

} // namespace clab::charts
