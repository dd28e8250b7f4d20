#include "schedule/allocators.h"

#include <algorithm>
#include <memory>
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
        : m_local(r.localGpus)
    {
        // Who may hold a chassis' GPUs: the hosts linked to it, and any host they are composed
        // to now. Kept once for all copies: a backfill probe copies only the counts.
        const std::size_t chassis = r.pooledGpus.size();
        auto layout = std::make_shared<Layout>();
        layout->reach = r.reachable;
        std::vector<std::vector<int>> members(chassis);
        std::vector<char> reached(chassis, 0);
        for (std::size_t h = 0; h < r.reachable.size(); ++h) {
            for (int c : r.reachable[h]) {
                members[std::size_t(c)].push_back(int(h));
                reached[std::size_t(c)] = 1;
            }
        }
        for (std::size_t c = 0; c < chassis; ++c) {
            for (std::size_t h = 0; h < r.composed[c].size(); ++h) {
                if (r.composed[c][h] > 0)
                    members[c].push_back(int(h));
            }
            std::sort(members[c].begin(), members[c].end()); // host order, as before
            members[c].erase(std::unique(members[c].begin(), members[c].end()), members[c].end());
        }
        layout->offset.push_back(0);
        for (std::size_t c = 0; c < chassis; ++c) {
            for (int h : members[c]) {
                layout->member.push_back(h);
                m_composed.push_back(r.composed[c][std::size_t(h)]);
            }
            layout->offset.push_back(int(layout->member.size()));
        }
        m_layout = std::move(layout);

        m_uncomposed.assign(chassis, 0);
        m_chassisFree.assign(chassis, 0);
        for (std::size_t c = 0; c < chassis; ++c) {
            const int composed = std::accumulate(r.composed[c].begin(), r.composed[c].end(), 0);
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
            (owner < 0 ? m_uncomposed[std::size_t(c)] : m_composed[slotOf(c, owner)]) += n;
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
            m_composed[slotOf(c, host)] += n;
            m_chassisFree[std::size_t(c)] += n;
            m_free += n;
        }
    }

private:
    struct Layout
    {
        std::vector<std::vector<int>> reach; // per host: the chassis it is linked to
        std::vector<int> offset;             // per chassis, and one past: its hosts in `member`
        std::vector<int> member;             // hosts that may hold each chassis' GPUs, ascending
    };
    // Where the count of chassis c's GPUs composed to `host` is kept; the host is a member.
    std::size_t slotOf(int c, int host) const
    {
        const auto &m = m_layout->member;
        const auto first = m.begin() + m_layout->offset[std::size_t(c)];
        const auto last = m.begin() + m_layout->offset[std::size_t(c) + 1];
        return std::size_t(std::lower_bound(first, last, host) - m.begin());
    }
    int reachOf(int h) const
    {
        int n = m_local[std::size_t(h)];
        for (int c : m_layout->reach[std::size_t(h)])
            n += m_chassisFree[std::size_t(c)];
        return n;
    }
    int readyOf(int h) const // free GPUs that need no recomposing for host h
    {
        int n = m_local[std::size_t(h)];
        for (int c : m_layout->reach[std::size_t(h)])
            n += m_composed[slotOf(c, h)];
        return n;
    }
    // Takes n ≤ reachOf(h) GPUs for host h: local, then composed to h, then uncomposed, then
    // composed to other hosts, in host order (which means recomposing).
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
            for (int c : m_layout->reach[std::size_t(h)]) {
                const int first = m_layout->offset[std::size_t(c)];
                const int last = m_layout->offset[std::size_t(c) + 1];
                for (int slot = first; slot <= last && n > 0; ++slot) {
                    // pass 0: composed to h; 1: uncomposed (slot == last); 2: other hosts
                    const bool uncomposed = slot == last;
                    const int from = uncomposed ? -1 : m_layout->member[std::size_t(slot)];
                    if ((pass == 0 && from != h) || (pass == 1 && !uncomposed)
                        || (pass == 2 && (uncomposed || from == h)))
                        continue;
                    int &pool
                        = uncomposed ? m_uncomposed[std::size_t(c)] : m_composed[std::size_t(slot)];
                    const int k = std::min(n, pool);
                    if (k == 0)
                        continue;
                    pool -= k;
                    m_chassisFree[std::size_t(c)] -= k;
                    m_free -= k;
                    n -= k;
                    out.composedTo.emplace_back(c, h, k);
                    out.composedFrom.emplace_back(c, from, k);
                    out.recomposed = out.recomposed || pass > 0;
                }
            }
        }
    }
    std::shared_ptr<const Layout> m_layout; // the same for every copy
    std::vector<int> m_local;
    std::vector<int> m_composed; // parallel to Layout::member: GPUs composed to that host now
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
