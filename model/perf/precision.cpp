#include "perf/precision.h"

#include "catalog/catalog.h"

#include <cctype>

namespace clab::perf {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

std::optional<Precision> parsePrecision(std::string_view text)
{
    const std::string t = lower(text);
    if (t.find("fp8") != std::string::npos)
        return Precision::Fp8;
    if (t.find("amp") != std::string::npos || t.find("fp16") != std::string::npos
        || t.find("mixed") != std::string::npos || t == "half")
        return Precision::Fp16;
    if (t.find("bf16") != std::string::npos || t.find("bfloat16") != std::string::npos)
        return Precision::Bf16;
    if (t.find("tf32") != std::string::npos)
        return Precision::Tf32;
    if (t.find("fp32") != std::string::npos || t == "float" || t == "single")
        return Precision::Fp32;
    return std::nullopt;
}

const char *precisionName(Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return "fp32";
    case Precision::Tf32:
        return "tf32";
    case Precision::Fp16:
        return "fp16";
    case Precision::Bf16:
        return "bf16";
    case Precision::Fp8:
        return "fp8";
    }
    return "?";
}

double peakTflops(const catalog::Gpu &gpu, Precision p, std::string *note)
{
    const catalog::Tflops &t = gpu.tflops;
    auto fallback = [&](const std::optional<double> &want, const std::optional<double> &instead,
                        const char *from, const char *to) {
        if (want)
            return *want;
        if (note)
            *note = gpu.name + " has no " + from + " tensor cores; using its " + to + " peak";
        return instead.value_or(t.fp32.value_or(0));
    };
    switch (p) {
    case Precision::Fp32:
        return t.fp32.value_or(0);
    case Precision::Tf32:
        return fallback(t.tf32, t.fp32, "TF32", "FP32");
    case Precision::Fp16:
        return fallback(t.fp16, t.fp32, "FP16", "FP32");
    case Precision::Bf16:
        return fallback(t.bf16, t.fp16, "BF16", "FP16");
    case Precision::Fp8:
        return fallback(t.fp8, t.fp16, "FP8", "FP16");
    }
    return 0;
}

double elementBytes(Precision p)
{
    return p == Precision::Fp32 || p == Precision::Tf32 ? 4 : 2;
}

} // namespace clab::perf
