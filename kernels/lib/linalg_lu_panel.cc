// The GLSL of lu_panel_spec (kernels/lib/linalg.h): a tall LU panel factored by tournament
// pivoting over many workgroups, each holding a block of the panel's rows in shared memory.
#include <string>

#include "kernels/lib/linalg.h"
#include "kernels/lib/linalg_jacobi.h"

namespace vka {
namespace {

// partial(par, v, i): an invocation's candidate pivot (key v, W row i; -1 and ROWS for none)
// into the partial maxima of parity par, NPART of them: one per subgroup where the device has
// subgroup arithmetic (and its subgroups fit the arrays), else one per row.
std::string partial_glsl(bool subgroups) {
  std::string s =
      "#define NP ROWS\n"
      "shared R s_val[2 * NP];\n"
      "shared int s_idx[2 * NP];\n"
      "R key_of(R a) { return isnan(a) ? R(-0.5) : a; }\n"
      "#define KEY(x) key_of(ABS1(x))\n";
  return s +
         (subgroups ? "#define NPART (int(gl_NumSubgroups) <= NP ? int(gl_NumSubgroups) : ROWS)\n"
                    : "#define NPART ROWS\n") +
         "void partial(int par, R v, int i) {\n"
         "  uint t = gl_LocalInvocationID.x;\n" +
         (subgroups ? "  if (int(gl_NumSubgroups) <= NP) {\n"
                      "    R m = subgroupMax(v);\n"
                      "    int q = subgroupMin(v == m ? i : ROWS);\n"
                      "    int sg = par * NP + int(gl_SubgroupID);\n"
                      "    if (subgroupElect()) { s_val[sg] = m; s_idx[sg] = q; }\n"
                      "    return;\n"
                      "  }\n"
                    : "") +
         "  if (t < uint(ROWS)) { s_val[par * NP + int(t)] = v; s_idx[par * NP + int(t)] = i; }\n"
         "}\n";
}

// gepp(nr, w, root, j0): partial pivoting on W's nr rows and w columns, in place and without
// moving rows: step c's pivot is the live row (present, not yet a pivot) of largest
// |W(i, c)|, ties to the lower W row (NaNs only where every live row's is); s_step[c] is its W
// row (-1: none live) and s_rstep[i] each row's step (-1: not a pivot). Each invocation owns
// one row and updates it from the pivot row, then offers its next column's key: one barrier
// per column. L's multipliers stay in their rows; U is the pivot rows' later columns. With
// `root`, a zero pivot sets s_info as getrf's info.
constexpr const char* kGepp =
    "void gepp(int nr, int w, bool root, int j0) {\n"
    "  int i = int(gl_LocalInvocationID.x);\n"
    "  bool live = i < nr && s_orig[i] >= 0;\n"
    "  int step = -1;\n"
    "  partial(0, live ? KEY(W(i, 0)) : R(-1), live ? i : ROWS);\n"
    "  SYNC_S();\n"
    "  for (int c = 0; c < min(w, nr); ++c) {\n"
    "    int par = c & 1;\n"
    "    R best = R(-1);\n"
    "    int p = ROWS;\n"
    "    for (int q = 0; q < NPART; ++q) {\n"
    "      R v = s_val[par * NP + q];\n"
    "      int x = s_idx[par * NP + q];\n"
    "      if (v > best || (v == best && x < p)) { best = v; p = x; }\n"
    "    }\n"
    "    if (i == 0) s_step[c] = p < ROWS ? p : -1;\n"
    "    if (root && i == 0 && best == R(0) && s_info == 0) s_info = j0 + c + 1;\n"
    "    if (i == p) { live = false; step = c; }\n"
    "    R v = R(-1);\n"
    "    if (live && p < ROWS) {\n"
    "      T d = W(p, c);\n"
    "      T l = d != T(0) ? DIV(W(i, c), d) : W(i, c);\n"
    "      W(i, c) = l;\n"
    // Four elements' loads before their stores: the compiler cannot tell that W(i, j) is not
    // W(p, j + 1), so one element at a time each load would wait on the store before it.
    "      int j = c + 1;\n"
    "      for (; j + 4 <= w; j += 4) {\n"
    "        T a0 = W(i, j), a1 = W(i, j + 1), a2 = W(i, j + 2), a3 = W(i, j + 3);\n"
    "        T p0 = W(p, j), p1 = W(p, j + 1), p2 = W(p, j + 2), p3 = W(p, j + 3);\n"
    "        W(i, j) = a0 - MUL(l, p0); W(i, j + 1) = a1 - MUL(l, p1);\n"
    "        W(i, j + 2) = a2 - MUL(l, p2); W(i, j + 3) = a3 - MUL(l, p3);\n"
    "      }\n"
    "      for (; j < w; ++j) W(i, j) -= MUL(l, W(p, j));\n"
    "      if (c + 1 < w) v = KEY(W(i, c + 1));\n"
    "    }\n"
    "    partial(par ^ 1, v, v > R(-1) ? i : ROWS);\n"
    "    SYNC_S();\n"
    "  }\n"
    "  if (i < ROWS) s_rstep[i] = step;\n"
    "  SYNC_S();\n"
    "}\n";

// The final mode's row swaps: thread 0 turns the chosen rows (s_orig[s_step[k]]) into getrf's
// pivots (the row each step swaps with, given the steps before it); then every row they move goes
// into the map s_src/s_dst (entries with s_dst < 0 move nothing). s_at[q]: the original row at
// position j0 + q; s_loc[q]: the position of original row j0 + q. A row below j1 moves only
// when chosen, into the panel's first rows.
constexpr const char* kPivots =
    "void pivots(int pbase, int j0, int j1) {\n"
    "  uint t = gl_LocalInvocationID.x;\n"
    "  int w = j1 - j0;\n"
    "  if (int(t) < w) { s_at[t] = j0 + int(t); s_loc[t] = j0 + int(t); }\n"
    "  SYNC_S();\n"
    "  if (t == 0u) {\n"
    "    for (int k = 0; k < w; ++k) {\n"
    "      int r = s_orig[s_step[k]], p = r < j1 ? s_loc[r - j0] : r, x = s_at[k];\n"
    "      out1.v[pbase + j0 + k] = p;\n"
    "      if (p < j1) s_at[p - j0] = x;\n"
    "      s_loc[x - j0] = p;\n"
    "      s_at[k] = r;\n"
    "      if (r < j1) s_loc[r - j0] = j0 + k;\n"
    "    }\n"
    "  }\n"
    "  SYNC_S();\n"
    "  if (int(t) < BLK) {\n"
    "    bool on = int(t) < w, down = on && s_loc[t] >= j1;\n"
    "    s_dst[t] = on ? j0 + int(t) : -1; s_src[t] = on ? s_orig[s_step[t]] : 0;\n"
    "    s_dst[BLK + int(t)] = down ? s_loc[t] : -1; s_src[BLK + int(t)] = j0 + int(t);\n"
    "  }\n"
    "  SYNC_S();\n"
    "}\n";

}  // namespace

int lu_panel_rows(DType t) {
  return t == DType::kFloat32 ? 6 * kLinalgBlock : t == DType::kComplex128 ? 0 : 3 * kLinalgBlock;
}

// Modes (slot c5): 0, a leaf: the workgroup's ROWS rows of the panel, its w candidates out;
// 1, a merge of ROWS / BLK candidate sets into one; 2, the final: the last sets (or, with
// sets = 0, all the panel's rows) factored, the pivots, the rows written (the panel's first w,
// or all when they were all there), the row map to out4; 3, with the map in out3, the row swaps
// on the columns outside the panel (a column per invocation), U12 = L11⁻¹ A12 on the columns
// right of it (right of the outer panel [o0, o1), less the outer panel's earlier panels' terms
// first), and, when the final had candidates (sets > 0), L21 = A21 U11⁻¹ for the rows below
// the panel, ROWS - BLK rows per workgroup, one invocation per row (the substitution in getf2's
// order of terms).
std::string emit_lu_panel(const KernelSpec& spec, const EmitOptions& options) {
  const int rows = lu_panel_rows(spec.outputs[0].dtype);
  const bool subgroups = options.subgroup_arithmetic && options.subgroup_size >= 4;
  const std::string extensions =
      std::string("#extension GL_EXT_control_flow_attributes : require\n") +
      (subgroups ? "#extension GL_KHR_shader_subgroup_basic : require\n"
                   "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                 : "");
  return linalg_preamble(spec, 0, extensions) + "#define BLK " + std::to_string(kLinalgBlock) +
         "\n#define ROWS " + std::to_string(rows) +
         "\n"
         "shared T s_w[ROWS * (BLK + 1)];\n"
         "#define W(i, j) s_w[(i) * (BLK + 1) + (j)]\n"
         // The rows launch's diagonal block (L11\U11) shares W's last BLK rows.
         "#define S(i, j) W(ROWS - BLK + (i), j)\n"
         "#define A(i, j) out0.v[base + (i) * n + (j)]\n"
         "shared int s_orig[ROWS], s_rstep[ROWS], s_step[BLK];\n"
         "shared int s_info, s_at[BLK], s_loc[BLK], s_src[2 * BLK], s_dst[2 * BLK];\n" +
         partial_glsl(subgroups) + kGepp + kPivots + kMoveRows +
         "void main() {\n"
         "  int n = slot(pc.c0), j0 = slot(pc.c1), j1 = slot(pc.c2), o0 = slot(pc.c3);\n"
         "  int o1 = slot(pc.c4), mode = slot(pc.c5), sets = slot(pc.c6), groups = slot(pc.c7);\n"
         "  int w = j1 - j0, cap = ((n + ROWS - 1) / ROWS + 4) * BLK;\n" +
         kBatchLoop +
         "    int mat = int(b) / groups, g = int(b) % groups;\n"
         "    int base = mat * n * n, cin = mat * cap, cout = mat * cap + g * BLK;\n"
         "    if (mode == 3) {\n"
         "      if (int(t) < 2 * BLK) {\n"
         "        s_src[t] = out3.v[cin + int(t)];\n"
         "        s_dst[t] = out3.v[cin + 2 * BLK + int(t)];\n"
         "      }\n"
         "      int r0 = j1 + g * (ROWS - BLK), nr = sets > 0 ? clamp(n - r0, 0, ROWS - BLK) : 0;\n"
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        S(e / w, e % w) = A(j0 + e / w, j0 + e % w);\n"
         "      }\n"
         "      for (int e = int(t); e < nr * w; e += WG) {\n"
         "        W(e / w, e % w) = A(r0 + e / w, j0 + e % w);\n"
         "      }\n"
         "      SYNC_S();\n"
         "      int j = g * WG + int(t);\n"
         "      if (j < n - w) {\n"
         "        j = j < j0 ? j : j + w;\n"
         "        if (j < o0 || j >= j0) move_rows(base, n, j);\n"
         // U12 = L11⁻¹ A12 on the columns right of this panel, on the rows this invocation just
         // swapped: inside the outer panel, A12 as the GEMM updated it; right of it, less the
         // terms of the outer panel's earlier panels first (their U12 rows, left-looking), so
         // that the outer panel's rows there are final when its trailing update runs.
         "        if (j >= j1) {\n"
         "          T y[BLK];\n"
         "          [[unroll]] for (int r = 0; r < BLK; ++r) y[r] = r < w ? A(j0 + r, j) : T(0);\n"
         "          for (int l = j >= o1 ? o0 : j0; l < j0; ++l) {\n"
         "            T u = A(l, j);\n"
         "            [[unroll]] for (int r = 0; r < BLK; ++r) {\n"
         "              if (r < w) y[r] -= MUL(A(j0 + r, l), u);\n"
         "            }\n"
         "          }\n"
         "          [[unroll]] for (int l = 0; l < BLK; ++l) {\n"
         "            [[unroll]] for (int r = l + 1; r < BLK; ++r) {\n"
         "              if (r < w) y[r] -= MUL(S(r, l), y[l]);\n"
         "            }\n"
         "          }\n"
         "          [[unroll]] for (int r = 0; r < BLK; ++r) { if (r < w) A(j0 + r, j) = y[r]; }\n"
         "        }\n"
         "      }\n"
         // L21: each row divided by U11 column by column and updated from U's rows, in
         // registers (getf2's order: the same roundings as the rows factored in the panel).
         "      if (int(t) < nr) {\n"
         "        int i = int(t);\n"
         "        T x[BLK];\n"
         "        [[unroll]] for (int c = 0; c < BLK; ++c) x[c] = c < w ? W(i, c) : T(0);\n"
         "        [[unroll]] for (int c = 0; c < BLK; ++c) {\n"
         "          if (c < w) {\n"
         "            T d = S(c, c);\n"
         "            x[c] = d != T(0) ? DIV(x[c], d) : x[c];\n"
         "            [[unroll]] for (int q = c + 1; q < BLK; ++q) {\n"
         "              if (q < w) x[q] -= MUL(x[c], S(c, q));\n"
         "            }\n"
         "          }\n"
         "        }\n"
         "        [[unroll]] for (int c = 0; c < BLK; ++c) { if (c < w) W(i, c) = x[c]; }\n"
         "      }\n"
         "      SYNC_S();\n"
         "      for (int e = int(t); e < nr * w; e += WG) {\n"
         "        A(r0 + e / w, j0 + e % w) = W(e / w, e % w);\n"
         "      }\n"
         "      SYNC_S();\n"
         "      continue;\n"
         "    }\n"
         // The rows: a range of the panel's, or the candidate sets [g F, g F + F), F = ROWS / BLK.
         "    int nr;\n"
         "    if (sets == 0) {\n"
         "      int r0 = j0 + g * ROWS;\n"
         "      nr = clamp(n - r0, 0, ROWS);\n"
         "      for (int i = int(t); i < nr; i += WG) s_orig[i] = r0 + i;\n"
         "    } else {\n"
         "      int s0 = g * (ROWS / BLK);\n"
         "      nr = (min(s0 + ROWS / BLK, sets) - s0) * BLK;\n"
         "      for (int i = int(t); i < nr; i += WG) s_orig[i] = out3.v[cin + s0 * BLK + i];\n"
         "    }\n"
         "    if (t == 0u) s_info = mode == 2 && j0 > 0 ? out2.v[mat] : 0;\n"
         "    if (t < uint(BLK)) s_step[t] = -1;\n"
         "    SYNC_S();\n"
         "    for (int e = int(t); e < nr * w; e += WG) {\n"
         "      int r = s_orig[e / w];\n"
         "      W(e / w, e % w) = r >= 0 ? A(r, j0 + e % w) : T(0);\n"
         "    }\n"
         "    SYNC_S();\n"
         "    gepp(nr, w, mode == 2, j0);\n"
         "    if (mode < 2) {\n"
         "      if (int(t) < BLK) {\n"
         "        out4.v[cout + int(t)] = s_step[t] >= 0 ? s_orig[s_step[t]] : -1;\n"
         "      }\n"
         "      SYNC();\n"
         "      continue;\n"
         "    }\n"
         "    if (t == 0u) out2.v[mat] = s_info;\n"
         "    pivots(mat * n, j0, j1);\n"
         "    if (int(t) < 2 * BLK) {\n"
         "      out4.v[cout + int(t)] = s_src[t];\n"
         "      out4.v[cout + 2 * BLK + int(t)] = s_dst[t];\n"
         "    }\n"
         // The swaps of the outer panel's earlier columns here, not in the rows launch, which
         // reads them (U12 right of the outer panel). Candidates: the panel's rows below j1
         // take the rows moved down, then its first w rows the factored pivot rows. A range:
         // every row is W's, the pivot rows to the panel's first, the others where the swaps
         // leave them.
         "    if (int(t) < (sets > 0 ? j1 : j0) - o0) move_rows(base, n, o0 + int(t));\n"
         "    SYNC();\n"
         "    if (sets > 0) {\n"
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        A(j0 + e / w, j0 + e % w) = W(s_step[e / w], e % w);\n"
         "      }\n"
         "    } else {\n"
         "      for (int e = int(t); e < nr * w; e += WG) {\n"
         "        int i = e / w, r = s_orig[i], k = s_rstep[i];\n"
         "        int to = k >= 0 ? j0 + k : r < j1 ? s_loc[r - j0] : r;\n"
         "        A(to, j0 + e % w) = W(i, e % w);\n"
         "      }\n"
         "    }\n"
         "    SYNC();\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
