// LU's GLSL (kernels/lib/linalg.h: lu_factor_spec, lu_solve_spec): the panel factorization with
// its row swaps and diagonal-block inverse, and the triangular solves.
#include <string>

#include "kernels/lib/linalg.h"
#include "kernels/lib/linalg_jacobi.h"

namespace vka {
namespace {

// plan_swaps(pbase, p0, p1): the row swaps of pivots [p0, p1) (at most BLK; pivot k is PIV(k),
// which the kernel defines over pbase, its matrix's first pivot) as one permutation of the rows
// they touch: s_dst[q] is a touched row, s_src[q] the row whose content it takes (rows [p0, p1),
// then each pivot row below p1 once; s_dst < 0 past them). Applying it loads every touched row,
// then stores them: one round trip to memory, not one per swap. Each pivot's slot is found by its
// own invocation (a row below p1 takes the next slot past p1 - p0 where it first appears, later
// pivots naming it share that slot); one invocation then composes the swaps, O(1) each (one
// invocation searching the slots took about 20 us per 32 pivots on the H200). Call it in
// uniform control flow.
constexpr const char* kSwapMap =
    "shared int s_src[2 * BLK], s_dst[2 * BLK], s_piv[BLK], s_first[BLK], s_slot[BLK];\n"
    "void plan_swaps(int pbase, int p0, int p1) {\n"
    "  int t = int(gl_LocalInvocationID.x), w = p1 - p0;\n"
    "  SYNC_S();\n"
    "  if (t < w) s_piv[t] = PIV(p0 + t);\n"
    "  if (t < 2 * BLK) { s_dst[t] = t < w ? p0 + t : -1; s_src[t] = p0 + t; }\n"
    "  SYNC_S();\n"
    // The first pivot naming the same row below p1 (-1: a row inside the range).
    "  if (t < w) {\n"
    "    int p = s_piv[t], first = p >= p1 ? t : -1;\n"
    "    for (int q = 0; q < t && p >= p1; ++q) { if (s_piv[q] == p) { first = q; break; } }\n"
    "    s_first[t] = first;\n"
    "  }\n"
    "  SYNC_S();\n"
    "  if (t < w && s_first[t] == t) {\n"
    "    int slot = w;\n"
    "    for (int q = 0; q < t; ++q) { if (s_first[q] == q) ++slot; }\n"
    "    s_slot[t] = slot;\n"
    "    s_dst[slot] = s_piv[t]; s_src[slot] = s_piv[t];\n"
    "  }\n"
    "  SYNC_S();\n"
    "  if (t < w && s_first[t] != t) {\n"
    "    s_slot[t] = s_first[t] < 0 ? s_piv[t] - p0 : s_slot[s_first[t]];\n"
    "  }\n"
    "  SYNC_S();\n"
    "  if (t == 0) {\n"
    "    for (int k = 0; k < w; ++k) {\n"
    "      int q = s_slot[k], x = s_src[k];\n"
    "      s_src[k] = s_src[q]; s_src[q] = x;\n"
    "    }\n"
    "  }\n"
    "  SYNC_S();\n"
    "}\n";

// A chunk [r0, r1) of a substitution (emit_lu_solve), w = r1 - r0 rows: its diagonal block into
// S, and into s_x each row's right-hand side less its terms from the solved columns [p0, p1).
std::string open_chunk(const std::string& p0, const std::string& p1) {
  return "        SYNC();\n"
         "        for (int e = int(t); e < w * w; e += WG) {\n"
         "          S(e / w, e % w) = LU(r0 + e / w, r0 + e % w);\n"
         "        }\n"
         "        T acc = T(0);\n"
         "        if (mine && ii < w) {\n"
         "          acc = B(i);\n"
         "          for (int j = " +
         p0 + "; j < " + p1 +
         "; ++j) acc -= MUL(LU(i, j), B(j));\n"
         "        }\n"
         "        s_x[t] = acc;\n"
         "        SYNC_S();\n";
}

}  // namespace

// Right-looking LU over columns [k0, k1) of the panel [j0, j1) (the whole matrix when unblocked;
// a launch is split into column ranges that keep each invocation's loop count bounded: llvmpipe
// ends any invocation's loops after 65535 iterations in all). Each column: the pivot search
// (strided loads, a tree in shared memory), which also scales the column before it; the row
// swap, which leaves the pivot row in shared memory; the rank-1 update of the panel's columns
// right of k from the unscaled column (the multipliers A(i, k) / d, rounded as the scaling will
// round them). Each phase behind a barrier; the launch's last column is scaled at its end.
std::string emit_lu_factor(const KernelSpec& spec) {
  return linalg_preamble(spec) + shared_block_glsl() +
         "#define A(i, j) out0.v[base + (i) * n + (j)]\n"
         "#define SCALED(x, d) ((d) != T(0) ? DIV(x, d) : (x))\n"
         "shared int s_p;\n"
         "shared R s_val[WG];\n"
         "shared int s_idx[WG];\n"
         "shared T s_row[" +
         std::to_string(kLinalgBlockedMin) + "];\n#define PIV(k) out1.v[pbase + (k)]\n" + kSwapMap +
         kMoveRows +
         // Columns [c0, c1) of the matrix at base: the swaps of pivots [p0, p1).
         "void laswp(uint b, int base, int n, int c0, int c1, int p0, int p1) {\n"
         "  uint t = gl_LocalInvocationID.x;\n"
         "  plan_swaps(int(b) * n, p0, p1);\n"
         "  for (int j = c0 + int(t); j < c1; j += WG) move_rows(base, n, j);\n"
         "}\n"
         "void main() {\n"
         "  int n = slot(pc.c0), j0 = slot(pc.c1), j1 = slot(pc.c2), nb = slot(pc.c3);\n"
         "  int o0 = slot(pc.c4), o1 = slot(pc.c5);\n"
         // The step range: the last two slots (the wide variant's extra slot comes before).
         "  int k0 = slot(pc.c" +
         std::to_string(spec.slots.size() - 2) + "), k1 = min(slot(pc.c" +
         std::to_string(spec.slots.size() - 1) + "), n);\n" + kBatchLoop +
         "    int base = int(b) * n * n;\n"
         // info in a register of the invocation that sets it: no read of out2 per column.
         "    int info = 0;\n"
         "    if (t == 0u) { if (k0 == 0) out2.v[b] = 0; else info = out2.v[b]; }\n"
         "    for (int k = k0; k < k1; ++k) {\n"
         // The pivot: the first row of largest |A(i, k)| (ties to the lower row, as LAPACK's
         // idamax); column k - 1 scaled by its pivot (still in s_row) on the same rows.
         "      T dp = k > k0 ? s_row[0] : T(0);\n"
         "      R best = R(-1);\n"
         "      int at = n;\n"
         "      for (int i = k + int(t); i < n; i += WG) {\n"
         "        R a = ABS1(A(i, k));\n"
         "        if (a > best) { best = a; at = i; }\n"
         "        if (k > k0) A(i, k - 1) = SCALED(A(i, k - 1), dp);\n"
         "      }\n"
         "      s_val[t] = best; s_idx[t] = at;\n"
         "      SYNC();\n"
         "      for (uint h = WG / 2; h > 0u; h >>= 1) {\n"
         "        if (t < h) {\n"
         "          R v = s_val[t + h];\n"
         "          int q = s_idx[t + h];\n"
         "          if (v > s_val[t] || (v == s_val[t] && q < s_idx[t])) {\n"
         "            s_val[t] = v;\n"
         "            s_idx[t] = q;\n"
         "          }\n"
         "        }\n"
         "        SYNC_S();\n"
         "      }\n"
         "      if (t == 0u) {\n"
         "        int q = s_idx[0] < n ? s_idx[0] : k;\n"
         "        s_p = q;\n"
         "        out1.v[int(b) * n + k] = q;\n"
         "        if (s_val[0] == R(0) && info == 0) { info = k + 1; out2.v[b] = info; }\n"
         "      }\n"
         "      SYNC_S();\n"
         // The swap over the columns left of j1; the pivot row's panel columns into s_row.
         "      int p = s_p;\n"
         "      for (int j = int(t); j < j1; j += WG) {\n"
         "        T x = A(k, j), y = A(p, j);\n"
         "        if (p != k) { A(k, j) = y; A(p, j) = x; }\n"
         "        if (j >= k) s_row[j - k] = y;\n"
         "      }\n"
         "      SYNC();\n"
         // The panel's trailing columns (A[j1:, j1:] is the GEMM's, array/linalg/linalg.cc).
         "      T d = s_row[0];\n"
         "      int r = n - k - 1, w = j1 - k - 1;\n"
         "      for (int e = int(t); e < r * w; e += WG) {\n"
         "        int i = k + 1 + e / w, j = k + 1 + e % w;\n"
         "        A(i, j) = A(i, j) - MUL(SCALED(A(i, k), d), s_row[j - k]);\n"
         "      }\n"
         "      SYNC();\n"
         "    }\n"
         "    if (k1 > k0) {\n"
         "      int k = k1 - 1;\n"
         "      T d = s_row[0];\n"
         "      for (int i = k + 1 + int(t); i < n; i += WG) A(i, k) = SCALED(A(i, k), d);\n"
         "      SYNC();\n"
         "    }\n"
         // After the panel's last column: its row swaps on the outer panel's columns right of
         // it (getrf's laswp), and when the outer panel ends, the outer panel's swaps on the
         // columns right of that; L11⁻¹ (unit lower, zero above) in out3: U12 = L11⁻¹ A12 is
         // the GEMM's (array/linalg/linalg.cc).
         "    if (k1 == j1 && j1 < n) {\n"
         "      int w = j1 - j0, ibase = int(b) * n * nb;\n"
         "      laswp(b, base, n, j1, o1, j0, j1);\n"
         "      if (j1 == o1) {\n"
         "        for (int q = o0; q < o1; q += BLK) {\n"
         "          laswp(b, base, n, o1, n, q, min(q + BLK, o1));\n"
         "        }\n"
         "      }\n"
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        int i = e / w, c = e % w;\n"
         "        if (c <= i) S(i, c) = c == i ? TR(1) : A(j0 + i, j0 + c);\n"
         "      }\n"
         "      SYNC_S();\n" +
         kInvertShared +
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        int i = e / w, c = e % w;\n"
         "        out3.v[ibase + (j0 + i) * nb + c] = c <= i ? S(i, c) : T(0);\n"
         "      }\n"
         "      SYNC();\n"
         "    }\n"
         "  }\n"
         "}\n";
}

// Steps s in [s0, s1) of 3n: s < n swaps row s with its pivot row (getrs' laswp, all before the
// substitutions); n <= s < 2n subtracts row i = s - n of L over columns [lo, i); 2n <= s solves
// row i = 3n - 1 - s of U over columns (i, hi). lo and hi let a blocked solve leave the rest to
// the GEMM (array/linalg/linalg.cc). Many right-hand sides (k > WG / BLK): each invocation owns
// columns and walks the steps alone, no barriers. A few: the workgroup walks them together,
// the swaps BLK pivots at a time (plan_swaps), the substitutions BLK rows at a time, an
// invocation per row and column: the rows' terms from outside the chunk first, then the chunk's
// diagonal block from shared memory, one barrier per row (a lone invocation per column waited on
// memory at every term).
std::string emit_lu_solve(const KernelSpec& spec) {
  return linalg_preamble(spec) + shared_block_glsl() + "#define PIV(k) in1.v[pbase + (k)]\n" +
         kSwapMap +
         "#define LU(i, j) in0.v[abase + (i) * n + (j)]\n"
         "#define B(i) out0.v[bbase + (i) * k + c]\n"
         "shared T s_x[WG];\n"
         "void main() {\n"
         "  int n = slot(pc.c0), k = slot(pc.c1), lo = slot(pc.c2), hi = slot(pc.c3);\n"
         "  int s0 = slot(pc.c4), s1 = min(slot(pc.c5), 3 * n);\n" +
         kBatchLoop +
         "    int abase = int(b) * n * n, bbase = int(b) * n * k;\n"
         "    if (k <= WG / BLK) {\n"
         "      int c = int(t) / BLK, ii = int(t) % BLK;\n"
         "      bool mine = c < k;\n"
         "      for (int g0 = s0; g0 < min(s1, n); g0 += BLK) {\n"
         "        SYNC();\n"
         "        plan_swaps(int(b) * n, g0, min(g0 + BLK, min(s1, n)));\n"
         "        bool lo_row = mine && s_dst[ii] >= 0, hi_row = mine && s_dst[ii + BLK] >= 0;\n"
         "        T v0 = T(0), v1 = T(0);\n"
         "        if (lo_row) v0 = B(s_src[ii]);\n"
         "        if (hi_row) v1 = B(s_src[ii + BLK]);\n"
         "        SYNC();\n"
         "        if (lo_row) B(s_dst[ii]) = v0;\n"
         "        if (hi_row) B(s_dst[ii + BLK]) = v1;\n"
         "      }\n"
         // Forward: rows [f0, f1) in chunks of BLK.
         "      int f0 = clamp(s0, n, 2 * n) - n, f1 = clamp(s1, n, 2 * n) - n;\n"
         "      for (int r0 = f0; r0 < f1; r0 += BLK) {\n"
         "        int r1 = min(r0 + BLK, f1), w = r1 - r0, i = r0 + ii;\n" +
         open_chunk("lo", "r0") +
         "        for (int jj = 0; jj < w; ++jj) {\n"
         "          if (ii > jj && ii < w && r0 + jj >= lo) {\n"
         "            s_x[t] -= MUL(S(ii, jj), s_x[c * BLK + jj]);\n"
         "          }\n"
         "          SYNC_S();\n"
         "        }\n"
         "        if (mine && ii < w) B(i) = s_x[t];\n"
         "      }\n"
         // Backward: rows 3n - 1 - s for s in [max(s0, 2n), s1): rows [u0, u1), chunks from the
         // bottom.
         "      int u0 = 3 * n - max(s1, 2 * n), u1 = 3 * n - max(s0, 2 * n);\n"
         "      for (int r1 = u1; r1 > u0; r1 -= BLK) {\n"
         "        int r0 = max(r1 - BLK, u0), w = r1 - r0, i = r0 + ii;\n" +
         open_chunk("r1", "hi") +
         // Row jj is final (undivided) at its step: every later row's terms are in.
         "        for (int jj = w - 1; jj >= 0; --jj) {\n"
         "          if (ii < jj && r0 + jj < hi) {\n"
         "            s_x[t] -= MUL(S(ii, jj), DIV(s_x[c * BLK + jj], S(jj, jj)));\n"
         "          }\n"
         "          SYNC_S();\n"
         "        }\n"
         "        if (mine && ii < w) B(i) = DIV(s_x[t], S(ii, ii));\n"
         "      }\n"
         "      SYNC();\n"
         "      continue;\n"
         "    }\n"
         "    for (int c = int(t); c < k; c += WG) {\n"
         "      for (int s = s0; s < s1; ++s) {\n"
         "        if (s < n) {\n"
         "          int p = in1.v[int(b) * n + s];\n"
         "          if (p != s) { T x = B(s); B(s) = B(p); B(p) = x; }\n"
         "        } else if (s < 2 * n) {\n"
         "          int i = s - n;\n"
         "          T acc = B(i);\n"
         "          for (int j = lo; j < i; ++j) acc -= MUL(LU(i, j), B(j));\n"
         "          B(i) = acc;\n"
         "        } else {\n"
         "          int i = 3 * n - 1 - s;\n"
         "          T acc = B(i);\n"
         "          for (int j = i + 1; j < hi; ++j) acc -= MUL(LU(i, j), B(j));\n"
         "          B(i) = DIV(acc, LU(i, i));\n"
         "        }\n"
         "      }\n"
         "    }\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
