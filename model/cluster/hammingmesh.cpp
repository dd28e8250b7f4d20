// HammingMesh (Hoefler et al., "HammingMesh: A Network Topology for Large-Scale Deep Learning",
// SC22): a×b boards wired as a 2D mesh, an x×y grid of boards,
// one fat tree per accelerator row (W/E board edges) and per accelerator column (N/S edges).
// On-board links are board traces; accelerator-to-switch links copper and switch-to-switch
// links optical (our assumption, the rule used for every family).
#include "cluster/generators.h"

namespace clab::cluster {

Topology hammingMesh(const HammingMeshParams &pr)
{
    const std::string kind = "hammingmesh";
    if (pr.a <= 0 || pr.b <= 0)
        badParameter(kind, "board",
                     "expected a board of a×b accelerators with a, b ≥ 1, got "
                         + std::to_string(pr.a) + "x" + std::to_string(pr.b));
    if (pr.x <= 0 || pr.y <= 0)
        badParameter(kind, "grid",
                     "expected a grid of x×y boards with x, y ≥ 1, got " + std::to_string(pr.x)
                         + "x" + std::to_string(pr.y));
    if (pr.radix < 4 || pr.radix % 2)
        badParameter(kind, "radix",
                     "expected an even switch radix of at least 4, got "
                         + std::to_string(pr.radix));
    const long long n64 = 1LL * pr.a * pr.b * pr.x * pr.y;
    if (n64 > 4'000'000)
        badParameter(kind, "grid", "at most 4 million accelerators, got " + std::to_string(n64));
    const int a = pr.a, b = pr.b, x = pr.x, y = pr.y, n = int(n64), ab = a * b;

    Topology t;
    t.family = Family::HammingMesh;
    t.kind = kind;
    t.graph = acceleratorsOnly(n);
    t.accelerators = n;
    t.planes = 1;
    t.portsPerAccelerator = 4; // N, E, S, W
    t.dims = {a, b, x, y};
    Graph &g = t.graph;
    // Accelerator (i, j) of board (bx, by) is vertex (bx·y + by)·ab + i·b + j.
    auto acc = [&](int bx, int by, int i, int j) { return Vertex((bx * y + by) * ab + i * b + j); };
    for (int bx = 0; bx < x; ++bx) {
        for (int by = 0; by < y; ++by) {
            for (int i = 0; i < a; ++i) {
                for (int j = 0; j < b; ++j) {
                    if (j + 1 < b)
                        addLink(g, acc(bx, by, i, j), acc(bx, by, i, j + 1), LinkKind::BoardTrace);
                    if (i + 1 < a)
                        addLink(g, acc(bx, by, i, j), acc(bx, by, i + 1, j), LinkKind::BoardTrace);
                }
            }
        }
    }
    int levels = 1;
    std::vector<Vertex> ports;
    // Row trees: accelerator row i of board-row bx, W port of (i, 0) and E port of (i, b-1) on
    // each of the y boards: 2y ports.
    for (int bx = 0; bx < x; ++bx) {
        for (int i = 0; i < a; ++i) {
            ports.clear();
            for (int by = 0; by < y; ++by) {
                ports.push_back(acc(bx, by, i, 0));
                ports.push_back(acc(bx, by, i, b - 1));
            }
            levels = std::max(levels, addTree(g, ports, pr.radix, LinkKind::Copper,
                                              LinkKind::Optical, kind, "grid"));
        }
    }
    // Column trees: column j of board-column by, N port of (0, j) and S port of (a-1, j): 2x.
    for (int by = 0; by < y; ++by) {
        for (int j = 0; j < b; ++j) {
            ports.clear();
            for (int bx = 0; bx < x; ++bx) {
                ports.push_back(acc(bx, by, 0, j));
                ports.push_back(acc(bx, by, a - 1, j));
            }
            levels = std::max(levels, addTree(g, ports, pr.radix, LinkKind::Copper,
                                              LinkKind::Optical, kind, "grid"));
        }
    }
    t.levels = levels;
    // Halves: the first ⌊x/2⌋ board rows (cutting the b·y column trees, each at its smaller
    // side's 2⌊x/2⌋ ports: the trees are nonblocking) or the first ⌊y/2⌋ board columns (cutting
    // the a·x row trees at 2⌊y/2⌋); whichever cuts fewer links.
    const double rowCut = double(b) * y * 2 * (x / 2);
    const double colCut = double(a) * x * 2 * (y / 2);
    const bool splitRows = x >= 2 && (rowCut <= colCut || y < 2);
    t.side.assign(std::size_t(n), 0);
    for (int bx = 0; bx < x; ++bx) {
        for (int by = 0; by < y; ++by) {
            const bool second = splitRows ? bx >= x / 2 : by >= y / 2;
            for (int k = 0; k < ab; ++k)
                t.side[std::size_t((bx * y + by) * ab + k)] = second ? 1 : 0;
        }
    }
    t.bisectionLinksClosedForm = x * y == 1 ? 0 : splitRows ? rowCut : colCut;
    // Boards are alike (the board grid is a Hamming graph and all row trees, all column trees
    // are the same tree), so the a·b accelerators of board 0 cover every symmetry class.
    for (int k = 0; k < ab; ++k)
        t.diameterSources.push_back(Vertex(k));
    const std::string name = a == b ? "Hx" + std::to_string(a) + "Mesh" : "HammingMesh";
    t.description = name + ", " + std::to_string(x) + "x" + std::to_string(y) + " boards of "
                    + std::to_string(a) + "x" + std::to_string(b) + ", radix "
                    + std::to_string(pr.radix);
    return t;
}

} // namespace clab::cluster
