#include "schedule/generate.h"

#include "cluster/splitmix.h"
#include "util/embedded.h"
#include "util/jsonreader.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace clab::schedule {

namespace {

constexpr const char *kFile = "datasets/helios_jobs.json";
constexpr double kDay = 86400, kHour = 3600;

struct Cdf
{
    std::vector<double> x;       // values, rising
    std::vector<double> percent; // cumulative, rising to 100
};

const Json &data()
{
    static const Json j = parseJson(embeddedText(kFile), kFile);
    return j;
}

Cdf cdfOf(const Json &table, const char *xKey, const std::string &cluster)
{
    Cdf c;
    c.x = table.at(xKey).get<std::vector<double>>();
    c.percent = table.at("cdf").at(cluster).get<std::vector<double>>();
    if (c.x.size() != c.percent.size() || c.percent.empty()
        || !std::is_sorted(c.percent.begin(), c.percent.end()) || c.percent.back() != 100)
        throw std::logic_error(std::string(kFile) + ": " + xKey + " of " + cluster
                               + " must rise to 100");
    return c;
}

// A job size: the first bucket whose cumulative share reaches u, among those up to maxGpus.
int drawSize(const Cdf &c, double u, int maxGpus)
{
    std::size_t last = 0;
    while (last + 1 < c.x.size() && c.x[last + 1] <= maxGpus)
        ++last;
    const double top = c.percent[last];
    for (std::size_t i = 0; i <= last; ++i) {
        if (u * top <= c.percent[i])
            return int(c.x[i]);
    }
    return int(c.x[last]);
}

// A duration: log-linear between the CDF's points, at least its first point.
double drawDuration(const Cdf &c, double u)
{
    const double p = u * 100;
    if (p <= c.percent.front())
        return c.x.front();
    for (std::size_t i = 1; i < c.x.size(); ++i) {
        if (p <= c.percent[i]) {
            const double span = c.percent[i] - c.percent[i - 1];
            const double f = span > 0 ? (p - c.percent[i - 1]) / span : 1;
            return std::exp2(std::log2(c.x[i - 1])
                             + f * (std::log2(c.x[i]) - std::log2(c.x[i - 1])));
        }
    }
    return c.x.back();
}

} // namespace

std::vector<std::string> traceClusters()
{
    std::vector<std::string> out;
    for (const auto &[name, v] : data().at("sizes").at("cdf").items())
        out.push_back(name);
    return out;
}

std::vector<Job> generateTrace(const TraceSpec &s)
{
    const auto known = traceClusters();
    if (std::find(known.begin(), known.end(), s.cluster) == known.end())
        throw std::invalid_argument("cluster: unknown \"" + s.cluster + "\"");
    if (s.totalGpus < 1)
        throw std::invalid_argument("GPUs: the design has none");
    if (s.jobs < 1 || s.jobs > 10'000'000)
        throw std::invalid_argument("jobs: from 1 to 10,000,000");
    if (!(s.load > 0 && s.load <= 100))
        throw std::invalid_argument("load: more than 0, at most 100");
    const int maxGpus = std::clamp(s.maxGpus > 0 ? s.maxGpus : s.totalGpus, 1, s.totalGpus);
    const Cdf sizes = cdfOf(data().at("sizes"), "gpus", s.cluster);
    const Cdf durations = cdfOf(data().at("durations"), "seconds", s.cluster);
    cluster::SplitMix rng{s.seed};
    std::vector<Job> jobs(std::size_t(s.jobs));
    double work = 0;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        Job &j = jobs[i];
        j.gpus = drawSize(sizes, rng.uniform(), maxGpus);
        j.durationS = std::round(drawDuration(durations, rng.uniform()));
        if (!s.benchmarks.empty())
            j.benchmark = s.benchmarks[rng.below(s.benchmarks.size())];
        j.line = int(i) + 2;
        work += j.gpus * j.durationS;
    }
    // Poisson arrivals at the rate that offers `load` of the GPUs; with the day's shape, the
    // hour's rate is the mean rate times that hour's share (thinning against the busiest hour).
    const double rate = s.load * s.totalGpus * double(jobs.size()) / work; // jobs per second
    std::vector<double> shape(24, 1.0);
    if (s.diurnal) {
        shape = data().at("hourly_arrivals").get<std::vector<double>>();
        const double mean = std::accumulate(shape.begin(), shape.end(), 0.0) / 24;
        for (double &h : shape)
            h /= mean;
    }
    const double peak = *std::max_element(shape.begin(), shape.end());
    // The trace starts at a random time of day (times count from midnight of its first day), so
    // a trace shorter than a day is not always its quiet night; whole days offer the load.
    double t = s.diurnal ? rng.uniform() * kDay : 0;
    for (Job &j : jobs) {
        do {
            t += -std::log1p(-rng.uniform()) / (rate * peak);
        } while (rng.uniform() * peak > shape[std::size_t(std::fmod(t, kDay) / kHour)]);
        j.submitS = std::round(t * 10) / 10;
    }
    return jobs;
}

std::string traceCsv(const std::vector<Job> &jobs)
{
    const bool named
        = std::any_of(jobs.begin(), jobs.end(), [](const Job &j) { return !j.benchmark.empty(); });
    std::ostringstream out;
    out.precision(15); // submission times to the tenth of a second, however late
    out << (named ? "submit_s,gpus,duration_s,benchmark\n" : "submit_s,gpus,duration_s\n");
    for (const Job &j : jobs) {
        out << j.submitS << ',' << j.gpus << ',' << j.durationS;
        if (named)
            out << ',' << j.benchmark;
        out << '\n';
    }
    return out.str();
}

} // namespace clab::schedule
