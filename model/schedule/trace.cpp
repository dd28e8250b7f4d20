#include "schedule/trace.h"

#include "util/csv.h"
#include "util/inputerror.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

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

// Times beyond this (about 317 years) are refused: sums of them would overflow the span.
constexpr double kMaxSeconds = 1e10;

double seconds(const CsvTable &t, std::size_t row, std::string_view column)
{
    const std::string &text = t.field(row, column);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0
        || v > kMaxSeconds)
        throw InputError(t.fileName(), placeOf(t, row, column),
                         "expected a time in seconds from 0 to 1e10, got \"" + text + "\"");
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

PaiImport readPaiTaskTable(std::string_view text, const std::string &file, int maxGpus)
{
    static const char *const kColumns[]
        = {"job_name", "task_name", "inst_num", "status",   "start_time",
           "end_time", "plan_cpu",  "plan_mem", "plan_gpu", "gpu_type"};
    std::string withHeader;
    if (text.substr(0, 9) != "job_name,") { // the published files come without their header
        for (const char *c : kColumns)
            withHeader += std::string(withHeader.empty() ? "" : ",") + c;
        withHeader += "\n";
    }
    const bool added = !withHeader.empty();
    withHeader += text;
    const CsvTable t = CsvTable::parse(withHeader, file);
    for (const char *column :
         {"job_name", "inst_num", "status", "start_time", "end_time", "plan_gpu"}) {
        if (!t.hasColumn(column))
            throw InputError(file, "line 1", std::string("no column \"") + column + "\"");
    }
    auto number = [&](std::size_t row, std::string_view column, bool emptyIsZero) {
        const std::string &v = t.field(row, column);
        if (v.empty() && emptyIsZero)
            return 0.0;
        double d = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
        if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(d) || d < 0
            || d > kMaxSeconds)
            throw InputError(file,
                             "line " + std::to_string(t.lineOf(row) - (added ? 1 : 0)) + ", column "
                                 + std::to_string(columnOf(t, column)) + " (" + std::string(column)
                                 + ")",
                             "expected a number from 0 to 1e10, got \"" + v + "\"");
        return d;
    };
    struct Acc
    {
        double gpus = 0, start = 0, end = 0;
        bool finished = true, seen = false;
        int line = 0;
    };
    std::map<std::string, Acc> byJob;
    std::vector<std::string> order;
    for (std::size_t row = 0; row < t.rowCount(); ++row) {
        const std::string &name = t.field(row, "job_name");
        Acc &a = byJob[name];
        if (!a.seen)
            order.push_back(name);
        if (t.field(row, "status") != "Terminated") { // running, failed or waiting: no times
            a.finished = false;
            a.seen = true;
            continue;
        }
        const double start = number(row, "start_time", false), end = number(row, "end_time", true);
        a.gpus += number(row, "inst_num", true) * number(row, "plan_gpu", true) / 100;
        a.start = a.seen ? std::min(a.start, start) : start;
        a.end = std::max(a.end, end);
        a.line = a.seen ? a.line : t.lineOf(row) - (added ? 1 : 0);
        a.seen = true;
    }
    PaiImport out;
    for (const std::string &name : order) {
        const Acc &a = byJob[name];
        const double gpus = std::ceil(a.gpus - 1e-9); // compared as a double: no overflow
        if (!a.finished || a.end < a.start) {
            ++out.notFinished;
        } else if (gpus <= 0) {
            ++out.withoutGpus;
        } else if (gpus > maxGpus) {
            ++out.tooLarge;
        } else {
            out.jobs.push_back({a.start, int(gpus), a.end - a.start, {}, {}, a.line});
        }
    }
    std::stable_sort(out.jobs.begin(), out.jobs.end(),
                     [](const Job &a, const Job &b) { return a.submitS < b.submitS; });
    if (!out.jobs.empty()) {
        const double first = out.jobs.front().submitS;
        for (Job &j : out.jobs)
            j.submitS -= first;
    }
    return out;
}

} // namespace clab::schedule
