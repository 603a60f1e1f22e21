// Matrix products: numpy's matmul (the `@` operator), run eagerly on the generated GEMM kernel
// (kernels/gemm.h), and the tiling it uses per device. Included by array/array.h after
// vka::Array; include array/array.h.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "kernels/gemm.h"

namespace vka {

// numpy.matmul: 1-d operands are promoted to a row (a) or a column (b) and the added axis
// removed from the result; batch dimensions (all but the last two) broadcast. The result dtype
// is result_type(a, b); integer products and sums wrap as numpy's do; bool is or-of-and.
// ShapeError (ValueError in Python) for 0-d operands, mismatched core dimensions and batch
// shapes that do not broadcast, with numpy's wording. K = 0 gives zeros. Operands are read in
// place through their strides: a.T @ b and sliced operands cost no copy.
Array matmul(const Array& a, const Array& b);

// The tiling of the GEMM kernels of dtype `t` on `context`'s devices: the override
// (set_gemm_config, else $VKA_GEMM_CONFIG = "bm x bn x bk x tm x tn", e.g. "128x128x8x8x8")
// or the default for the device, fitted to maxComputeWorkGroupInvocations and
// maxComputeSharedMemorySize. An override that does not fit throws ValueError naming it.
GemmConfig gemm_config(const std::shared_ptr<Context>& context, DType t);
// Sets (or, with nullopt, clears) the process-wide tiling override; it wins over the variable.
void set_gemm_config(std::optional<GemmConfig> config);
// "128x128x8x8x8" → GemmConfig; ValueError for anything else.
GemmConfig parse_gemm_config(const std::string& text);

}  // namespace vka
