#include "cluster/comparison.h"

#include <cmath>

namespace clab::cluster {

namespace {

TopologySpec spec(const char *kind)
{
    TopologySpec s;
    s.kind = kind;
    return s;
}

} // namespace

int referenceScale(long long accelerators)
{
    return accelerators > 4096 ? 16384 : 1024;
}

std::vector<LabelledSpec> referenceTopologies(int scale)
{
    // The HammingMesh paper's sizes: torus and HyperX 32×32 or 128×128; Hx2Mesh 16×16 or 64×64
    // boards; Hx4Mesh 8×8 or 32×32. Dragonfly: the balanced a = 2p = 2h of Kim et al. at the
    // largest group count, p=4 a=8 h=4 (33 groups, 1,056) or p=8 a=16 h=8 (129 groups, 16,512).
    const bool big = scale > 1024;
    const std::string side = big ? "128x128" : "32x32";
    std::vector<LabelledSpec> out;
    TopologySpec s = spec("fattree");
    s.endpoints = scale;
    out.push_back({"fat tree", s});
    s.taper = 2;
    out.push_back({"fat tree 2:1", s});
    s = spec("dragonfly");
    s.p = big ? 8 : 4;
    s.a = big ? 16 : 8;
    s.h = big ? 8 : 4;
    out.push_back({"Dragonfly", s});
    s = spec("torus");
    s.dims = side;
    out.push_back({"2D torus", s});
    s.kind = "hyperx";
    out.push_back({"2D HyperX", s});
    s = spec("hammingmesh");
    s.board = "2x2";
    s.grid = big ? "64x64" : "16x16";
    out.push_back({"Hx2Mesh", s});
    s.board = "4x4";
    s.grid = big ? "32x32" : "8x8";
    out.push_back({"Hx4Mesh", s});
    return out;
}

std::vector<LabelledReport> referenceReports(int scale, const PriceTable &prices)
{
    std::vector<LabelledReport> out;
    for (const LabelledSpec &l : referenceTopologies(scale))
        out.push_back({l.label, reportOf(buildTopology(l.spec), prices, chartMessageSizes())});
    return out;
}

std::string shortLabel(const TopologySpec &s)
{
    if (s.kind == "fattree")
        return "fat tree " + std::to_string(s.endpoints)
               + (s.taper > 1 ? " " + std::to_string(s.taper) + ":1" : std::string());
    if (s.kind == "rail")
        return "rail " + std::to_string(s.servers) + "x" + std::to_string(s.perServer);
    if (s.kind == "dragonfly")
        return "Dragonfly p" + std::to_string(s.p) + " a" + std::to_string(s.a) + " h"
               + std::to_string(s.h);
    if (s.kind == "torus")
        return "torus " + s.dims;
    if (s.kind == "hyperx")
        return "HyperX " + s.dims;
    if (s.kind == "hammingmesh") {
        const auto x = s.board.find_first_of("xX");
        const bool square = x != std::string::npos && s.board.substr(0, x) == s.board.substr(x + 1);
        return (square ? "Hx" + s.board.substr(0, x) + "Mesh " : "HammingMesh " + s.board + " ")
               + s.grid;
    }
    return s.kind;
}

std::vector<double> chartMessageSizes()
{
    std::vector<double> sizes;
    for (int e = 10; e <= 30; ++e)
        sizes.push_back(std::ldexp(1.0, e));
    return sizes;
}

} // namespace clab::cluster
