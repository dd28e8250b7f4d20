// Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008): groups of a routers joined all-to-all, p
// accelerators a router, h global links a router. Links within a group are copper (a group is a
// cabinet), global links optical.
#include "cluster/generators.h"

namespace clab::cluster {

Topology dragonfly(const DragonflyParams &pr)
{
    const std::string kind = "dragonfly";
    auto positive = [&](const char *name, int v) {
        if (v <= 0)
            badParameter(kind, name, "expected a positive number, got " + std::to_string(v));
    };
    positive("p", pr.p);
    positive("a", pr.a);
    positive("h", pr.h);
    const int maxGroups = pr.a * pr.h + 1;
    const int g = pr.groups == 0 ? maxGroups : pr.groups;
    if (g < 2 || g > maxGroups)
        badParameter(kind, "groups",
                     "expected 2 to a*h+1 = " + std::to_string(maxGroups) + " groups, got "
                         + std::to_string(g));
    const long long n64 = 1LL * g * pr.a * pr.p;
    if (n64 > 4'000'000)
        badParameter(kind, "groups", "at most 4 million accelerators, got " + std::to_string(n64));
    const int routers = g * pr.a, n = int(n64);
    const int radix = pr.p + (pr.a - 1) + pr.h;
    // Links per pair of groups: the a·h global ports spread evenly over the g-1 other groups.
    const int m = pr.a * pr.h / (g - 1);

    Topology t;
    t.family = Family::Dragonfly;
    t.kind = kind;
    t.graph = acceleratorsOnly(n);
    t.accelerators = n;
    t.planes = kSwitchedPlanes;
    t.groups = g;
    t.groupSize = pr.a * pr.p;
    t.globalLinksPerPair = m;
    t.levels = 1;
    Graph &gr = t.graph;
    auto router = [&](int group, int r) { return Vertex(n + group * pr.a + r); };
    for (int r = 0; r < routers; ++r)
        addSwitch(gr, radix);
    for (int v = 0; v < n; ++v)
        addLink(gr, Vertex(v), Vertex(n + v / pr.p), LinkKind::Copper);
    for (int grp = 0; grp < g; ++grp) {
        for (int r = 0; r < pr.a; ++r) {
            for (int s = r + 1; s < pr.a; ++s)
                addLink(gr, router(grp, r), router(grp, s), LinkKind::Copper);
        }
    }
    // Copy c of the link between groups i and j (offset o = (j-i) mod g) uses global port
    // c·(g-1) + o-1 of group i and c·(g-1) + (g-o)-1 of group j; port q sits on router ⌊q/h⌋.
    // Every port is used at most once, and every group pair gets m links.
    for (int i = 0; i < g; ++i) {
        for (int j = i + 1; j < g; ++j) {
            const int o = j - i;
            for (int c = 0; c < m; ++c) {
                const int qi = c * (g - 1) + o - 1, qj = c * (g - 1) + (g - o) - 1;
                addLink(gr, router(i, qi / pr.h), router(j, qj / pr.h), LinkKind::Optical);
            }
        }
    }
    // Halves at a group boundary (⌊g/2⌋ groups against the rest, balanced up to one group): the
    // cut is the global links between them, or the smaller side's own links if fewer.
    const int half = g / 2;
    t.side.assign(std::size_t(n), 0);
    for (int v = half * t.groupSize; v < n; ++v)
        t.side[std::size_t(v)] = 1;
    t.bisectionLinksClosedForm
        = std::min(double(m) * half * (g - half), double(half) * t.groupSize);
    // Groups are alike under the arrangement's rotation only for g = a·h+1; take the first
    // accelerator of every router of group 0 and of the last group.
    for (int r = 0; r < pr.a; ++r) {
        t.diameterSources.push_back(Vertex(r * pr.p));
        t.diameterSources.push_back(Vertex(((g - 1) * pr.a + r) * pr.p));
    }
    t.description = "Dragonfly p=" + std::to_string(pr.p) + " a=" + std::to_string(pr.a)
                    + " h=" + std::to_string(pr.h) + ", " + std::to_string(g) + " groups, radix "
                    + std::to_string(radix);
    return t;
}

} // namespace clab::cluster
