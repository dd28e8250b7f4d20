#pragma once

#include "schedule/allocators.h"
#include "schedule/resources.h"
#include "schedule/trace.h"

#include <functional>
#include <utility>
#include <vector>

namespace clab::schedule {

// A trace run on a design's GPUs in one of two ways (composelab schedule):
//  - Static: each host is a server with the GPUs composed to it now. A job fits on one server
//    (best fit: the one with the fewest free GPUs that suffice) or, larger than every server,
//    takes whole idle servers, largest first.
//  - Pool: a job gets a host and any free GPUs it can reach: the host's local ones first, then
//    GPUs of the chassis it is linked to, those composed to it already first. Composing a GPU
//    to another host holds the job for `recomposeS` before it runs. Larger than what one host
//    reaches, it spreads over hosts, the best-connected first.
// Policies: FIFO starts jobs in submission order and stops at the first that does not fit;
// backfill (EASY) also starts later jobs that fit now and do not delay the first waiting job's
// earliest start (estimated from GPU counts and the running jobs' ends), looking at up to
// `backfillDepth` waiting jobs (as Slurm's bf_max_job_test).
enum class Mode { Static, Pool };
enum class Policy { Fifo, Backfill };

struct Options
{
    Policy policy = Policy::Fifo;
    double recomposeS = 30; // seconds to compose GPUs to another host
    int backfillDepth = 100;
    // Backfill skips a job that would hold more GPUs at the first job's start than are left
    // over then, without trying the allocator (a necessary condition, so the same schedule);
    // false tries every one (tests compare the two).
    bool countPrune = true;
    // A job's run time where its GPUs ended up over the trace's duration (schedule/stretch.h);
    // none: durations as recorded.
    std::function<double(const Job &, const Holding &)> stretch;
};

struct Outcome
{
    int gpus = 0;           // of the whole design (both ways count against all of them)
    int jobs = 0;           // in the trace
    int neverFit = 0;       // could not run even on an empty system of this kind
    double utilisation = 0; // busy GPU-seconds / (gpus × first submission to last end)
    double meanWaitS = 0;   // submission to start of the run (recomposition included)
    double p95WaitS = 0;
    double meanJctS = 0;      // submission to end
    double fragmentation = 0; // GPU-seconds free while jobs wait / (gpus × span)
    int recompositions = 0;   // jobs that waited for GPUs to be composed to their host
    int stretched = 0;        // jobs whose run time the placement changed (factor not 1)
    double meanStretch = 1;   // run time over recorded duration, mean over the jobs that ran
    double minStretch = 1;    // of the jobs that ran (1 with none)
    double maxStretch = 1;
    double spanS = 0;                         // first submission to last end
    std::vector<std::pair<double, int>> busy; // (time, busy GPUs) after each event
    std::vector<double> waitsS;               // per job that ran, in trace order
};

Outcome simulate(const std::vector<Job> &jobs, const Resources &resources, Mode mode,
                 const Options &options);

const char *modeName(Mode mode);       // "static", "pool"
const char *policyName(Policy policy); // "fifo", "backfill"

} // namespace clab::schedule
