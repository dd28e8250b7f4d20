#include "schedule/trace.h"

#include "util/csv.h"
#include "util/inputerror.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

namespace clab::schedule {

namespace {

// The columns of a header row, found by name; a reader of a large file keeps one row at a time.
class Columns
{
public:
    explicit Columns(std::vector<std::string> names)
        : m_names(std::move(names))
    {
    }
    bool has(std::string_view name) const { return index(name) >= 0; }
    // The field of `record` under `name`; empty when the column is absent or the row is short.
    const std::string &field(const std::vector<std::string> &record, std::string_view name) const
    {
        static const std::string empty;
        const int i = index(name);
        return i >= 0 && std::size_t(i) < record.size() ? record[std::size_t(i)] : empty;
    }
    std::string place(int line, std::string_view name) const
    {
        return "line " + std::to_string(line) + ", column " + std::to_string(index(name) + 1) + " ("
               + std::string(name) + ")";
    }

private:
    int index(std::string_view name) const
    {
        const auto it = std::find(m_names.begin(), m_names.end(), name);
        return it == m_names.end() ? -1 : int(it - m_names.begin());
    }
    std::vector<std::string> m_names;
};

// Times beyond this (about 317 years) are refused: sums of them would overflow the span.
constexpr double kMaxSeconds = 1e10;

// A number from 0 to 1e10 in `column` of the reader's current row, or throws naming the place.
double number(const CsvReader &r, const Columns &c, std::string_view column, const char *what)
{
    const std::string &text = c.field(r.record(), column);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0
        || v > kMaxSeconds)
        throw InputError(r.fileName(), c.place(r.line(), column),
                         std::string("expected ") + what + " from 0 to 1e10, got \"" + text + "\"");
    return v;
}

void sortBySubmission(std::vector<Job> &jobs)
{
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const Job &a, const Job &b) { return a.submitS < b.submitS; });
}

} // namespace

std::vector<Job> readTrace(std::string_view text, const std::string &file, int maxGpus)
{
    CsvReader r(text, file);
    if (!r.next())
        throw InputError(file, "line 1", "empty file, expected a header row");
    const Columns c(r.record());
    for (const char *column : {"submit_s", "gpus", "duration_s"}) {
        if (!c.has(column))
            throw InputError(file, "line 1",
                             std::string("no column \"") + column
                                 + "\"; a trace needs the header submit_s,gpus,duration_s "
                                   "(benchmark and user optional)");
    }
    std::vector<Job> jobs;
    while (r.next()) {
        Job j;
        j.line = r.line();
        j.submitS = number(r, c, "submit_s", "a time in seconds");
        j.durationS = number(r, c, "duration_s", "a time in seconds");
        const std::string &g = c.field(r.record(), "gpus");
        const auto [end, ec] = std::from_chars(g.data(), g.data() + g.size(), j.gpus);
        if (ec != std::errc() || end != g.data() + g.size() || j.gpus < 1 || j.gpus > maxGpus)
            throw InputError(file, c.place(r.line(), "gpus"),
                             "expected a whole number of GPUs from 1 to the design's "
                                 + std::to_string(maxGpus) + ", got \"" + g + "\"");
        j.benchmark = c.field(r.record(), "benchmark");
        j.user = c.field(r.record(), "user");
        jobs.push_back(std::move(j));
    }
    sortBySubmission(jobs);
    return jobs;
}

PaiImport readPaiTaskTable(std::string_view text, const std::string &file, int maxGpus)
{
    CsvReader r(text, file);
    if (!r.next())
        throw InputError(file, "line 1", "empty file, expected a header row or a task");
    // The published files come without their header line; a first row that is not the header
    // is a task.
    const bool hasHeader = !r.record().empty() && r.record().front() == "job_name";
    const Columns c(hasHeader ? r.record()
                              : std::vector<std::string>{
                                  "job_name", "task_name", "inst_num", "status", "start_time",
                                  "end_time", "plan_cpu", "plan_mem", "plan_gpu", "gpu_type"});
    for (const char *column :
         {"job_name", "inst_num", "status", "start_time", "end_time", "plan_gpu"}) {
        if (!c.has(column))
            throw InputError(file, "line 1", std::string("no column \"") + column + "\"");
    }
    auto optional = [&](std::string_view column) {
        return c.field(r.record(), column).empty() ? 0.0 : number(r, c, column, "a number");
    };
    struct Acc
    {
        double gpus = 0, start = 0, end = 0;
        bool finished = true, seen = false;
        int line = 0;
    };
    // Jobs in order of first appearance; the map holds each name once, not the whole table.
    std::unordered_map<std::string, std::size_t> index;
    std::vector<Acc> byJob;
    for (bool row = !hasHeader || r.next(); row; row = r.next()) {
        const auto [it, added] = index.try_emplace(c.field(r.record(), "job_name"), byJob.size());
        if (added)
            byJob.emplace_back();
        Acc &a = byJob[it->second];
        if (c.field(r.record(), "status") != "Terminated") { // running, failed or waiting
            a.finished = false;
            a.seen = true;
            continue;
        }
        const double start = number(r, c, "start_time", "a number");
        const double end = optional("end_time");
        a.gpus += optional("inst_num") * optional("plan_gpu") / 100;
        a.start = a.seen ? std::min(a.start, start) : start;
        a.end = std::max(a.end, end);
        a.line = a.seen ? a.line : r.line();
        a.seen = true;
    }
    index = {};
    PaiImport out;
    for (const Acc &a : byJob) {
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
    sortBySubmission(out.jobs);
    if (!out.jobs.empty()) {
        const double first = out.jobs.front().submitS;
        for (Job &j : out.jobs)
            j.submitS -= first;
    }
    return out;
}

} // namespace clab::schedule
