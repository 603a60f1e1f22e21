// Internal to kernels/lib/linalg*.cc: the shared preamble and GLSL pieces, the emitters of LU, QR
// and the Jacobi eigensolvers.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/lib/linalg.h"

namespace vka {

// Version, extensions, workgroup size, T/EPS/BIG/SYNC macros, the spec's storage buffers
// (inputs readonly, outputs coherent: invocations of a workgroup read each other's writes
// after SYNC) and the push-constant block with slot() to read an int64 slot. `threads`: the
// workgroup size (WG); 0: linalg_threads(spec). `extensions`: the kernel's own #extension
// lines, placed after the #version line.
std::string linalg_preamble(const KernelSpec& spec, int threads = 0,
                            const std::string& extensions = "");
std::string emit_lu_factor(const KernelSpec& spec);
std::string emit_lu_solve(const KernelSpec& spec);
std::string emit_lu_chunks(const KernelSpec& spec);
std::string emit_lu_panel(const KernelSpec& spec, const EmitOptions& options);
std::string emit_qr(const KernelSpec& spec);
std::string emit_svd_jacobi(const KernelSpec& spec);
std::string emit_eigh_jacobi(const KernelSpec& spec);
std::string emit_svd_jacobi_wide(const KernelSpec& spec);
std::string emit_eigh_jacobi_wide(const KernelSpec& spec);
// GLSL of the round-robin pairing (pair_of(pr, r, np, p, q): pair pr of round r over np
// indices, p < q) and of tan_of(z), the rotation's tangent for cot(2θ) = z.
std::string jacobi_pairs_glsl();

// GLSL's move_rows(base, n, j): column j of the matrix at base permuted by the row map
// s_src/s_dst (2 * BLK entries, s_dst < 0 for none: kernels/lib/linalg_lu.cc's plan_swaps or
// linalg_lu_panel.cc's pivots), every moved element loaded before any is stored.
inline constexpr const char* kMoveRows =
    "void move_rows(int base, int n, int j) {\n"
    "  T v[2 * BLK];\n"
    "  for (int q = 0; q < 2 * BLK; ++q) { if (s_dst[q] >= 0) v[q] = A(s_src[q], j); }\n"
    "  for (int q = 0; q < 2 * BLK; ++q) { if (s_dst[q] >= 0) A(s_dst[q], j) = v[q]; }\n"
    "}\n";

// The batch loop: b walks the matrices of this workgroup; its bounds are uniform, so the
// barriers inside stay in uniform control flow.
inline constexpr const char* kBatchLoop =
    "  uint t = gl_LocalInvocationID.x;\n"
    "  for (uint b = gl_WorkGroupID.x; b < uint(pc.n); b += gl_NumWorkGroups.x) {\n";

// BLK (kLinalgBlock) and a diagonal block of at most BLK columns in shared memory, read as
// S(i, j); padded rows keep a column's elements in different banks.
std::string shared_block_glsl();

// S's lower triangle (a lower-triangular matrix of order w with nonzero diagonal) replaced by its
// inverse, column by column from the last (LAPACK trti2's order): column j of the inverse is
// -(L⁻¹[j+1:, j+1:] L[j+1:, j]) / L[j, j] under 1 / L[j, j], reading the columns already
// inverted. One invocation per row, two barriers per column; every invocation reaches them.
inline constexpr const char* kInvertShared =
    "      for (int j = w - 1; j >= 0; --j) {\n"
    "        int i = int(t);\n"
    "        T d = S(j, j), x = T(0);\n"
    "        if (i > j && i < w) {\n"
    // Four partial sums: the loads of a row's dot product overlap instead of waiting on each
    // add (the longest row bounds every column's step).
    "          T x1 = T(0), x2 = T(0), x3 = T(0);\n"
    "          int l = j + 1;\n"
    "          for (; l + 3 <= i; l += 4) {\n"
    "            x += MUL(S(i, l), S(l, j)); x1 += MUL(S(i, l + 1), S(l + 1, j));\n"
    "            x2 += MUL(S(i, l + 2), S(l + 2, j)); x3 += MUL(S(i, l + 3), S(l + 3, j));\n"
    "          }\n"
    "          for (; l <= i; ++l) x += MUL(S(i, l), S(l, j));\n"
    "          x = (x + x1) + (x2 + x3);\n"
    "        }\n"
    "        SYNC_S();\n"
    "        if (i > j && i < w) S(i, j) = DIV(-x, d);\n"
    "        if (i == j) S(j, j) = DIV(TR(1), d);\n"
    "        SYNC_S();\n"
    "      }\n";

}  // namespace vka
