#pragma once

// Shared by the performance-model tests: a made-up GPU, workload, calibration and platform with
// round numbers for checking each term by hand, and small accessors of the builtin data.
#include "catalog/catalog.h"
#include "design/examples.h"
#include "fabric/analysis.h"
#include "perf/calibration.h"
#include "perf/model.h"
#include "perf/platform.h"
#include "util/csv.h"
#include "util/inputerror.h"
#include "workload/workload.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <string>

namespace clab::perftest {

inline const catalog::Catalog &cat()
{
    return catalog::Catalog::builtin();
}

inline const workload::Workload &builtinWorkload(const char *id)
{
    const workload::Workload *w = workload::Library::builtin().find(id);
    if (!w)
        throw std::logic_error(std::string("no workload ") + id);
    return *w;
}

inline design::Design example(const std::string &name)
{
    for (const auto &e : design::bundledExamples()) {
        if (e.fileName == name)
            return design::readDesign(e.text, e.fileName);
    }
    throw std::logic_error("no example " + name);
}

inline std::size_t systemIndex(const fabric::Analysis &a, const std::string &prefix)
{
    for (std::size_t i = 0; i < a.systems.size(); ++i) {
        if (a.systems[i].name.rfind(prefix, 0) == 0)
            return i;
    }
    throw std::logic_error("no system " + prefix);
}

inline perf::Platform platformOfDesign(const design::Design &d,
                                       const std::string &systemPrefix = {})
{
    const fabric::Analysis a = fabric::analyze(d, cat());
    return perf::platformOf(d, a, systemPrefix.empty() ? 0 : systemIndex(a, systemPrefix), cat());
}

inline bool near(double actual, double expected, double relative = 1e-9)
{
    return std::abs(actual - expected) <= relative * std::max(std::abs(expected), 1e-300);
}

#define CLAB_NEAR(actual, expected)                                                                \
    QVERIFY2(near((actual), (expected)), qPrintable(QStringLiteral("%1 = %2, expected %3")         \
                                                        .arg(QLatin1String(#actual))               \
                                                        .arg((actual), 0, 'g', 17)                 \
                                                        .arg((expected), 0, 'g', 17)))

// A made-up GPU with round numbers: peaks 100 TFLOPS FP16, 20 FP32, 1000 GB/s, 40 GB; measured
// large GEMMs reach 80 and 16 TFLOPS and a streaming copy 800 GB/s.
inline catalog::Gpu testGpu()
{
    catalog::Gpu g;
    g.id = "TEST-GPU";
    g.name = "Test GPU";
    g.arch = "TestArch";
    g.formFactor = "SXM";
    g.memGB = 40;
    g.memBwGBps = 1000;
    g.tflops.fp32 = 20;
    g.tflops.fp16 = 100;
    g.achieved.gemmTflops.fp16 = 80;
    g.achieved.gemmTflops.fp32 = 16;
    g.achieved.memBwGBps = 800;
    g.achieved.source = "made up";
    return g;
}

// A made-up workload: 1e8 dense parameters, 1 TFLOP per sample, 100 MB of activations kept and
// 200 MB of memory-bound traffic per sample, 100 kB input that crosses to the GPU as read, 1 ms
// of CPU per sample, evaluation of 1000 samples x 1e11 FLOPs every 10,000.
inline workload::Workload testWorkload()
{
    workload::Workload w;
    w.id = "w";
    w.name = "Test workload";
    w.parameters = 1e8;
    w.allreduceParameters = 1e8;
    w.trainFlopsPerSample = 1e12;
    w.activationBytesPerSample = 1e8;
    w.memoryBytesPerSample = 2e8;
    w.inputBytesPerSample = 1e5;
    w.decodeCoreSecondsPerSample = 1e-3;
    w.loaders = {{"default", 1e-3, 1e5}};
    w.datasetSamples = 1e5;
    w.evalSamples = 1000;
    w.evalFlopsPerSample = 1e11;
    w.evalEverySamples = 10000;
    w.defaultPrecision = "fp16";
    w.convergence = {{100, 20000, "test"}, {200, 30000, "test"}};
    return w;
}

// GEMM efficiency 0.5, memory scale 1, 2 ms per pass, 0.5 s per evaluation, overlap 0.6, no
// software factor; held-out log errors from -0.1 to 0.2 for every row; TestArch calibrated.
inline perf::Calibration testCalibration()
{
    perf::Calibration c;
    c.bench["w"] = {0.5, 1, 2, 0.5};
    c.overlap = 0.6;
    c.architectures = std::set<std::string, std::less<>>{"TestArch"};
    c.intervals[""] = {-0.1, 0.2, 100};
    return c;
}

// One node of four test GPUs: ring 100 GB/s and 10 us, 10 GB/s host to device each, 64 cores,
// data from the page cache.
inline perf::Platform testPlatform(const catalog::Gpu &gpu)
{
    perf::Platform p;
    p.gpu = &gpu;
    p.gpusPerNode = 4;
    p.nodes = 1;
    p.hostCores = 64;
    p.ringGBps = 100;
    p.ringLatencyUs = 10;
    p.h2dGBps = 10;
    p.networkGBps = 0;
    p.linkKey = "test";
    return p;
}

inline perf::Precision defaultPrecision(const workload::Workload &w)
{
    return perf::parsePrecision(w.defaultPrecision).value_or(perf::Precision::Fp16);
}

inline perf::Prediction predictBuiltin(const perf::Platform &p, const workload::Workload &w,
                                       int gbs)
{
    return perf::predict(p, w, gbs, defaultPrecision(w), perf::Calibration::builtin());
}

inline bool hasNote(const perf::Prediction &p, const std::string &a, const std::string &b = {})
{
    for (const auto &n : p.notes) {
        if (n.find(a) != std::string::npos && n.find(b) != std::string::npos)
            return true;
    }
    return false;
}

// Four A100 PCIe GPUs in a Falcon 4016, one in each leaf switch (slots 0, 4, 8, 12), so that
// peer traffic crosses the chassis' central switch either way. `ownUplinks`: every leaf has its
// own x16 cable to the host; else the four share the cable into leaf 0.
inline design::Design chassisNode(bool ownUplinks)
{
    design::Design d;
    d.hosts.push_back({"h", "epyc-7742-2s", {}});
    d.chassis.push_back({"pool", "h3-falcon-4016", {}});
    design::System s{"s", "h", {}};
    for (int i = 0; i < 4; ++i) {
        const std::string id = "g" + std::to_string(i);
        d.devices.push_back({id, "A100-PCIe-40GB", {}, "pool", 4 * i});
        s.devices.push_back(id);
        if (ownUplinks || i == 0)
            d.links.push_back(
                {"h/cpu" + std::to_string(i / 2), "pool/up" + std::to_string(i), "pcie4x16", 1});
    }
    d.systems.push_back(s);
    return d;
}

} // namespace clab::perftest
