#include "charts/chartdata.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace clab::charts {

namespace {

const char *const kindNames[]
    = {"ttt",    "scaling", "bandwidth", "heatmap",       "collective", "breakdown",
       "parity", "compare", "pareto",    "pareto-energy", "error",      "placement"};

std::string number(double v)
{
    if (!std::isfinite(v))
        return {};
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// RFC 4180: quote a field that holds a comma, quote or line break; double inner quotes.
std::string field(const std::string &s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"')
            q += '"';
        q += c;
    }
    return q + '"';
}

} // namespace

const char *chartKindName(ChartKind kind)
{
    return kindNames[static_cast<int>(kind)];
}

bool parseChartKind(const std::string &text, ChartKind &kind)
{
    for (int i = 0; i < int(std::size(kindNames)); ++i)
        if (text == kindNames[i]) {
            kind = static_cast<ChartKind>(i);
            return true;
        }
    return false;
}

const char *seriesKindName(SeriesKind kind)
{
    switch (kind) {
    case SeriesKind::Measured:
        return "measured";
    case SeriesKind::Predicted:
        return "predicted";
    case SeriesKind::Ideal:
        return "ideal";
    }
    return "";
}

bool ChartData::empty() const
{
    if (kind == ChartKind::Heatmap)
        return matrix.rows.empty() || matrix.columns.empty();
    if (!boxes.empty())
        return false;
    for (const Series &s : series)
        for (double v : s.values)
            if (std::isfinite(v))
                return false;
    return true;
}

std::string toCsv(const ChartData &chart)
{
    std::string out;
    if (chart.kind == ChartKind::Heatmap) {
        out = "from,to," + field(chart.matrix.valueLabel) + "\n";
        for (std::size_t r = 0; r < chart.matrix.rows.size(); ++r)
            for (std::size_t c = 0; c < chart.matrix.columns.size(); ++c)
                out += field(chart.matrix.rows[r]) + ',' + field(chart.matrix.columns[c]) + ','
                       + number(chart.matrix.at(r, c)) + '\n';
        return out;
    }
    if (!chart.boxes.empty()) {
        out = field(chart.x.label.empty() ? std::string("category") : chart.x.label)
              + ",count,p10,q1,median,q3,p90\n";
        for (std::size_t i = 0; i < chart.boxes.size() && i < chart.categories.size(); ++i) {
            const Box &b = chart.boxes[i];
            out += field(chart.categories[i]) + ',' + std::to_string(b.count) + ',' + number(b.p10)
                   + ',' + number(b.q1) + ',' + number(b.median) + ',' + number(b.q3) + ','
                   + number(b.p90) + '\n';
        }
        return out;
    }
    if (!chart.categories.empty()) {
        out = field(chart.x.label.empty() ? std::string("category") : chart.x.label);
        for (const Series &s : chart.series)
            out += ',' + field(s.name + " [" + chart.y.label + "]");
        out += '\n';
        for (std::size_t i = 0; i < chart.categories.size(); ++i) {
            out += field(chart.categories[i]);
            for (const Series &s : chart.series)
                out += ',' + (i < s.values.size() ? number(s.values[i]) : std::string());
            out += '\n';
        }
        return out;
    }
    out = "series,kind," + field(chart.x.label) + ',' + field(chart.y.label) + '\n';
    for (const Series &s : chart.series)
        for (std::size_t i = 0; i < s.values.size() && i < s.x.size(); ++i)
            out += field(s.name) + ',' + seriesKindName(s.kind) + ',' + number(s.x[i]) + ','
                   + number(s.values[i]) + '\n';
    return out;
}

std::string errorLabel(double predicted, double measured)
{
    if (!(measured > 0) || !std::isfinite(predicted))
        return {};
    const long percent = std::lround((predicted - measured) / measured * 100);
    char buf[32];
    std::snprintf(buf, sizeof buf, percent > 0 ? "+%ld %%" : "%ld %%", percent);
    return buf;
}

} // namespace clab::charts
