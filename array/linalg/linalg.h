// Linear algebra on batched matrices: the factorizations run as GPU kernels (kernels/lib/linalg.h),
// one workgroup per matrix of the leading (batch) dimensions. Inputs of any layout are copied
// into fresh contiguous buffers of the computation dtype first (float32 stays float32; bool and
// integers become float64, as numpy.linalg does). Calls whose errors depend on the values
// (a singular matrix, one that is not positive definite) evaluate eagerly: they read a flag back.
// The numpy-shaped API (norms, lstsq, pinv, ...) is composed in bindings/vkarray/linalg.py.
#pragma once

#include <string_view>
#include <vector>

#include "array/array.h"
#include "base/errors.h"

namespace vka {

// numpy.linalg.LinAlgError in Python: singular or non-positive-definite input, and matrices of
// the wrong shape ("Last 2 dimensions of the array must be square").
class LinAlgError : public Error {
 public:
  using Error::Error;
};

// The dtype linalg computes in for input dtype t: float32, float64, complex64 and complex128
// as they are, bool and integers float64; float16 raises DTypeError ("array type float16 is
// unsupported in linalg").
DType linalg_dtype(std::string_view op, DType t);

// LU with partial pivoting of (..., n, n): {lu (L unit-lower and U packed), pivots (int32,
// (..., n): the row swapped with row k at step k, LAPACK's getrf order but 0-based)}.
// Never raises for singular input (det reads U's zero diagonal).
std::vector<Array> lu_factor(const Array& a);
// The solution of a x = b for a (..., n, n) and b (..., n, k) of the same batch shape.
// LinAlgError "Singular matrix" when some a has an exactly zero pivot.
Array solve(const Array& a, const Array& b);
// x with lu x = b for factors from lu_factor (or any U with pivots arange(n), whose strictly
// lower part then reads as zero L), b (..., n, k) of lu's batch shape. No singularity check.
Array lu_solve(const Array& lu, const Array& pivots, const Array& b);
// The inverse of each (..., n, n) matrix; LinAlgError "Singular matrix".
Array inv(const Array& a);
// Lower Cholesky factor (A = L Lᴴ) of each (..., n, n) matrix (its lower triangle is read);
// LinAlgError "Matrix is not positive definite".
Array cholesky(const Array& a);
// Householder QR of (..., m, n), k = min(m, n): mode "reduced" {q (..., m, k), r (..., k, n)},
// "complete" {q (..., m, m), r (..., m, n)}, "r" {r (..., k, n)}.
std::vector<Array> qr(const Array& a, std::string_view mode);
// SVD of (..., m, n): {u, s, vh} (s descending; u (..., m, m) or (..., m, k) by full_matrices),
// or {s} without compute_uv.
std::vector<Array> svd(const Array& a, bool full_matrices = true, bool compute_uv = true);
// Eigen-decomposition of symmetric or Hermitian (..., n, n) (the lower triangle is read): {w
// ascending (real), v (eigenvectors as columns)}, or {w} without compute_v.
std::vector<Array> eigh(const Array& a, bool compute_v = true);

}  // namespace vka
