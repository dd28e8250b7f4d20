// Fat trees: the nonblocking and tapered folded Clos, and the rail-optimised variant. Links from an
// accelerator to its leaf are copper (the leaf sits in the rack); switch-to-switch links are
// optical (they leave the rack). That rule is our assumption, the same for every family.
#include "cluster/generators.h"

#include <string>

namespace clab::cluster {

namespace {

using std::size_t;

void requirePositive(const std::string &kind, const char *name, int value)
{
    if (value <= 0)
        badParameter(kind, name, "expected a positive number, got " + std::to_string(value));
}

// Joins `lower` switches (each with `up` up-links) through ⌈n·up/R⌉ upper switches, up-link m of
// switch e going to upper (e·up + m) mod count: round robin keeps every upper switch within R
// ports and, as long as count ≤ up, reaches every upper switch from every lower one.
void joinUpward(Graph &g, const std::vector<Vertex> &lower, int up, int radix)
{
    const int n = static_cast<int>(lower.size());
    const int count = (n * up + radix - 1) / radix;
    std::vector<Vertex> upper;
    for (int c = 0; c < count; ++c)
        upper.push_back(addSwitch(g, radix));
    for (int e = 0; e < n; ++e) {
        for (int m = 0; m < up; ++m)
            addLink(g, lower[size_t(e)], upper[size_t((e * up + m) % count)], LinkKind::Optical);
    }
}

int fatTreeLeafUp(const FatTreeParams &pr)
{
    return pr.taper == 1 ? pr.radix / 2 : pr.radix / (pr.taper + 1);
}

int fatTreeLeafDown(const FatTreeParams &pr)
{
    return pr.taper == 1 ? pr.radix / 2 : pr.taper * fatTreeLeafUp(pr);
}

} // namespace

int checkFatTree(const FatTreeParams &pr)
{
    const std::string kind = "fattree";
    requirePositive(kind, "endpoints", pr.endpoints);
    if (pr.radix < 4 || pr.radix % 2)
        badParameter(kind, "radix",
                     "expected an even switch radix of at least 4, got "
                         + std::to_string(pr.radix));
    if (pr.taper < 1 || pr.taper >= pr.radix)
        badParameter(kind, "taper",
                     "expected a taper from 1 (nonblocking) to radix-1, got "
                         + std::to_string(pr.taper));
    if (pr.levels < 0 || pr.levels > 3)
        badParameter(kind, "levels",
                     "expected 1 to 3 levels (or 0 for automatic), got "
                         + std::to_string(pr.levels));
    const int R = pr.radix, N = pr.endpoints;
    const int d = fatTreeLeafDown(pr);
    // Largest sizes: one switch R; two levels R leaves (every spine reached by every leaf);
    // three levels R²/2 leaves (each core group of ⌈E/R⌉ switches reached by every aggregation
    // switch's R/2 up-links).
    const long long max2 = 1LL * R * d, max3 = 1LL * R * R / 2 * d;
    int levels = pr.levels;
    if (levels == 0)
        levels = N <= R ? 1 : N <= max2 ? 2 : 3;
    const long long maxFor = levels == 1 ? R : levels == 2 ? max2 : max3;
    if (N > maxFor)
        badParameter(kind, levels == pr.levels ? "levels" : "endpoints",
                     std::to_string(N) + " endpoints need more than " + std::to_string(levels)
                         + " level(s) of radix-" + std::to_string(R) + " switches (at most "
                         + std::to_string(maxFor) + ")");
    return levels;
}

Topology fatTree(const FatTreeParams &pr)
{
    const std::string kind = "fattree";
    const int levels = checkFatTree(pr);
    const int R = pr.radix, N = pr.endpoints;
    const int u = fatTreeLeafUp(pr);
    const int d = fatTreeLeafDown(pr);

    Topology t;
    t.family = Family::FatTree;
    t.kind = kind;
    t.graph = acceleratorsOnly(N);
    t.accelerators = N;
    t.planes = kSwitchedPlanes;
    t.levels = levels;
    Graph &g = t.graph;
    if (levels == 1) {
        const Vertex s = addSwitch(g, R);
        for (int i = 0; i < N; ++i)
            addLink(g, Vertex(i), s, LinkKind::Copper);
        t.leafDown = N;
        t.leafUp = 0;
        t.bisectionLinksClosedForm = N / 2; // the switch joins the smaller side
    } else {
        const int leaves = (N + d - 1) / d;
        std::vector<Vertex> leaf;
        for (int l = 0; l < leaves; ++l)
            leaf.push_back(addSwitch(g, R));
        for (int i = 0; i < N; ++i)
            addLink(g, Vertex(i), leaf[size_t(i / d)], LinkKind::Copper);
        if (levels == 2) {
            joinUpward(g, leaf, u, R);
        } else {
            // Pods of R/2 leaves; each pod has u aggregation switches, leaf l's up-link j going
            // to the pod's aggregation switch j. Aggregation switch j of every pod has as many
            // up-links as its pod has leaves (nonblocking above the leaf) into core group j.
            const int podLeaves = R / 2;
            const int pods = (leaves + podLeaves - 1) / podLeaves;
            std::vector<std::vector<Vertex>> group(static_cast<size_t>(u));

            for (int p = 0; p < pods; ++p) {
                const int first = p * podLeaves;
                const int inPod = std::min(podLeaves, leaves - first);
                for (int j = 0; j < u; ++j) {
                    const Vertex agg = addSwitch(g, R);
                    for (int l = 0; l < inPod; ++l)
                        addLink(g, leaf[size_t(first + l)], agg, LinkKind::Optical);
                    group[size_t(j)].push_back(agg);
                }
            }
            // Core group j: ⌈leaves/R⌉ switches; up-link number k (counted over the group's
            // aggregation switches) goes to core k mod count.
            for (int j = 0; j < u; ++j) {
                const int count = (leaves + R - 1) / R;
                std::vector<Vertex> core;
                for (int c = 0; c < count; ++c)
                    core.push_back(addSwitch(g, R));
                int k = 0;
                for (int p = 0; p < pods; ++p) {
                    const int inPod = std::min(podLeaves, leaves - p * podLeaves);
                    for (int m = 0; m < inPod; ++m, ++k)
                        addLink(g, group[size_t(j)][size_t(p)], core[size_t(k % count)],
                                LinkKind::Optical);
                }
            }
        }
        t.leafDown = d;
        t.leafUp = u;
        // Halves at the middle accelerator: the smaller side's leaf up-links are the cut when
        // the split falls between leaves (exact then; the tests check it against max-flow).
        t.bisectionLinksClosedForm = std::min(double(N / 2), double(N / 2) * u / d);
    }
    t.side.assign(size_t(N), 0);
    for (int i = N / 2; i < N; ++i)
        t.side[size_t(i)] = 1;
    t.diameterSources = {0, Vertex(N - 1)};
    t.description = std::to_string(levels) + "-level fat tree, " + std::to_string(N)
                    + " endpoints, radix " + std::to_string(R)
                    + (pr.taper == 1 ? std::string(", nonblocking")
                                     : ", tapered " + std::to_string(d) + ":" + std::to_string(u));
    return t;
}

void checkRailFatTree(const RailParams &pr)
{
    const std::string kind = "rail";
    requirePositive(kind, "servers", pr.servers);
    requirePositive(kind, "per-server", pr.perServer);
    if (pr.radix < 4 || pr.radix % 2)
        badParameter(kind, "radix",
                     "expected an even switch radix of at least 4, got "
                         + std::to_string(pr.radix));
    const int half = pr.radix / 2;
    const long long leaves = 1LL * ((pr.servers + half - 1) / half) * pr.perServer;
    if (leaves > pr.radix)
        badParameter(kind, "servers",
                     "expected at most " + std::to_string(pr.radix)
                         + " rail leaves (what a two-level spine of radix "
                         + std::to_string(pr.radix) + " joins), got " + std::to_string(leaves));
}

Topology railFatTree(const RailParams &pr)
{
    const std::string kind = "rail";
    checkRailFatTree(pr);
    const int R = pr.radix, half = R / 2;
    const int leavesPerRail = (pr.servers + half - 1) / half;
    const int leaves = leavesPerRail * pr.perServer;
    const int N = pr.servers * pr.perServer;
    Topology t;
    t.family = Family::RailFatTree;
    t.kind = kind;
    t.graph = acceleratorsOnly(N);
    t.accelerators = N;
    t.planes = kSwitchedPlanes;
    t.levels = 2;
    t.leafDown = half;
    t.leafUp = half;
    Graph &g = t.graph;
    std::vector<Vertex> leaf;
    for (int l = 0; l < leaves; ++l)
        leaf.push_back(addSwitch(g, R));
    // Accelerator r of server s is vertex s·perServer + r; its leaf is rail r's leaf ⌊s/(R/2)⌋.
    for (int s = 0; s < pr.servers; ++s) {
        for (int r = 0; r < pr.perServer; ++r)
            addLink(g, Vertex(s * pr.perServer + r), leaf[size_t(r * leavesPerRail + s / half)],
                    LinkKind::Copper);
    }
    joinUpward(g, leaf, half, R);
    t.side.assign(size_t(N), 0);
    for (int i = (pr.servers / 2) * pr.perServer; i < N; ++i)
        t.side[size_t(i)] = 1;
    // Nonblocking above the leaves: the smaller half's own links are the cut.
    t.bisectionLinksClosedForm = (pr.servers / 2) * pr.perServer;
    t.diameterSources = {0, Vertex(N - 1)};
    t.description = "rail-optimised fat tree, " + std::to_string(pr.servers) + " servers of "
                    + std::to_string(pr.perServer) + ", radix " + std::to_string(R);
    return t;
}

} // namespace clab::cluster
