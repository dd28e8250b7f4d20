#pragma once

#include "perf/precision.h"

#include <string>

namespace clab::catalog {
class Catalog;
struct Gpu;
} // namespace clab::catalog

namespace clab::perf {

// What a GPU really reaches at a precision: its measured large-GEMM rate and streaming memory
// bandwidth (catalog `achieved`), and the dense datasheet peak that "% of peak" is measured
// against. A rate the catalog has not measured is estimated from the measured parts: the median
// share of peak that measured GPUs of the same architecture reach (of any architecture when none
// is measured), and `estimated` says so.
struct GpuRates
{
    double gemmFlops = 0;    // FLOP/s, the precision's matrix path (FP8 falls back to 16-bit)
    double fp8Flops = 0;     // FLOP/s of FP8 matrices; 0 when the GPU has none
    double memBytesPerS = 0; // HBM, streamed by large kernels (the optimizer's update)
    // Element-wise and normalisation kernels: HBM's rate, or the SMs' rate where they cannot
    // issue that many bytes (gpurates.cpp, kStreamBytesPerSmCycle).
    double streamBytesPerS = 0;
    double peakFlops = 0; // dense datasheet peak of the precision actually run
    // Share of gemmFlops that kernels on warp-level mma.sync reach: the GPU's own, else that of
    // measured parts of its architecture (a Hopper without the figure is still a Hopper), else 1.
    double warpMmaShare = 1;
    bool warpMmaFromPeers = false; // this GPU has no figure of its own
    // Fixed time of one matrix kernel, s (catalog `achieved.gemmFixedUs`): the GPU's own, else
    // its architecture's measured parts', else all measured parts' median (said in `fixedNote`).
    double gemmFixedS = 0;
    std::string fixedNote;
    bool estimated = false;
    std::string note; // what was estimated or substituted, for the report
};

GpuRates gpuRates(const catalog::Gpu &gpu, Precision precision, const catalog::Catalog &catalog);

} // namespace clab::perf
