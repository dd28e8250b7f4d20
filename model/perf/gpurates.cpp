#include "perf/gpurates.h"
#include "util/stats.h"

#include "catalog/catalog.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

namespace clab::perf {

namespace {

// The measured rate of a precision's matrix path; BF16 and FP16 run on the same tensor cores at
// the same dense rate on every catalog GPU, so one stands in for the other.
std::optional<double> measured(const catalog::Tflops &t, Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return t.fp32;
    case Precision::Tf32:
        return t.tf32;
    case Precision::Fp16:
        return t.fp16 ? t.fp16 : t.bf16;
    case Precision::Bf16:
        return t.bf16 ? t.bf16 : t.fp16;
    case Precision::Fp8:
        return t.fp8;
    }
    return std::nullopt;
}

std::optional<double> peak(const catalog::Tflops &t, Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return t.fp32;
    case Precision::Tf32:
        return t.tf32;
    case Precision::Fp16:
        return t.fp16;
    case Precision::Bf16:
        return t.bf16 ? t.bf16 : t.fp16;
    case Precision::Fp8:
        return t.fp8;
    }
    return std::nullopt;
}

// One figure of the measured parts (a user's parts are not measured: their figures are the
// user's), for all of one maker's (AMD's CDNA or NVIDIA's architectures: one maker's kernels and
// memory controllers are the nearer guess for a part of theirs) and for those of one
// architecture.
struct Peers
{
    std::vector<double> same, all, anyMaker;
    double median() const
    {
        return clab::median(!same.empty() ? same : !all.empty() ? all : anyMaker);
    }
};

template<class Figure>
Peers peers(const catalog::Catalog &catalog, const std::string &arch, Figure figure)
{
    Peers p;
    const auto amd = [](const std::string &a) { return a.rfind("CDNA", 0) == 0; };
    for (const auto &[id, g] : catalog.gpus()) {
        if (g.user)
            continue;
        const std::optional<double> v = figure(g);
        if (v)
            p.anyMaker.push_back(*v); // the last resort: no part of the maker has the figure
        if (amd(g.arch) != amd(arch))
            continue;
        if (v) {
            p.all.push_back(*v);
            if (g.arch == arch)
                p.same.push_back(*v);
        }
    }
    return p;
}

// Median share of peak that measured GPUs reach: of the same architecture when there are some.
double peerShare(const catalog::Catalog &catalog, const std::string &arch, Precision p)
{
    return peers(catalog, arch,
                 [p](const catalog::Gpu &g) -> std::optional<double> {
                     const auto m = measured(g.achieved.gemmTflops, p);
                     const auto pk = peak(g.tflops, p);
                     if (!m || !pk || *pk <= 0)
                         return std::nullopt;
                     return *m / *pk;
                 })
        .median();
}

double peerMemoryShare(const catalog::Catalog &catalog, const std::string &arch)
{
    return peers(catalog, arch,
                 [](const catalog::Gpu &g) -> std::optional<double> {
                     if (!g.achieved.memBwGBps)
                         return std::nullopt;
                     return *g.achieved.memBwGBps / g.memBwGBps;
                 })
        .median();
}

// The matrix rate of precision p on this GPU (TFLOPS): measured, else the datasheet peak times
// the share measured GPUs reach. A precision without its own tensor cores runs on the nearest
// path the GPU has (peakTflops's fallbacks).
double gemmTflops(const catalog::Gpu &gpu, Precision p, const catalog::Catalog &catalog,
                  bool &estimated, std::string &note)
{
    Precision path = p;
    if (!peak(gpu.tflops, p)) {
        path = p == Precision::Tf32                          ? Precision::Fp32
               : p == Precision::Fp8 || p == Precision::Bf16 ? Precision::Fp16
                                                             : Precision::Fp32;
        if (!peak(gpu.tflops, path))
            path = Precision::Fp32;
    }
    if (const auto m = measured(gpu.achieved.gemmTflops, path))
        return *m;
    estimated = true;
    const double share = peerShare(catalog, gpu.arch, path);
    if (!note.empty())
        note += "; ";
    note += std::string("no measured ") + precisionName(path) + " GEMM rate for " + gpu.name
            + ": estimated at " + std::to_string(int(share * 100 + 0.5)) + " % of its peak, as "
            + "measured " + gpu.arch + " parts reach";
    return peak(gpu.tflops, path).value_or(0) * share;
}

double warpMmaShare(const catalog::Gpu &gpu, const catalog::Catalog &catalog)
{
    if (gpu.achieved.warpMmaShare)
        return *gpu.achieved.warpMmaShare;
    const Peers p
        = peers(catalog, gpu.arch, [](const catalog::Gpu &g) { return g.achieved.warpMmaShare; });
    return p.same.empty() ? 1 : clab::median(p.same);
}

// A matrix kernel's fixed time: the GPU's own, else the median of its architecture's measured
// parts, else of its maker's measured parts; what was borrowed is said.
double gemmFixedUs(const catalog::Gpu &gpu, const catalog::Catalog &catalog, std::string &note)
{
    if (gpu.achieved.gemmFixedUs)
        return *gpu.achieved.gemmFixedUs;
    const Peers p
        = peers(catalog, gpu.arch, [](const catalog::Gpu &g) { return g.achieved.gemmFixedUs; });
    if (p.all.empty())
        return 0;
    const double us = p.median();
    char value[32];
    std::snprintf(value, sizeof value, "%.1f", us);
    note = "no measured matrix-kernel fixed time for " + gpu.name + ": " + value + " us, as "
           + (p.same.empty() ? std::string("the measured GPUs' median")
                             : "measured " + gpu.arch + " parts take");
    return us;
}

// The FP32 lanes of one SM, by architecture (NVIDIA's architecture whitepapers): the FP32 peak
// over 2 x lanes is SMs x clock. Ampere is GA100's 64 (A100, A30); GA10x's 128 would halve its
// SM rate, which binds nowhere behind GDDR. 0: unknown, no SM-side bound.
double fp32LanesPerSm(const std::string &arch)
{
    if (arch == "Volta" || arch == "Turing" || arch == "Ampere")
        return 64;
    if (arch == "Ada" || arch == "Hopper" || arch == "Blackwell")
        return 128;
    return 0;
}

// Bytes an SM moves a cycle through the element-wise and normalisation kernels of training, at
// most. Fitted to one published pair (model/perf/MODEL.md, `Be` under Compute): an H200 has
// an H100's SMs and 1.39x its measured HBM rate, and MLPerf v4.1 gives it 1.027x the H100 BERT
// step and 1.045x the RetinaNet step, where HBM alone gives 1.09x and 1.16x: both say the
// memory term shrinks by 9 %, so 1.10 x 2,950 GB/s over 132 SMs x 1.98 GHz.
constexpr double kStreamBytesPerSmCycle = 12.4;

} // namespace

GpuRates gpuRates(const catalog::Gpu &gpu, Precision p, const catalog::Catalog &catalog)
{
    GpuRates r;
    std::string peakNote;
    r.peakFlops = peakTflops(gpu, p, &peakNote) * 1e12;
    r.note = peakNote;
    const Precision matrix = p == Precision::Fp8 ? Precision::Bf16 : p;
    r.gemmFlops = gemmTflops(gpu, matrix, catalog, r.estimated, r.note) * 1e12;
    if (p == Precision::Fp8 && gpu.tflops.fp8)
        r.fp8Flops = gemmTflops(gpu, Precision::Fp8, catalog, r.estimated, r.note) * 1e12;
    r.warpMmaShare = warpMmaShare(gpu, catalog);
    r.warpMmaFromPeers = !gpu.achieved.warpMmaShare && r.warpMmaShare < 1;
    r.gemmFixedS = gemmFixedUs(gpu, catalog, r.fixedNote) * 1e-6;
    if (gpu.achieved.memBwGBps) {
        r.memBytesPerS = *gpu.achieved.memBwGBps * 1e9;
    } else {
        r.estimated = true;
        const double share = peerMemoryShare(catalog, gpu.arch);
        r.memBytesPerS = gpu.memBwGBps * share * 1e9;
        if (!r.note.empty())
            r.note += "; ";
        r.note += "no measured memory bandwidth for " + gpu.name + ": estimated at "
                  + std::to_string(int(share * 100 + 0.5)) + " % of its datasheet figure";
    }
    r.streamBytesPerS = r.memBytesPerS;
    const double lanes = fp32LanesPerSm(gpu.arch);
    const double smRate = lanes > 0 && gpu.tflops.fp32
                              ? kStreamBytesPerSmCycle * *gpu.tflops.fp32 * 1e12 / (2 * lanes)
                              : 0;
    if (lanes == 0 && (gpu.user || gpu.arch.rfind("CDNA", 0) == 0)) {
        if (!r.note.empty())
            r.note += "; ";
        r.note += "no SM-side rate for architecture \"" + gpu.arch + "\" (known: Volta, Turing, "
                  + "Ampere, Ada, Hopper, Blackwell): element-wise kernels at its memory's rate";
    }
    if (smRate > 0 && smRate < r.memBytesPerS) {
        r.streamBytesPerS = smRate;
        if (!r.note.empty())
            r.note += "; ";
        r.note += "element-wise kernels of " + gpu.name + " at its SMs' rate, "
                  + std::to_string(int(smRate / 1e9 + 0.5)) + " GB/s, not its memory's "
                  + std::to_string(int(r.memBytesPerS / 1e9 + 0.5)) + " GB/s";
    }
    return r;
}

} // namespace clab::perf
