// The wide Jacobi eigensolvers of kernels/lib/linalg.h: the rotations of svd_jacobi / eigh_jacobi
// spread over the whole device, one launch per phase (and per round of a sweep), so that one
// large matrix keeps every compute unit busy. The host (array/linalg/wide.cc) sequences the
// phases and reads the done flags back after each sweep.
#include "kernels/lib/linalg.h"
#include "kernels/lib/linalg_jacobi.h"
#include "kernels/lib/scan.h"

namespace vka {
namespace {

// A workgroup tree over s_a (and s_b, s_g with `three`): `op` combines two entries; the
// result lies in [0], seen by every invocation after the last SYNC. Fixed order: deterministic.
std::string tree(const std::string& op, bool three) {
  return "      SYNC();\n"
         "      for (uint h = WG / 2; h > 0u; h >>= 1) {\n"
         "        if (t < h) {\n"
         "          s_a[t] = " + op + "(s_a[t], s_a[t + h]);\n" +
         (three ? "          s_b[t] += s_b[t + h];\n          s_g[t] += s_g[t + h];\n" : "") +
         "        }\n"
         "        SYNC();\n"
         "      }\n";
}

// Grid-stride loops: over items of one workgroup each (its invocations cooperating), or over
// items of one invocation each. `per` items per matrix, b the matrix, k the item.
constexpr const char* kGroupItems =
    "  int total = int(pc.n) * per;\n"
    "  for (int g = int(gl_WorkGroupID.x); g < total; g += int(gl_NumWorkGroups.x)) {\n"
    "    int b = g / per, k = g % per;\n"
    // The previous item's reads of shared memory are done.
    "    if (g != int(gl_WorkGroupID.x)) SYNC();\n";
constexpr const char* kInvocationItems =
    "  int total = int(pc.n) * per;\n"
    "  for (int g = int(gl_GlobalInvocationID.x); g < total;\n"
    "       g += int(gl_NumWorkGroups.x) * WG) {\n"
    "    int b = g / per, k = g % per;\n";

// The sweep's end (one invocation per matrix): a sweep that rotated nothing marks it done.
std::string sweep_end(const std::string& flags) {
  return "  if (phase == " + std::string("SWEEP_END") + ") {\n"
         "    int per = 1;\n" + kInvocationItems +
         "      if (" + flags + "[2 * b + 1] == 0) " + flags + "[2 * b] = 1;\n"
         "      " + flags + "[2 * b + 1] = 0;\n"
         "    }\n"
         "    return;\n"
         "  }\n";
}

// The rank of item k's value `x` among the n values `at(i)` (in the single mode's order,
// descending when `desc`), as a workgroup count; then `body` with `rank` known.
std::string ranked(const std::string& x, const std::string& at, bool desc,
                   const std::string& body) {
  return "      R xk = " + x + ";\n"
         "      int cnt = 0;\n"
         "      for (int i = int(t); i < n; i += WG) {\n"
         "        R xi = " + at + ";\n"
         "        if (before(xi, i, xk, k, " + (desc ? "true" : "false") + ")) ++cnt;\n"
         "      }\n"
         "      s_a[t] = R(cnt);\n" + tree("ADD", false) +
         "      int rank = int(s_a[0]);\n" + body;
}

// ||A||_F of the e < count elements at(e), scaled by the largest entry (no overflow), into
// `dest` (as `as`) by invocation 0.
std::string frobenius(const std::string& count, const std::string& at, const std::string& dest,
                      const std::string& as) {
  return "      R mx = R(0);\n"
         "      for (int e = int(t); e < " + count + "; e += WG) mx = max(mx, ABSV(" + at + "));\n"
         "      s_a[t] = mx;\n" + tree("max", false) +
         "      mx = s_a[0];\n"
         "      SYNC();\n"
         "      R ss = R(0);\n"
         "      if (mx > R(0)) {\n"
         "        for (int e = int(t); e < " + count + "; e += WG) ss += ABS2(" + at + " / mx);\n"
         "      }\n"
         "      s_a[t] = ss;\n" + tree("ADD", false) +
         "      if (t == 0u) " + dest + " = " + as + "(mx * sqrt(s_a[0]));\n";
}

// The wide SVD's workgroup (one per column pair): enough invocations for the rows of large
// matrices, few enough that a tree over them costs little.
constexpr int kSvdWideThreads = 128;

constexpr const char* kShared =
    "#define ADD(x, y) ((x) + (y))\n"
    "#define SWEEP_END 2\n"
    "shared R s_a[WG];\n"
    "shared R s_b[WG];\n"
    "shared T s_g[WG];\n";

}  // namespace

KernelSpec svd_jacobi_wide_spec(DType t) {
  const DType r = real_dtype(t);
  return library_spec(KernelKind::kSvdJacobiWide, {}, {t, t, t, r, t, r, DType::kInt32}, 5);
}

KernelSpec eigh_jacobi_wide_spec(DType t) {
  return library_spec(KernelKind::kEighJacobiWide, {}, {t, t, real_dtype(t), t, t, DType::kInt32},
                      4);
}

std::string emit_svd_jacobi_wide(const KernelSpec& spec) {
  return linalg_preamble(spec, kSvdWideThreads) + jacobi_pairs_glsl() + kShared +
         // Column j of A is row j of out0 (and of V, out1): the rotations' accesses coalesce.
         "#define AT(j, i) out0.v[abase + (j) * m + (i)]\n"
         "#define VC(j, i) out1.v[vbase + (j) * n + (i)]\n"
         "#define U(i, j) out2.v[ubase + (i) * uc + (j)]\n"
         "#define VH(i, j) out4.v[vbase + (i) * n + (j)]\n"
         "#define SC(j) out5.v[b * (n + 1) + (j)]\n"
         "void main() {\n"
         "  int m = slot(pc.c0), n = slot(pc.c1), uc = slot(pc.c2);\n"
         "  int phase = slot(pc.c3), r = slot(pc.c4);\n"
         "  int np = n + (n & 1);\n"
         "  R tol = R(m) * EPS;\n"
         "  uint t = gl_LocalInvocationID.x;\n" + sweep_end("out6.v") +
         "  int per = phase == 0 ? 1 : phase == 1 ? np / 2 : n;\n" + kGroupItems +
         "    int abase = b * m * n, vbase = b * n * n, ubase = b * m * uc;\n"
         "    if (phase == 0) {\n"
         // V = I, U's columns past n zero, the flags clear, ||A||_F in SC(n): the rotations'
         // absolute floor.
         "      for (int e = int(t); e < n * n; e += WG) {\n"
         "        out1.v[vbase + e] = e / n == e % n ? TR(1) : T(0);\n"
         "      }\n"
         "      for (int e = int(t); e < m * (uc - n); e += WG) {\n"
         "        U(e / (uc - n), n + e % (uc - n)) = T(0);\n"
         "      }\n"
         "      if (t == 0u) { out6.v[2 * b] = 0; out6.v[2 * b + 1] = 0; }\n" +
         frobenius("m * n", "out0.v[abase + e]", "SC(n)", "R") +
         "    } else if (phase == 1) {\n"
         // Pair k of round r: the three dot products by a workgroup tree, then the rotation of
         // both columns and of V's (the thresholds of the single mode).
         // The done flag is not written in this launch: every invocation reads the same.
         "      int p, q;\n"
         "      pair_of(k, r, np, p, q);\n"
         "      if (out6.v[2 * b] != 0 || q >= n) continue;\n"
         "      R al = R(0), be = R(0);\n"
         "      T ga = T(0);\n"
         "      for (int i = int(t); i < m; i += WG) {\n"
         "        T x = AT(p, i), y = AT(q, i);\n"
         "        al += ABS2(x); be += ABS2(y); ga += MUL(CONJ(x), y);\n"
         "      }\n"
         "      s_a[t] = al; s_b[t] = be; s_g[t] = ga;\n" + tree("ADD", true) +
         "      al = s_a[0]; be = s_b[0]; ga = s_g[0];\n"
         "      R g = ABSV(ga);\n"
         "      if (g > tol * sqrt(al) * sqrt(be) && sqrt(g) > EPS * SC(n)) {\n"
         "        if (t == 0u) atomicAdd(out6.v[2 * b + 1], 1);\n"
         "        T ph;\n"
         "        R c, sn;\n"
         "        rotation_of(ga, g, al, be, ph, c, sn);\n"
         "        for (int i = int(t); i < m; i += WG) {\n"
         "          T x = AT(p, i), y = MUL(AT(q, i), ph);\n"
         "          AT(p, i) = c * x - sn * y; AT(q, i) = sn * x + c * y;\n"
         "        }\n"
         "        for (int i = int(t); i < n; i += WG) {\n"
         "          T x = VC(p, i), y = MUL(VC(q, i), ph);\n"
         "          VC(p, i) = c * x - sn * y; VC(q, i) = sn * x + c * y;\n"
         "        }\n"
         "      }\n"
         "    } else if (phase == 3) {\n"
         // Column k's norm (its singular value); the done flag becomes "did not converge".
         "      R ss = R(0);\n"
         "      for (int i = int(t); i < m; i += WG) ss += ABS2(AT(k, i));\n"
         "      s_a[t] = ss;\n" + tree("ADD", false) +
         "      if (t == 0u) SC(k) = sqrt(s_a[0]);\n"
         "      if (t == 0u && k == 0) out6.v[2 * b] = out6.v[2 * b] != 0 ? 0 : 1;\n"
         "    } else {\n" +
         // Column k's place in descending order: its singular value, U's column (zero for
         // singular values at most eps ||A||_F, as the single mode's), Vᴴ's row.
         ranked("SC(k)", "SC(i)", true,
                "      if (t == 0u) out3.v[b * n + rank] = xk;\n"
                "      if (uc > 0) {\n"
                "        for (int i = int(t); i < m; i += WG) {\n"
                "          U(i, rank) = xk > EPS * SC(n) ? AT(k, i) / xk : T(0);\n"
                "        }\n"
                "        for (int i = int(t); i < n; i += WG) VH(rank, i) = CONJ(VC(k, i));\n"
                "      }\n") +
         "    }\n"
         "  }\n"
         "}\n";
}

std::string emit_eigh_jacobi_wide(const KernelSpec& spec) {
  return linalg_preamble(spec) + jacobi_pairs_glsl() + kShared +
         "#define A(i, j) out0.v[abase + (i) * n + (j)]\n"
         "#define V(i, j) out1.v[abase + (i) * n + (j)]\n"
         "#define X(i, j) out3.v[abase + (i) * n + (j)]\n"
         "#define CS(i) out4.v[b * (2 * n + 4) + (i)]\n"
         // Two rotations of (x, y) by pair `pr`'s (c, s, phase): its rows (the phase conjugated
         // on the second) and its columns.
         "#define ROWS(x, y, c, s, ph) { T x0 = x, y0 = MUL(CONJ(ph), y); "
         "x = c * x0 - s * y0; y = s * x0 + c * y0; }\n"
         "#define COLS(x, y, c, s, ph) { T x0 = x, y0 = MUL(y, ph); "
         "x = c * x0 - s * y0; y = s * x0 + c * y0; }\n"
         "void main() {\n"
         "  int n = slot(pc.c0);\n"
         "  bool vec = slot(pc.c1) != 0;\n"
         "  int phase = slot(pc.c2), r = slot(pc.c3);\n"
         "  int np = n + (n & 1), hp = np / 2;\n"
         "  uint t = gl_LocalInvocationID.x;\n" + sweep_end("out5.v") +
         "  if (phase == 1 || phase == 3) {\n"
         "    int per = phase == 1 ? hp : hp * hp + (vec ? n * hp : 0);\n" +
         kInvocationItems +
         "      int abase = b * n * n;\n"
         "      if (out5.v[2 * b] != 0) continue;\n"
         "      if (phase == 1) {\n"
         // Pair k's rotation (c, s, phase), as the single mode computes it: identity when
         // a_pq is below eps·sqrt(|a_pp a_qq|) or eps² ‖A‖, and for the odd n's dummy pair.
         "        int p, q;\n"
         "        pair_of(k, r, np, p, q);\n"
         "        R c = R(1), sn = R(0);\n"
         "        T ph = TR(1);\n"
         "        if (q < n) {\n"
         "          R floor_ = EPS * EPS * RE(CS(2 * n + 3));\n"
         "          T apq = A(p, q);\n"
         "          R g = ABSV(apq), app = RE(A(p, p)), aqq = RE(A(q, q));\n"
         "          if (g > max(EPS * sqrt(abs(app)) * sqrt(abs(aqq)), floor_)) {\n"
         "            atomicAdd(out5.v[2 * b + 1], 1);\n"
         "            rotation_of(apq, g, app, aqq, ph, c, sn);\n"
         "          }\n"
         "        }\n"
         "        CS(3 * k) = TR(c); CS(3 * k + 1) = TR(sn); CS(3 * k + 2) = ph;\n"
         "      } else if (k < hp * hp) {\n"
         // The 2×2 block (rows of pair I, columns of pair J): the rows' rotation, then the
         // columns' (the single mode's order, element by element). Blocks are disjoint, so
         // each element is read and written by one invocation. Indices >= n (the dummy of odd
         // n) are absent: their pair's s is 0.
         "        int I = k / hp, J = k % hp, pi, qi, pj, qj;\n"
         "        R si = RE(CS(3 * I + 1)), sj = RE(CS(3 * J + 1));\n"
         "        if (si == R(0) && sj == R(0)) continue;\n"
         "        pair_of(I, r, np, pi, qi);\n"
         "        pair_of(J, r, np, pj, qj);\n"
         "        bool hi = qi < n, hj = qj < n;\n"
         "        T a00 = A(pi, pj), a01 = hj ? A(pi, qj) : T(0);\n"
         "        T a10 = hi ? A(qi, pj) : T(0), a11 = hi && hj ? A(qi, qj) : T(0);\n"
         "        if (si != R(0)) {\n"
         "          R ci = RE(CS(3 * I));\n"
         "          T phi = CS(3 * I + 2);\n"
         "          ROWS(a00, a10, ci, si, phi);\n"
         "          ROWS(a01, a11, ci, si, phi);\n"
         "        }\n"
         "        if (sj != R(0)) {\n"
         "          R cj = RE(CS(3 * J));\n"
         "          T phj = CS(3 * J + 2);\n"
         "          COLS(a00, a01, cj, sj, phj);\n"
         "          COLS(a10, a11, cj, sj, phj);\n"
         "        }\n"
         "        A(pi, pj) = a00;\n"
         "        if (hj) A(pi, qj) = a01;\n"
         "        if (hi) A(qi, pj) = a10;\n"
         "        if (hi && hj) A(qi, qj) = a11;\n"
         "      } else {\n"
         // Row j of V, columns of pair J.
         "        int e = k - hp * hp, j = e / hp, J = e % hp, pj, qj;\n"
         "        R sj = RE(CS(3 * J + 1));\n"
         "        if (sj == R(0)) continue;\n"
         "        pair_of(J, r, np, pj, qj);\n"
         "        T x = V(j, pj), y = V(j, qj);\n"
         "        COLS(x, y, RE(CS(3 * J)), sj, CS(3 * J + 2));\n"
         "        V(j, pj) = x; V(j, qj) = y;\n"
         "      }\n"
         "    }\n"
         "    return;\n"
         "  }\n"
         "  int per = phase == 0 ? 1 : n;\n" + kGroupItems +
         "    int abase = b * n * n;\n"
         "    if (phase == 0) {\n"
         // The Hermitian matrix of the lower triangle (real diagonal), V = I, the flags clear
         // and ‖A‖_F at CS(2n + 3).
         "      for (int e = int(t); e < n * n; e += WG) {\n"
         "        int i = e / n, j = e % n;\n"
         "        if (j > i) A(i, j) = CONJ(A(j, i));\n"
         "        if (j == i) A(i, i) = TR(RE(A(i, i)));\n"
         "        V(i, j) = i == j ? TR(1) : T(0);\n"
         "      }\n"
         "      if (t == 0u) { out5.v[2 * b] = 0; out5.v[2 * b + 1] = 0; }\n" +
         "      SYNC();\n" + frobenius("n * n", "out0.v[abase + e]", "CS(2 * n + 3)", "TR") +
         "    } else {\n" +
         // Eigenvalue k's place in ascending order; the done flag becomes "did not converge".
         ranked("RE(A(k, k))", "RE(A(i, i))", false,
                "      if (t == 0u) out2.v[b * n + rank] = xk;\n"
                "      if (t == 0u && k == 0) out5.v[2 * b] = out5.v[2 * b] != 0 ? 0 : 1;\n"
                "      if (vec) {\n"
                "        for (int i = int(t); i < n; i += WG) X(i, rank) = V(i, k);\n"
                "      }\n") +
         "    }\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
