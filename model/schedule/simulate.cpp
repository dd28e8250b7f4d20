#include "schedule/simulate.h"

#include "schedule/allocators.h"
#include "util/stats.h"

#include <algorithm>
#include <limits>
#include <list>
#include <numeric>

namespace clab::schedule {

namespace {

struct Running
{
    double endS;
    int job;
    std::size_t holding;
    // Later end first: the soonest end is at the back of the sorted list.
    bool operator<(const Running &o) const
    {
        return endS != o.endS ? endS > o.endS : holding > o.holding;
    }
};

class Simulation
{
public:
    Simulation(const std::vector<Job> &jobs, Allocator &alloc, const Options &o, int gpus,
               bool pool)
        : m_jobs(jobs)
        , m_alloc(alloc)
        , m_o(o)
        , m_gpus(gpus)
        , m_pool(pool)
        , m_start(jobs.size(), -1)
        , m_duration(jobs.size(), 0)
    {
    }

    Outcome run()
    {
        Outcome out;
        out.gpus = m_gpus;
        out.jobs = int(m_jobs.size());
        std::size_t next = 0;
        double last = m_jobs.empty() ? 0 : m_jobs.front().submitS, fragIntegral = 0, end = last;
        while (next < m_jobs.size() || !m_running.empty()) {
            double t = next < m_jobs.size() ? m_jobs[next].submitS : m_running.back().endS;
            if (!m_running.empty())
                t = std::min(t, m_running.back().endS);
            if (!m_queue.empty())
                fragIntegral += double(m_alloc.freeGpus()) * (t - last);
            last = t;
            while (!m_running.empty() && m_running.back().endS <= t) {
                m_alloc.give(m_holdings[m_running.back().holding]);
                m_asked -= m_jobs[std::size_t(m_running.back().job)].gpus;
                end = std::max(end, m_running.back().endS);
                m_running.pop_back();
            }
            while (next < m_jobs.size() && m_jobs[next].submitS <= t) {
                if (m_alloc.canEverFit(m_jobs[next].gpus))
                    m_queue.push_back(int(next));
                else
                    ++out.neverFit;
                ++next;
            }
            schedule(t);
            out.busy.emplace_back(t, m_asked);
        }
        out.spanS = end - (m_jobs.empty() ? 0 : m_jobs.front().submitS);
        double jct = 0, work = 0, stretch = 0;
        int ran = 0;
        for (std::size_t j = 0; j < m_jobs.size(); ++j) {
            if (m_start[j] < 0)
                continue;
            out.waitsS.push_back(m_start[j] - m_jobs[j].submitS);
            jct += m_start[j] + m_duration[j] - m_jobs[j].submitS;
            work += m_jobs[j].gpus * m_duration[j];
            const double f = m_jobs[j].durationS > 0 ? m_duration[j] / m_jobs[j].durationS : 1;
            stretch += f;
            out.minStretch = ran == 0 ? f : std::min(out.minStretch, f);
            out.maxStretch = ran == 0 ? f : std::max(out.maxStretch, f);
            out.stretched += f != 1;
            ++ran;
        }
        if (out.spanS > 0 && m_gpus > 0) {
            out.utilisation = work / (double(m_gpus) * out.spanS);
            out.fragmentation = fragIntegral / (double(m_gpus) * out.spanS);
        }
        if (ran > 0) {
            std::vector<double> sorted = out.waitsS;
            std::sort(sorted.begin(), sorted.end());
            out.meanWaitS = std::accumulate(sorted.begin(), sorted.end(), 0.0) / ran;
            out.p95WaitS = quantileOfSorted(sorted, 0.95);
            out.meanJctS = jct / ran;
            out.meanStretch = stretch / ran;
        }
        out.recompositions = m_recompositions;
        return out;
    }

private:
    // How long the job runs on what `take` gave it.
    double durationOn(int job, const Holding &h) const
    {
        const Job &j = m_jobs[std::size_t(job)];
        return m_o.stretch ? j.durationS * m_o.stretch(j, h) : j.durationS;
    }

    // Starts a job on what `take` gave it, for `duration`.
    void commit(int job, double t, Holding h, double duration)
    {
        const double run = t + (h.recomposed ? m_o.recomposeS : 0);
        m_recompositions += h.recomposed ? 1 : 0;
        m_asked += m_jobs[std::size_t(job)].gpus;
        m_start[std::size_t(job)] = run;
        m_duration[std::size_t(job)] = duration;
        m_holdings.push_back(std::move(h));
        const Running r{run + duration, job, m_holdings.size() - 1};
        m_running.insert(std::upper_bound(m_running.begin(), m_running.end(), r), r);
    }

    bool tryStart(int job, double t)
    {
        Holding h;
        if (!m_alloc.take(m_jobs[std::size_t(job)].gpus, h))
            return false;
        const double duration = durationOn(job, h);
        commit(job, t, std::move(h), duration);
        return true;
    }

    // Whether `gpus` fit by time `when` on a copy of now, the running jobs that end by then gone.
    bool fitsBy(int gpus, double when,
                const std::vector<std::pair<double, std::size_t>> &ends) const
    {
        const auto future = m_alloc.clone();
        for (const auto &[end, holding] : ends) {
            if (end > when)
                break;
            future->give(m_holdings[holding]);
        }
        Holding probe;
        return future->take(gpus, probe);
    }

    void schedule(double t)
    {
        while (!m_queue.empty() && tryStart(m_queue.front(), t))
            m_queue.pop_front();
        if (m_o.policy != Policy::Backfill || m_queue.empty())
            return;
        // EASY: the first waiting job's earliest start (the "shadow" time), found by releasing
        // the running jobs in the order they end on a copy of the allocator, so that the
        // servers' or hosts' shapes count, not only GPU numbers.
        const int need = m_jobs[std::size_t(m_queue.front())].gpus;
        std::vector<std::pair<double, std::size_t>> ends; // (end, holding), ascending
        ends.reserve(m_running.size());
        for (auto r = m_running.rbegin(); r != m_running.rend(); ++r)
            ends.emplace_back(r->endS, r->holding);
        double shadow = std::numeric_limits<double>::infinity();
        // GPUs free at the shadow time beyond what the first job takes then: a job that runs
        // past it and holds more cannot leave the first job room, whatever the shapes.
        int extra = 0;
        {
            const auto future = m_alloc.clone(); // a failed take leaves it as it was
            Holding probe;
            std::size_t i = 0;
            for (; i < ends.size(); ++i) {
                future->give(m_holdings[ends[i].second]);
                // Too few GPUs by count: no shape can fit, skip the costly take.
                if (future->freeGpus() >= need && future->take(need, probe)) {
                    shadow = ends[i].first;
                    future->undo(probe); // it may hold more than it asked for (whole servers)
                    break;
                }
            }
            for (++i; i < ends.size() && ends[i].first <= shadow; ++i)
                future->give(m_holdings[ends[i].second]);
            extra = future->freeGpus() - need;
        }
        // Static servers never recompose; in the pool a job may have to.
        const double allowance = m_pool ? m_o.recomposeS : 0;
        int looked = 0;
        for (auto it = std::next(m_queue.begin());
             it != m_queue.end() && looked < m_o.backfillDepth; ++looked) {
            const Job &j = m_jobs[std::size_t(*it)];
            // Sure to run past the shadow time (its recorded duration, nothing stretching it,
            // no recomposition) and to hold more than the extra GPUs: skip it without trying
            // the allocator.
            if (m_o.countPrune && !m_o.stretch && j.gpus > extra && t + j.durationS > shadow) {
                ++it;
                continue;
            }
            const int freeBefore = m_alloc.freeGpus();
            Holding h;
            if (!m_alloc.take(j.gpus, h)) {
                ++it;
                continue;
            }
            const int held = freeBefore - m_alloc.freeGpus();
            const double duration = durationOn(*it, h);
            const bool endsInTime = t + allowance + duration <= shadow;
            // Running past the shadow time, it may start only if the first job still fits then.
            if (!endsInTime && ((m_o.countPrune && held > extra) || !fitsBy(need, shadow, ends))) {
                m_alloc.undo(h);
                ++it;
                continue;
            }
            commit(*it, t, std::move(h), duration);
            const std::pair<double, std::size_t> entry{m_start[std::size_t(*it)] + duration,
                                                       m_holdings.size() - 1};
            if (entry.first > shadow) // still holding its GPUs then (it did not recompose)
                extra -= held;
            ends.insert(std::upper_bound(ends.begin(), ends.end(), entry), entry);
            it = m_queue.erase(it);
        }
    }

    const std::vector<Job> &m_jobs;
    Allocator &m_alloc;
    Options m_o;
    int m_gpus;
    bool m_pool;
    std::vector<double> m_start;
    std::vector<double> m_duration; // run time of each job that started
    std::list<int> m_queue;
    std::vector<Holding> m_holdings;
    // Sorted, the soonest end at the back: popped in order, read in order for the shadow time
    // (a few hundred jobs: an insertion moves less than a heap copy and sort would).
    std::vector<Running> m_running;
    int m_recompositions = 0;
    int m_asked = 0; // GPUs the running jobs asked for (a job holding whole servers may hold more)
};

} // namespace

Outcome simulate(const std::vector<Job> &jobs, const Resources &resources, Mode mode,
                 const Options &options)
{
    const auto alloc = mode == Mode::Static ? staticServers(resources) : composablePool(resources);
    Simulation sim(jobs, *alloc, options, resources.totalGpus(), mode == Mode::Pool);
    return sim.run();
}

const char *modeName(Mode mode)
{
    return mode == Mode::Static ? "static" : "pool";
}

const char *policyName(Policy policy)
{
    return policy == Policy::Fifo ? "fifo" : "backfill";
}

} // namespace clab::schedule
