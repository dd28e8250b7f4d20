#pragma once

#include "cluster/report.h"
#include "cluster/topologyspec.h"

#include <string>
#include <vector>

namespace clab::cluster {

// The topology families side by side at one of the HammingMesh paper's two reference scales, ~1k
// and ~16k accelerators: the HammingMesh paper's baselines (a nonblocking and a 2:1 tapered fat
// tree, Dragonfly, 2D torus and 2D HyperX with one accelerator a router) and HammingMesh on 2×2
// and 4×4 boards, each at the paper's size for that scale.

struct LabelledSpec
{
    std::string label; // short, for a legend: "fat tree 2:1", "Hx2Mesh 16x16"
    TopologySpec spec;
};

struct LabelledReport
{
    std::string label;
    TopologyReport report;
};

// 1024 or 16384: the reference scale nearer to `accelerators` on a log scale (the boundary is
// their geometric mean, 4096).
int referenceScale(long long accelerators);
std::vector<LabelledSpec> referenceTopologies(int scale);
// Their reports, at chartMessageSizes(); a few hundred milliseconds at 16k (HyperX's 2 million
// links dominate), so GUI callers run it off the GUI thread.
std::vector<LabelledReport> referenceReports(int scale, const PriceTable &prices);

std::string shortLabel(const TopologySpec &spec);

// 1 KiB to 1 GiB in powers of two: smooth curves on a log axis.
std::vector<double> chartMessageSizes();

} // namespace clab::cluster
