#include "schedule/allocators.h"

#include <algorithm>
#include <numeric>

namespace clab::schedule {

namespace {

class StaticServers : public Allocator
{
public:
    explicit StaticServers(const Resources &r)
        : m_size(r.serverGpus())
        , m_idle(m_size)
    {
        m_free = std::accumulate(m_size.begin(), m_size.end(), 0);
        m_largest = m_size.empty() ? 0 : *std::max_element(m_size.begin(), m_size.end());
        m_total = m_free;
    }
    bool canEverFit(int gpus) const override { return gpus <= m_total; }
    bool take(int gpus, Holding &out) override
    {
        if (gpus > m_free)
            return false;
        if (gpus <= m_largest) {
            int best = -1;
            for (int s = 0; s < int(m_idle.size()); ++s) {
                if (m_idle[std::size_t(s)] >= gpus
                    && (best < 0 || m_idle[std::size_t(s)] < m_idle[std::size_t(best)]))
                    best = s;
            }
            if (best < 0)
                return false;
            hold(out, best, gpus);
            return true;
        }
        // Whole idle servers, largest first.
        std::vector<int> idle;
        for (int s = 0; s < int(m_size.size()); ++s) {
            if (m_size[std::size_t(s)] > 0 && m_idle[std::size_t(s)] == m_size[std::size_t(s)])
                idle.push_back(s);
        }
        std::stable_sort(idle.begin(), idle.end(), [&](int a, int b) {
            return m_size[std::size_t(a)] > m_size[std::size_t(b)];
        });
        int got = 0;
        std::size_t n = 0;
        while (n < idle.size() && got < gpus)
            got += m_size[std::size_t(idle[n++])];
        if (got < gpus)
            return false;
        for (std::size_t i = 0; i < n; ++i)
            hold(out, idle[i], m_size[std::size_t(idle[i])]);
        return true;
    }
    std::unique_ptr<Allocator> clone() const override
    {
        return std::make_unique<StaticServers>(*this);
    }
    void undo(const Holding &h) override { give(h); }
    void give(const Holding &h) override
    {
        for (const auto &[s, n] : h.servers) {
            m_idle[std::size_t(s)] += n;
            m_free += n;
        }
    }

private:
    void hold(Holding &out, int server, int n)
    {
        out.servers.emplace_back(server, n);
        m_idle[std::size_t(server)] -= n;
        m_free -= n;
    }
    std::vector<int> m_size, m_idle;
    int m_largest = 0, m_total = 0;
};

class ComposablePool : public Allocator
{
public:
    explicit ComposablePool(const Resources &r)
        : m_reach(r.reachable)
        , m_local(r.localGpus)
        , m_composed(r.composed)
    {
        const std::size_t chassis = r.pooledGpus.size();
        m_uncomposed.assign(chassis, 0);
        m_chassisFree.assign(chassis, 0);
        std::vector<char> reached(chassis, 0);
        for (const auto &list : m_reach) {
            for (int c : list)
                reached[std::size_t(c)] = 1;
        }
        for (std::size_t c = 0; c < chassis; ++c) {
            const int composed = std::accumulate(m_composed[c].begin(), m_composed[c].end(), 0);
            m_uncomposed[c] = r.pooledGpus[c] - composed;
            m_chassisFree[c] = r.pooledGpus[c];
            if (reached[c])
                m_free += r.pooledGpus[c];
        }
        m_free += std::accumulate(m_local.begin(), m_local.end(), 0);
        m_total = m_free;
    }
    bool canEverFit(int gpus) const override { return gpus <= m_total; }
    bool take(int gpus, Holding &out) override
    {
        if (gpus > m_free)
            return false;
        // One host: the one that reaches the fewest free GPUs that suffice; of those, the one
        // with the most free GPUs composed to it already (fewer to recompose).
        int best = -1, bestReach = 0, bestReady = 0;
        for (int h = 0; h < int(m_local.size()); ++h) {
            const int reach = reachOf(h);
            if (reach < gpus)
                continue;
            const int ready = readyOf(h);
            if (best < 0 || reach < bestReach || (reach == bestReach && ready > bestReady)) {
                best = h;
                bestReach = reach;
                bestReady = ready;
            }
        }
        if (best >= 0) {
            takeAt(best, gpus, out);
            return true;
        }
        // Several hosts, those that reach most first (chassis GPUs counted where taken).
        std::vector<int> order(m_local.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return reachOf(a) > reachOf(b); });
        int left = gpus;
        Holding trial;
        for (int h : order) {
            if (left == 0)
                break;
            const int n = std::min(left, reachOf(h));
            if (n > 0) {
                takeAt(h, n, trial);
                left -= n;
            }
        }
        if (left > 0) { // the reachable GPUs fall short after all
            undo(trial);
            return false;
        }
        out = std::move(trial);
        return true;
    }
    std::unique_ptr<Allocator> clone() const override
    {
        return std::make_unique<ComposablePool>(*this);
    }
    void undo(const Holding &h) override
    {
        for (const auto &[host, n] : h.local) {
            m_local[std::size_t(host)] += n;
            m_free += n;
        }
        for (const auto &[c, owner, n] : h.composedFrom) {
            (owner < 0 ? m_uncomposed[std::size_t(c)]
                       : m_composed[std::size_t(c)][std::size_t(owner)])
                += n;
            m_chassisFree[std::size_t(c)] += n;
            m_free += n;
        }
    }
    void give(const Holding &h) override
    {
        for (const auto &[host, n] : h.local) {
            m_local[std::size_t(host)] += n;
            m_free += n;
        }
        for (const auto &[c, host, n] : h.composedTo) { // they stay composed to that host
            m_composed[std::size_t(c)][std::size_t(host)] += n;
            m_chassisFree[std::size_t(c)] += n;
            m_free += n;
        }
    }

private:
    int reachOf(int h) const
    {
        int n = m_local[std::size_t(h)];
        for (int c : m_reach[std::size_t(h)])
            n += m_chassisFree[std::size_t(c)];
        return n;
    }
    int readyOf(int h) const // free GPUs that need no recomposing for host h
    {
        int n = m_local[std::size_t(h)];
        for (int c : m_reach[std::size_t(h)])
            n += m_composed[std::size_t(c)][std::size_t(h)];
        return n;
    }
    // Takes n ≤ reachOf(h) GPUs for host h: local, then composed to h, then uncomposed, then
    // composed to other hosts (which means recomposing).
    void takeAt(int h, int n, Holding &out)
    {
        const int local = std::min(n, m_local[std::size_t(h)]);
        if (local > 0) {
            m_local[std::size_t(h)] -= local;
            out.local.emplace_back(h, local);
            n -= local;
            m_free -= local;
        }
        for (int pass = 0; pass < 3 && n > 0; ++pass) {
            for (int c : m_reach[std::size_t(h)]) {
                auto &composed = m_composed[std::size_t(c)];
                for (std::size_t from = 0; from < composed.size() + 1 && n > 0; ++from) {
                    // pass 0: composed to h; 1: uncomposed (from == size); 2: other hosts
                    const bool uncomposed = from == composed.size();
                    if ((pass == 0 && int(from) != h) || (pass == 1 && !uncomposed)
                        || (pass == 2 && (uncomposed || int(from) == h)))
                        continue;
                    int &pool = uncomposed ? m_uncomposed[std::size_t(c)] : composed[from];
                    const int k = std::min(n, pool);
                    if (k == 0)
                        continue;
                    pool -= k;
                    m_chassisFree[std::size_t(c)] -= k;
                    m_free -= k;
                    n -= k;
                    out.composedTo.emplace_back(c, h, k);
                    out.composedFrom.emplace_back(c, uncomposed ? -1 : int(from), k);
                    out.recomposed = out.recomposed || pass > 0;
                }
            }
        }
    }
    std::vector<std::vector<int>> m_reach;
    std::vector<int> m_local;
    std::vector<std::vector<int>> m_composed;
    std::vector<int> m_uncomposed, m_chassisFree;
    int m_total = 0;
};

} // namespace

std::unique_ptr<Allocator> staticServers(const Resources &r)
{
    return std::make_unique<StaticServers>(r);
}

std::unique_ptr<Allocator> composablePool(const Resources &r)
{
    return std::make_unique<ComposablePool>(r);
}

} // namespace clab::schedule
