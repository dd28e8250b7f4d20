#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clab::catalog {
struct Gpu;
}

namespace clab::perf {

enum class Precision { Fp32, Tf32, Fp16, Bf16, Fp8 };
std::optional<Precision> parsePrecision(std::string_view text); // "fp16", "AMP", "TF32", ...
const char *precisionName(Precision p);
// Dense peak of the GPU at a precision, in TFLOPS; a precision the GPU lacks falls back to the
// nearest one it has (FP8 -> FP16, BF16 -> FP16, TF32 -> FP32), which `note` then says.
double peakTflops(const catalog::Gpu &gpu, Precision p, std::string *note = nullptr);
// Bytes of an activation or gradient element: 4 for fp32 and tf32 (tf32 stores fp32), else 2.
double elementBytes(Precision p);

} // namespace clab::perf
