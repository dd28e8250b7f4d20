#include "schedule/simulate.h"

#include "schedule/allocators.h"
#include "util/stats.h"

#include <algorithm>
#include <list>
#include <numeric>
#include <queue>

namespace clab::schedule {

namespace {

struct Running
{
    double endS;
    int job;
    std::size_t holding;
    bool operator>(const Running &o) const { return endS > o.endS; }
};

class Simulation
{
public:
    Simulation(const std::vector<Job> &jobs, Allocator &alloc, const Options &o, int gpus)
        : m_jobs(jobs)
        , m_alloc(alloc)
        , m_o(o)
        , m_gpus(gpus)
        , m_start(jobs.size(), -1)
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
            double t = next < m_jobs.size() ? m_jobs[next].submitS : m_running.top().endS;
            if (!m_running.empty())
                t = std::min(t, m_running.top().endS);
            if (!m_queue.empty())
                fragIntegral += double(m_alloc.freeGpus()) * (t - last);
            last = t;
            while (!m_running.empty() && m_running.top().endS <= t) {
                m_alloc.give(m_holdings[m_running.top().holding]);
                m_asked -= m_jobs[std::size_t(m_running.top().job)].gpus;
                end = std::max(end, m_running.top().endS);
                m_running.pop();
            }
            while (next < m_jobs.size() && m_jobs[next].submitS <= t) {
                if (m_alloc.canEverFit(m_jobs[next].gpus))
                    m_queue.push_back(int(next));
                else
                    ++out.neverFit;
                ++next;
            }
            schedule(t, out);
            out.busy.emplace_back(t, m_asked);
        }
        out.spanS = end - (m_jobs.empty() ? 0 : m_jobs.front().submitS);
        double jct = 0, work = 0;
        int ran = 0;
        for (std::size_t j = 0; j < m_jobs.size(); ++j) {
            if (m_start[j] < 0)
                continue;
            out.waitsS.push_back(m_start[j] - m_jobs[j].submitS);
            jct += m_start[j] + m_jobs[j].durationS - m_jobs[j].submitS;
            work += m_jobs[j].gpus * m_jobs[j].durationS;
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
        }
        out.recompositions = m_recompositions;
        return out;
    }

private:
    bool tryStart(int job, double t)
    {
        Holding h;
        if (!m_alloc.take(m_jobs[std::size_t(job)].gpus, h))
            return false;
        const double run = t + (h.recomposed ? m_o.recomposeS : 0);
        m_recompositions += h.recomposed ? 1 : 0;
        m_asked += m_jobs[std::size_t(job)].gpus;
        m_start[std::size_t(job)] = run;
        m_holdings.push_back(std::move(h));
        m_running.push({run + m_jobs[std::size_t(job)].durationS, job, m_holdings.size() - 1});
        return true;
    }

    void schedule(double t, Outcome &)
    {
        while (!m_queue.empty() && tryStart(m_queue.front(), t))
            m_queue.pop_front();
        if (m_o.policy != Policy::Backfill || m_queue.empty())
            return;
        // EASY: the first waiting job's earliest start (the "shadow" time), from GPU counts.
        const int need = m_jobs[std::size_t(m_queue.front())].gpus;
        std::vector<std::pair<double, int>> ends;
        auto copy = m_running;
        while (!copy.empty()) {
            int n = 0;
            for (const auto &[s, k] : m_holdings[copy.top().holding].servers)
                n += k;
            for (const auto &[h, k] : m_holdings[copy.top().holding].local)
                n += k;
            for (const auto &[c, h, k] : m_holdings[copy.top().holding].composedTo)
                n += k;
            ends.emplace_back(copy.top().endS, n);
            copy.pop();
        }
        int free = m_alloc.freeGpus();
        double shadow = t;
        for (const auto &[e, n] : ends) {
            if (free >= need)
                break;
            free += n;
            shadow = e;
        }
        int extra = std::max(0, free - need);
        int looked = 0;
        for (auto it = std::next(m_queue.begin());
             it != m_queue.end() && looked < m_o.backfillDepth; ++looked) {
            const Job &j = m_jobs[std::size_t(*it)];
            const bool endsInTime = t + m_o.recomposeS + j.durationS <= shadow;
            if ((endsInTime || j.gpus <= extra) && tryStart(*it, t)) {
                if (!endsInTime)
                    extra -= j.gpus;
                it = m_queue.erase(it);
            } else {
                ++it;
            }
        }
    }

    const std::vector<Job> &m_jobs;
    Allocator &m_alloc;
    Options m_o;
    int m_gpus;
    std::vector<double> m_start;
    std::list<int> m_queue;
    std::vector<Holding> m_holdings;
    std::priority_queue<Running, std::vector<Running>, std::greater<>> m_running;
    int m_recompositions = 0;
    int m_asked = 0; // GPUs the running jobs asked for (a job holding whole servers may hold more)
};

} // namespace

Outcome simulate(const std::vector<Job> &jobs, const Resources &resources, Mode mode,
                 const Options &options)
{
    const auto alloc = mode == Mode::Static ? staticServers(resources) : composablePool(resources);
    Simulation sim(jobs, *alloc, options, resources.totalGpus());
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
