#include "schedule/trace.h"

#include "util/csv.h"
#include "util/inputerror.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace clab::schedule {

namespace {

int columnOf(const CsvTable &t, std::string_view name)
{
    const auto &h = t.header();
    return int(std::find(h.begin(), h.end(), name) - h.begin()) + 1;
}

std::string placeOf(const CsvTable &t, std::size_t row, std::string_view column)
{
    return "line " + std::to_string(t.lineOf(row)) + ", column "
           + std::to_string(columnOf(t, column)) + " (" + std::string(column) + ")";
}

double seconds(const CsvTable &t, std::size_t row, std::string_view column)
{
    const std::string &text = t.field(row, column);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
        throw InputError(t.fileName(), placeOf(t, row, column),
                         "expected a time in seconds of 0 or more, got \"" + text + "\"");
    return v;
}

} // namespace

std::vector<Job> readTrace(std::string_view text, const std::string &file, int maxGpus)
{
    const CsvTable t = CsvTable::parse(text, file);
    for (const char *column : {"submit_s", "gpus", "duration_s"}) {
        if (!t.hasColumn(column))
            throw InputError(file, "line 1",
                             std::string("no column \"") + column
                                 + "\"; a trace needs the header submit_s,gpus,duration_s "
                                   "(benchmark and user optional)");
    }
    std::vector<Job> jobs;
    jobs.reserve(t.rowCount());
    for (std::size_t row = 0; row < t.rowCount(); ++row) {
        Job j;
        j.line = t.lineOf(row);
        j.submitS = seconds(t, row, "submit_s");
        j.durationS = seconds(t, row, "duration_s");
        const std::string &g = t.field(row, "gpus");
        const auto [end, ec] = std::from_chars(g.data(), g.data() + g.size(), j.gpus);
        if (ec != std::errc() || end != g.data() + g.size() || j.gpus < 1 || j.gpus > maxGpus)
            throw InputError(file, placeOf(t, row, "gpus"),
                             "expected a whole number of GPUs from 1 to the design's "
                                 + std::to_string(maxGpus) + ", got \"" + g + "\"");
        j.benchmark = t.field(row, "benchmark");
        j.user = t.field(row, "user");
        jobs.push_back(std::move(j));
    }
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const Job &a, const Job &b) { return a.submitS < b.submitS; });
    return jobs;
}

} // namespace clab::schedule
