// Fixed library kernels of vka::linalg (array/linalg/linalg.h): batched matrix factorizations, one
// workgroup per matrix (a grid-stride loop over the batch) unless a spec says `groups`, the
// matrices row-major and contiguous in their buffers, factored in place in device memory. Every
// spec is rank 1 with pc.n = the batch size (times groups); int64 slots carry the matrix sizes.
// Data dtype T: float32, float64, complex64 or complex128 (the GLSL's MUL/DIV/CONJ/... macros cover
// both kinds); singular values and eigenvalues are written in T's real dtype.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/emit_options.h"

namespace vka {

inline constexpr int kLinalgThreads = 256;
// The widest diagonal block the blocked kernels factor or invert in shared memory (and so the
// widest panel of the blocked LU and Cholesky, array/linalg/launch.h).
inline constexpr int kLinalgBlock = 32;
// Matrices at least this large factor in panels (array/linalg/launch.h); a smaller one is one
// panel, the LU kernel holding a pivot row of up to this many columns in shared memory.
inline constexpr int kLinalgBlockedMin = 128;
// The workgroup size of the wide variants (lu_factor_spec, qr_spec with `wide`): one large
// matrix per workgroup walks its panels with four times the invocations. They carry one slot
// more than the narrow ones, before the step range (the caller passes the workgroup size there;
// the kernel does not read it): that makes them different specs.
inline constexpr int kLinalgWideThreads = 1024;
// The widest panel of the blocked QR (its panel kernel lays columns out over this many lanes).
inline constexpr int kQrLanes = 32;
// Jacobi sweeps before svd/eigh report non-convergence (they converge quadratically: about
// 6-12 sweeps in practice).
inline constexpr int kJacobiSweeps = 30;

// Every kernel runs a range [s0, s1) of its sequential steps, the range in its last two slots:
// llvmpipe ends an invocation's loops once 65535 iterations have run in all, so the host splits
// a factorization into launches that each stay under that (array/linalg/linalg.cc: run_steps).

// LU with partial pivoting (LAPACK getrf's right-looking order), steps = columns of the panel
// [j0, j1) (the whole matrix unblocked) inside the outer panel [o0, o1): out0 (T, n×n) is
// replaced by L (unit, below the diagonal) and U; out1 (int32, n) the pivot row of each step;
// out2 (int32, 1) info: 0, or k + 1 for the first exactly zero pivot U[k, k]. Row swaps cover
// columns < j1; the launch that ends a panel with j1 < n swaps the rows of columns [j1, o1) (and
// when j1 == o1, those of columns [o1, n) by the outer panel's pivots) and writes L11⁻¹ (unit
// lower, zero above) to out3 (T, n×nb) rows [j0, j1), columns [0, j1 - j0), leaving
// U12 = L11⁻¹ A12 and A22 -= L21 U12 to the GEMM. Slots c0 n, c1 j0, c2 j1, c3 nb
// (>= j1 - j0, at most kLinalgBlock), c4 o0, c5 o1, c6 s0, c7 s1.
KernelSpec lu_factor_spec(DType t, bool wide = false);
// The panel [j0, j1) of a blocked LU (j1 - j0 <= kLinalgBlock) by tournament pivoting (CALU):
// many workgroups each factor up to lu_panel_rows(t) of its rows with partial pivoting in shared
// memory and put forward its pivot rows as candidates; merges factor lu_panel_rows(t) /
// kLinalgBlock candidate sets at a time until one set remains, whose factorization gives the
// panel's pivots and L11\U11; the rows below then solve L21 U11 = A21. When the panel's rows
// fit one workgroup (n - j0 <= lu_panel_rows(t)) the final mode factors them all: partial
// pivoting exactly. out0..out2 as lu_factor_spec's; out3 and out4 (int32, ((n + rows - 1) /
// rows + 4) * kLinalgBlock per matrix, rows = lu_panel_rows(t)) the candidate sets in and out,
// and the final's row map. Modes, one launch each (kernels/lib/linalg_lu_panel.cc): 0 leaves,
// 1 merges, 2 the final (one workgroup per matrix), 3 the row swaps of the other columns,
// U12 = L11⁻¹ A12 on the columns right of the panel (right of its outer panel [o0, o1), less
// the terms of the outer panel's earlier panels: nothing is left for the GEMM but the
// trailing update) and L21. Workgroups: `groups` per matrix, pc.n = the batch size times
// groups. Slots c0 n, c1 j0, c2 j1, c3 o0, c4 o1, c5 mode, c6 sets (the candidate sets in; 0:
// the panel's rows by ranges), c7 groups.
KernelSpec lu_panel_spec(DType t);
// The blocked solves' right-hand sides up to which lu_chunks_spec takes them (more: the GEMM).
inline constexpr int kLinalgFewRhs = kLinalgThreads / kLinalgBlock;
// One chunk of the triangular solves of a blocked getrs with k <= kLinalgFewRhs right-hand
// sides (the row swaps before it are lu_solve_spec's): the rows [c0, c0 + kLinalgBlock) solved
// against their diagonal block of in0 (LU, T n×n: unit lower when forward, upper when backward)
// after every row beyond them (below forward, above backward) takes the previous chunk's terms
// (the chunk before, solved by the launch before). out0 (T, n×k) the right-hand sides, replaced
// by the solutions chunk by chunk. Workgroups: `groups` per matrix (kLinalgThreads rows each),
// pc.n = the batch size times groups. Slots c0 n, c1 k, c2 backward (0, 1), c3 c0, c4 groups.
KernelSpec lu_chunks_spec(DType t);
// Rows of the panel one lu_panel_spec workgroup factors (0: the dtype has no such kernel, its
// factors too large for 32 KiB of shared memory).
int lu_panel_rows(DType t);
// Solves with an LU factorization: in0 LU (T, n×n), in1 pivots (int32, n); out0 (T, n×k) the
// right-hand sides, replaced by the solutions, one invocation per column. Steps: n row swaps,
// n forward (L rows over columns [lo, i)), n backward (U rows over columns (i, hi)).
// Slots c0 n, c1 k, c2 lo, c3 hi, c4 s0, c5 s1.
KernelSpec lu_solve_spec(DType t);
// Cholesky (lower). Mode 0 (unblocked), steps = columns: out0 (T, n×n) is replaced by L,
// reading only its lower triangle, the upper zeroed by the launch that reaches n; out1
// (int32, 1) info: 0, or k + 1 where the leading minor of order k + 1 is not positive (or NaN).
// Mode 1 (blocked, j1 - j0 <= kLinalgBlock): one launch factors the panel's diagonal block L11
// whole (the step range is not read; the upper triangle is left undefined), its info as above.
// Mode 2: L21 = A21 L11⁻ᴴ for the rows below the panel, an invocation per row, `groups`
// workgroups per matrix (pc.n = the batch size times groups; 1 in the other modes); A22 is the
// GEMM's. Slots c0 n, c1 mode, c2 j0, c3 j1, c4 groups, c5 s0, c6 s1.
KernelSpec cholesky_spec(DType t);
// Householder QR (LAPACK geqrf's reflectors, so R's signs match numpy's). out0 (T, m×n) is
// replaced by R (zero below the diagonal); out1 (T, min(m, n)) the reflectors' tau; out2 (T, m×q)
// Q; out3 (T, m×kmin) and out4 (T, kmin×nb) the blocked factorization's V and T. Unblocked
// (nb = 0): steps 0..kmin-1 factor columns, kmin..2kmin-1 accumulate Q's first q columns
// (q > 0), the last launch zeroes below the diagonal; out3 and out4 unused. Blocked (nb > 0,
// nb <= kQrLanes): the panel [j0, j1), steps j0..j1-1 factor its columns (updating only the
// panel's) and form its compact WY factor T (I - V T Vᴴ = H_j0 ... H_j1-1) in out4's rows
// [j0, j1), columns [0, j1 - j0) (zero below its diagonal); step j1 writes V (unit diagonal,
// zero above it) to out3's rows [j0, m), columns [j0, j1) and zeroes the panel below R's
// diagonal. Slots c0 m, c1 n, c2 q, c3 nb, c4 j0, c5 j1, c6 s0, c7 s1.
KernelSpec qr_spec(DType t, bool wide = false);
// One-sided (Hestenes) Jacobi SVD of an m×n matrix with m >= n, columns rotated in parallel
// pairs (round-robin order) until every pair is orthogonal to m·eps. Steps: 0 initializes,
// 1 .. kJacobiSweeps·(np - 1) rotate (np = n rounded up to even), the last sorts and writes.
// out0 (T, m×n, destroyed), out1 (T, n×n scratch V), out2 (T, m×uc) U (columns of singular
// values at most eps ||A||_F and past n left zero: array/linalg/linalg.cc completes them), out3
// (T, n) singular values descending (real; NaNs first), out4 (T, n×n) Vᴴ, out5 (real, n
// scratch), out6 (int32, 2) sweep flags, then [0] = 1 when the sweeps ran out. Slots c0 m,
// c1 n, c2 uc (0: no U, Vᵀ), c3 s0, c4 s1.
KernelSpec svd_jacobi_spec(DType t);
// Cyclic two-sided Jacobi eigen-decomposition of a symmetric or Hermitian n×n matrix (its
// lower triangle is read), parallel pair rotations (complex: each pair's phase first), steps as
// svd_jacobi's: out0 (T, n×n, destroyed), out1 (T, n×n scratch V), out2 (real, n) eigenvalues
// ascending, out3 (T, n×n) eigenvectors as columns, out4 (T, 2n + 4 scratch), out5 (int32, 2)
// as svd's. Slots c0 n, c1: 1 to write the eigenvectors, c2 s0, c3 s1.
KernelSpec eigh_jacobi_spec(DType t);

// The workgroup size of a spec above: kLinalgThreads, or kLinalgWideThreads for a wide one.
int linalg_threads(const KernelSpec& spec);
// The wide mode of the two above (array/linalg/wide.h): the same buffers and rotations, spread
// over the whole device instead of one workgroup per matrix, one launch per phase, the phase
// in a slot. svd_jacobi_wide reads A transposed (out0 n×m: column j of A is row j) and keeps V
// likewise (out1 row j = column j of V); out5 holds n + 1 reals per matrix (column norms, then
// ‖A‖_F). Phases: 0 init (workgroup per matrix), 1 the rotations of round r (workgroup per
// pair: tree-reduced dot products), 2 the sweep's end (done flag; invocation per matrix),
// 3 column norms and 4 the sorted results (workgroup per column). Slots c0 m, c1 n, c2 uc,
// c3 phase, c4 r.
KernelSpec svd_jacobi_wide_spec(DType t);
// Phases: 0 init (workgroup per matrix), 1 the rotations (c, s, phase) of round r (invocation
// per pair, into out4), 2 the sweep's end, 3 the rotations applied (invocation per 2×2 block of
// A and per (row, pair) of V), 4 the sorted results (workgroup per eigenvalue). Buffers as
// eigh_jacobi's. Slots c0 n, c1 vectors, c2 phase, c3 r.
KernelSpec eigh_jacobi_wide_spec(DType t);

// GLSL of the specs above (kernels/emit.cc's linalg cases).
std::string emit_linalg(const KernelSpec& spec, const EmitOptions& options = {});

}  // namespace vka
