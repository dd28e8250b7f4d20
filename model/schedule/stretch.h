#pragma once

#include "schedule/allocators.h"
#include "schedule/simulate.h"
#include "schedule/trace.h"

#include <map>
#include <string>
#include <vector>

namespace clab::catalog {
class Catalog;
}
namespace clab::design {
struct Design;
}
namespace clab::workload {
struct Workload;
}
namespace clab::perf {
struct Platform;
}

namespace clab::schedule {

// How much longer (or shorter) a job runs where its GPUs end up than where its trace measured
// it, from the performance model (composelab schedule; model/perf/MODEL.md).
//
// Where it was measured: ceil(n / 8) dedicated local PCIe servers sharing the job's n GPUs
// evenly, of the GPU model it gets and its host's processors, joined by one 200 Gb/s HDR port
// per GPU (perf::nodeDesign's default; GPUs split over the two sockets' PCIe trees). Where it
// runs: the design itself, the job's GPUs composed to its host as one system with the host's
// drives and NICs (other systems lose those GPUs and count as they are in the design, busy or
// not), so a shared chassis uplink, a socket crossing or a second chassis changes the step time
// through the term it affects. Spread over hosts, ceil(n / its largest part) copies of the
// host holding that part stand for it; hosts without a NIC get the reference's network per GPU.
// The factor is the ratio of the two step times, every GPU at the same local batch (of the
// default global batch for n GPUs). It is below 1 where the design's fabric beats the
// reference's, e.g. GPUs behind one chassis switch against a server's socket-split tree.
//
// A job is stretched when its benchmark (or, naming none, `defaultBenchmark`) is a workload of
// the built-in library; else its factor is 1. Which GPUs of a chassis a job gets is not tracked:
// those composed to its host in the design stand for them first, then uncomposed ones, then
// others. Factors are cached by benchmark and placement, so a long trace costs a model run per
// distinct placement.
class Stretcher
{
public:
    Stretcher(const design::Design &design, const Resources &resources,
              const catalog::Catalog &catalog, std::string defaultBenchmark = {});
    double factor(const Job &job, const Holding &holding);
    // The workload a benchmark name (id or MLPerf alias) stands for; nullptr for none.
    static const workload::Workload *workloadOf(const std::string &benchmark);

private:
    // The job's GPUs by host index, in the order they were taken.
    std::map<int, std::vector<std::string>> placement(const Job &job, const Holding &h) const;
    double stepS(const workload::Workload &w, int globalBatch, int host,
                 const std::vector<std::string> &ids, int nodes, const perf::Platform &reference);

    const design::Design &m_design;
    const Resources &m_r;
    const catalog::Catalog &m_catalog;
    std::string m_default;
    std::map<std::string, double> m_cache; // by benchmark and placement
};

// Throws InputError naming `file`, the job's line and the benchmark column when a job names a
// benchmark the built-in library does not know; the message lists those it knows.
void checkBenchmarks(const std::vector<Job> &jobs, const std::string &file);
// The built-in library's benchmark ids, comma-separated, for messages.
std::string knownBenchmarks();

// A trace run both ways on a design, as composelab schedule and the Scheduling dock show it:
// with `stretch`, jobs naming a benchmark (checked: checkBenchmarks, naming `file`), or every job
// with `defaultBenchmark`, run for the model's time where their GPUs end up.
struct BothWays
{
    Outcome fixed; // static servers
    Outcome pool;
};
BothWays runBothWays(const std::vector<Job> &jobs, const design::Design &design,
                     const Resources &resources, const Options &options, bool stretch,
                     const std::string &defaultBenchmark, const std::string &file);

} // namespace clab::schedule
