// Fixed library kernels of vka::linalg (array/linalg.h): batched matrix factorizations, one
// workgroup per matrix (a grid-stride loop over the batch), the matrices row-major and
// contiguous in their buffers, factored in place in device memory. Every spec is rank 1 with
// pc.n = the batch size; int64 slots carry the matrix sizes. Data dtype T: float32 or float64.
#pragma once

#include <string>

#include "array/kernel_spec.h"

namespace vka {

inline constexpr int kLinalgThreads = 256;
// Jacobi sweeps before svd/eigh report non-convergence (they converge quadratically: about
// 6-12 sweeps in practice).
inline constexpr int kJacobiSweeps = 30;

// LU with partial pivoting (LAPACK getrf's unblocked right-looking order): out0 (T, n×n) is
// replaced by L (unit, below the diagonal) and U; out1 (int32, n) the pivot row of each step;
// out2 (int32, 1) info: 0, or k + 1 for the first exactly zero pivot U[k, k]. Slot c0: n.
KernelSpec lu_factor_spec(DType t);
// Solves with an LU factorization: in0 LU (T, n×n), in1 pivots (int32, n); out0 (T, n×k) the
// right-hand sides, replaced by the solutions, one invocation per column. Slots c0 n, c1 k.
KernelSpec lu_solve_spec(DType t);
// Cholesky (lower): out0 (T, n×n) is replaced by L, reading only its lower triangle and zeroing
// the upper; out1 (int32, 1) info: 0, or k + 1 where the leading minor of order k + 1 is not
// positive (or NaN). Slot c0: n.
KernelSpec cholesky_spec(DType t);
// Householder QR (LAPACK geqrf's reflectors, so R's signs match numpy's): out0 (T, m×n) is
// replaced by R (zero below the diagonal); out1 (T, min(m, n)) the reflectors' tau; out2 (T,
// m×q) Q's first q columns when q > 0. Slots c0 m, c1 n, c2 q.
KernelSpec qr_spec(DType t);
// One-sided (Hestenes) Jacobi SVD of an m×n matrix with m >= n, columns rotated in parallel
// pairs (round-robin order) until every pair is orthogonal to m·eps: out0 (T, m×n, the
// matrix, destroyed), out1 (T, n×n, scratch V), out2 (T, m×uc) U, out3 (T, n) singular values
// sorted descending, out4 (T, n×n) Vᵀ, out5 (T, n scratch), out6 (int32, 1) 1 when the sweeps
// ran out before convergence. Slots c0 m, c1 n, c2 uc: 0 (no U, Vᵀ), n, or m (U completed to
// an orthonormal basis, as for exactly zero singular values).
KernelSpec svd_jacobi_spec(DType t);
// Cyclic two-sided Jacobi eigen-decomposition of a symmetric n×n matrix (its lower triangle is
// read), parallel pair rotations: out0 (T, n×n, destroyed), out1 (T, n×n scratch V), out2 (T,
// n) eigenvalues ascending, out3 (T, n×n) eigenvectors as columns, out4 (T, n + 2 scratch),
// out5 (int32, 1) 1 when the sweeps ran out. Slots c0 n, c1: 1 to write the eigenvectors.
KernelSpec eigh_jacobi_spec(DType t);

// GLSL of the specs above (emit_library's linalg cases).
std::string emit_linalg(const KernelSpec& spec);

}  // namespace vka
