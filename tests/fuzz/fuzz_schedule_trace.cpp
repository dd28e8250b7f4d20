// Job traces (`composelab schedule`, both formats): bad input gives an InputError; a trace that
// reads runs on a small pool both ways without a negative wait, a job lost, or a utilisation
// above 1.
#include "fuzzcommon.h"

#include "schedule/simulate.h"
#include "schedule/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clab;
    using namespace clab::schedule;
    if (size == 0)
        return 0;
    // The first byte picks the format; the rest is the file.
    const bool pai = data[0] & 1;
    const std::string_view file = fuzz::text(data + 1, size - 1);
    std::vector<Job> jobs;
    try {
        jobs = pai ? readPaiTaskTable(file, "fuzz.csv", 6).jobs : readTrace(file, "fuzz.csv", 6);
    } catch (const InputError &) {
        return 0;
    }
    Resources r;
    r.hosts = {"h0", "h1"};
    r.chassis = {"c0"};
    r.localGpus = {1, 0};
    r.pooledGpus = {5};
    r.composed = {{2, 1}};
    r.reachable = {{0}, {0}};
    for (Mode mode : {Mode::Static, Mode::Pool}) {
        for (Policy policy : {Policy::Fifo, Policy::Backfill}) {
            Options o;
            o.policy = policy;
            const Outcome out = simulate(jobs, r, mode, o);
            fuzz::require(out.neverFit + int(out.waitsS.size()) == int(jobs.size()),
                          "every job either runs or never fits");
            for (double w : out.waitsS)
                fuzz::require(w >= 0, "no negative wait");
            fuzz::require(out.utilisation <= 1 + 1e-9, "utilisation at most 1");
        }
    }
    return 0;
}
