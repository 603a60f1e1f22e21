// Matrix products: numpy's matmul (the `@` operator), run eagerly on the generated GEMM kernel
// (kernels/gemm.h), and the tiling it uses per device. Included by array/array.h after
// vka::Array; include array/array.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/gemm.h"

namespace vka {

// numpy.matmul: 1-d operands are promoted to a row (a) or a column (b) and the added axis
// removed from the result; batch dimensions (all but the last two) broadcast. The result dtype
// is result_type(a, b); integer products and sums wrap as numpy's do; bool is or-of-and.
// ShapeError (ValueError in Python) for 0-d operands, mismatched core dimensions and batch
// shapes that do not broadcast, with numpy's wording. K = 0 gives zeros. Operands are read in
// place through their strides: a.T @ b and sliced operands cost no copy.
Array matmul(const Array& a, const Array& b);

// numpy.tensordot: sums of products over axes_a of a paired with axes_b of b (equal lengths,
// equal extents); the result's axes are a's others, then b's others. Built on matmul after a
// transpose and reshape of each operand (no copy when the summed axes are already adjacent and
// contiguous). ShapeError for mismatched lengths or extents, AxisError for axes out of range
// or repeated.
Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b);
// tensordot(a, b, n): the last n axes of a with the first n of b.
Array tensordot(const Array& a, const Array& b, int64_t n = 2);
// numpy.dot: a * b when either is 0-d, otherwise the sum over a's last axis and b's
// second-to-last (its only one when 1-d), numpy's error when those extents differ.
Array dot(const Array& a, const Array& b);
// numpy.outer: the flattened a as a column times the flattened b as a row.
Array outer(const Array& a, const Array& b);
// numpy.kron: the Kronecker product, the operand of fewer dimensions padded with leading 1s.
Array kron(const Array& a, const Array& b);

// The tiling of the GEMM kernels of dtype `t` on `context`'s devices: the override
// (set_gemm_config, else $VKA_GEMM_CONFIG = "bm x bn x bk x tm x tn", e.g. "128x128x8x8x8")
// or the default for the device, fitted to maxComputeWorkGroupInvocations and
// maxComputeSharedMemorySize. An override that does not fit throws ValueError naming it.
GemmConfig gemm_config(const std::shared_ptr<Context>& context, DType t);
// True when matmul of dtype `t` runs on cooperative matrices on `context`: float16, every
// device offers them (Caps::cooperative_matrix_f16) and no tiling override is set (an override
// selects the generic kernel, so a sweep can compare).
bool gemm_uses_cooperative_matrix(const std::shared_ptr<Context>& context, DType t);
// Sets (or, with nullopt, clears) the process-wide tiling override; it wins over the variable.
void set_gemm_config(std::optional<GemmConfig> config);
// "128x128x8x8x8" → GemmConfig; ValueError for anything else.
GemmConfig parse_gemm_config(const std::string& text);
// Sets (or, with nullopt, clears) the process-wide split-K override: every GEMM launched
// (cooperative-matrix ones aside) splits K into that many ranges, summed in order by a second
// kernel (kernels/gemm.h; 1: never split). It wins over $VKA_GEMM_SPLIT; without either, a
// heuristic splits products with few output tiles for the device (array/gemm_split.h).
// ValueError outside 1..65536.
void set_gemm_split(std::optional<int> splits);

// The float16 cooperative-matrix kernel (kernels/gemm.h, GemmCoopConfig): the override
// (set_gemm_coop, else $VKA_GEMM_COOP = "old", "new" or "bm x bn x bk x fm x fn", e.g.
// "128x128x32x4x4"; one the device cannot run throws ValueError naming it), else the
// pipelined default where the device has the invocations and shared memory for it, else the
// 64 x 64 kernel ("old").
// Sets (or, with nullopt, clears) the process-wide override; it wins over the variable.
void set_gemm_coop(std::optional<GemmCoopConfig> config);
// "old", "new" (the default tiling) or "bm x bn x bk x fm x fn" → GemmCoopConfig; ValueError
// for anything else or an invalid tiling.
GemmCoopConfig parse_gemm_coop(const std::string& text);
// The kernel float16 products of row-major operands run on `context` ("old" or the tiling,
// as to_string(GemmCoopConfig)); "" when its devices lack cooperative matrices.
std::string gemm_coop_kernel(const std::shared_ptr<Context>& context);
// Tests on devices without cooperative matrices (lavapipe): while on, float16 products there
// run the pipelined cooperative-matrix kernel with emulated fragments (kernels/gemm.h: slow,
// but the kernel's own indexing, synchronization and bindings). Off by default.
void set_gemm_coop_emulation(bool on);

}  // namespace vka
