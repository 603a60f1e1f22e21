// Matrix products: numpy's matmul (the `@` operator) and the functions built on it, on the
// generated GEMM kernel (kernels/gen/gemm.h) with the device's tiling (runtime/gemm.h). Included by array/array.h after
// vka::Array; include array/array.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/gemm.h"

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

// The GEMM tilings and their overrides (gemm_config, set_gemm_config, set_gemm_split,
// set_gemm_coop, ...): runtime/gemm.h.

}  // namespace vka
