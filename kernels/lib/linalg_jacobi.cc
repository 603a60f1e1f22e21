// The Jacobi eigensolvers of kernels/lib/linalg.h: one-sided (Hestenes) SVD and two-sided
// symmetric eigh. Both rotate disjoint index pairs in parallel, in the round-robin
// ("circle") order that meets every pair once per sweep of np - 1 steps, and sweep until a
// whole sweep rotates nothing (or kJacobiSweeps: the info flag). Results are sorted on the
// device by rank (ties by index, NaNs first), so the order is deterministic.
#include "kernels/lib/linalg_jacobi.h"

#include "kernels/lib/linalg.h"

namespace vka {
namespace {

// Player of seat `seat` in round r of the circle method over np (even) players.
constexpr const char* kPlayer =
    "int player(int seat, int r, int np) { return seat == 0 ? 0 : (seat - 1 + r) % (np - 1) + 1; "
    "}\n"
    "void pair_of(int pr, int r, int np, out int p, out int q) {\n"
    "  p = player(pr, r, np); q = player(np - 1 - pr, r, np);\n"
    "  if (p > q) { int x = p; p = q; q = x; }\n"
    "}\n"
    // tan of the rotation angle for cot(2θ) = z: the smaller root of t² + 2zt - 1 = 0.
    "R tan_of(R z) {\n"
    "  R az = abs(z);\n"
    "  R tt = az > BIG ? R(0.5) / az : R(1) / (az + sqrt(R(1) + az * az));\n"
    "  return z < R(0) ? -tt : tt;\n"
    "}\n"
    // The rotation of a pair coupled by w (g = |w| > 0) between diagonal terms x and y: the
    // phase ph that makes w real, then cos and sin of the real rotation that decouples them.
    "void rotation_of(T w, R g, R x, R y, out T ph, out R c, out R sn) {\n"
    "  ph = CONJ(w / g);\n"
    "  R tt = tan_of((y - x) / (R(2) * g));\n"
    "  c = R(1) / sqrt(R(1) + tt * tt);\n"
    "  sn = c * tt;\n"
    "}\n"
    // Result order: value i before value k (descending when desc), NaNs first, ties by index:
    // a total order, so the ranks are a permutation even for NaN input.
    "bool before(R xi, int i, R xk, int k, bool desc) {\n"
    "  bool ni = isnan(xi), nk = isnan(xk);\n"
    "  if (ni || nk) return ni && (!nk || i < k);\n"
    "  return (desc ? xi > xk : xi < xk) || (xi == xk && i < k);\n"
    "}\n";

// Step s of [s0, s1): 0 initializes, 1 .. kSweeps·(np - 1) are the rotation steps (sweep
// (s - 1) / (np - 1)), the last one writes the sorted results. flags (2 int32 per matrix):
// [0] done (a whole sweep rotated nothing; later steps return at once), [1] rotations in the
// current sweep; the last step turns [0] into "did not converge". Launches are split into step
// ranges that keep each invocation's loop count bounded (llvmpipe's limit).
std::string steps(const std::string& from, const std::string& to) {
  return "  int np = n + (n & 1);\n"
         "  int last = 1 + " + std::to_string(kJacobiSweeps) + " * (np - 1);\n"
         "  int s0 = slot(pc." + from + "), s1 = min(slot(pc." + to + "), last + 1);\n";
}

// The bookkeeping around one rotation step (r: its place in the sweep), `body` rotating.
std::string rotation_step(const std::string& flags, const std::string& body) {
  return "        if (t == 0u) s_done = " + flags + "[2 * int(b)];\n"
         "        SYNC();\n"
         "        if (s_done != 0) continue;\n"
         "        int r = (s - 1) % (np - 1);\n" + body +
         "        if (r == np - 2) {\n"
         "          if (t == 0u) {\n"
         "            if (" + flags + "[2 * int(b) + 1] == 0) " + flags + "[2 * int(b)] = 1;\n"
         "            " + flags + "[2 * int(b) + 1] = 0;\n"
         "          }\n"
         "          SYNC();\n"
         "        }\n";
}

}  // namespace

std::string jacobi_pairs_glsl() { return kPlayer; }

std::string emit_svd_jacobi(const KernelSpec& spec) {
  return linalg_preamble(spec) + kPlayer +
         "#define A(i, j) out0.v[abase + (i) * n + (j)]\n"
         "#define V(i, j) out1.v[vbase + (i) * n + (j)]\n"
         "#define U(i, j) out2.v[ubase + (i) * uc + (j)]\n"
         "#define VT(i, j) out4.v[vbase + (i) * n + (j)]\n"
         "shared int s_done;\n"
         "void main() {\n"
         "  int m = slot(pc.c0), n = slot(pc.c1), uc = slot(pc.c2);\n" + steps("c3", "c4") +
         "  R tol = R(m) * EPS;\n"
         "  uint t = gl_LocalInvocationID.x;\n"
         "  for (uint b = gl_WorkGroupID.x; b < uint(pc.n); b += gl_NumWorkGroups.x) {\n"
         "    int abase = int(b) * m * n, vbase = int(b) * n * n, sbase = int(b) * n;\n"
         "    int ubase = int(b) * m * uc;\n"
         "    for (int s = s0; s < s1; ++s) {\n"
         "      if (s == 0) {\n"
         "        for (int e = int(t); e < n * n; e += WG) {\n"
         "          V(e / n, e % n) = e / n == e % n ? TR(1) : T(0);\n"
         "        }\n"
         "        if (t == 0u) { out6.v[2 * int(b)] = 0; out6.v[2 * int(b) + 1] = 0; }\n"
         // ||A||_F (scaled by the largest entry: no overflow) parks in the singular values'
         // first slot until the last step writes them: the rotations' absolute floor.
         "        if (t == 0u && n > 0) {\n"
         "          R mx = R(0), ss = R(0);\n"
         "          for (int e = 0; e < m * n; ++e) mx = max(mx, ABSV(out0.v[abase + e]));\n"
         "          if (mx > R(0)) {\n"
         "            for (int e = 0; e < m * n; ++e) ss += ABS2(out0.v[abase + e] / mx);\n"
         "          }\n"
         "          out5.v[sbase] = mx * sqrt(ss);\n"
         "        }\n"
         "        SYNC();\n"
         "      } else if (s < last) {\n" +
         rotation_step("out6.v",
                       "        for (int pr = int(t); pr < np / 2; pr += WG) {\n"
                       "          int p, q;\n"
                       "          pair_of(pr, r, np, p, q);\n"
                       "          if (q >= n) continue;\n"
                       "          R al = R(0), be = R(0);\n"
                       "          T ga = T(0);\n"
                       "          for (int i = 0; i < m; ++i) {\n"
                       "            T x = A(i, p), y = A(i, q);\n"
                       "            al += ABS2(x); be += ABS2(y); ga += MUL(CONJ(x), y);\n"
                       "          }\n"
                       "          R g = ABSV(ga);\n"
                       // Pairs whose product is below (eps ||A||_F)^2 are left alone: a
                       // column reduced to rounding noise would otherwise keep turning
                       // (seen for rank-deficient matrices of repeated columns).
                       "          if (g > tol * sqrt(al) * sqrt(be) &&\n"
                       "              sqrt(g) > EPS * out5.v[sbase]) {\n"
                       "            atomicAdd(out6.v[2 * int(b) + 1], 1);\n"
                       // Column q turned by the phase of ga makes the pair's product real;
                       // then the real rotation that orthogonalizes them.
                       "            T ph;\n"
                       "            R c, sn;\n"
                       "            rotation_of(ga, g, al, be, ph, c, sn);\n"
                       "            for (int i = 0; i < m; ++i) {\n"
                       "              T x = A(i, p), y = MUL(A(i, q), ph);\n"
                       "              A(i, p) = c * x - sn * y; A(i, q) = sn * x + c * y;\n"
                       "            }\n"
                       "            for (int i = 0; i < n; ++i) {\n"
                       "              T x = V(i, p), y = MUL(V(i, q), ph);\n"
                       "              V(i, p) = c * x - sn * y; V(i, q) = sn * x + c * y;\n"
                       "            }\n"
                       "          }\n"
                       "        }\n"
                       "        SYNC();\n") +
         "      } else {\n"
         // Column norms are the singular values; each one's rank is its sorted place. U's
         // columns of singular values at most eps ||A||_F, and past n, stay zero
         // (array/linalg/linalg.cc completes them): the rotations leave such columns unorthogonalized.
         "        R floor_ = EPS * out5.v[sbase];\n"
         "        SYNC();\n"
         "        if (t == 0u) { out6.v[2 * int(b)] = out6.v[2 * int(b)] != 0 ? 0 : 1; }\n"
         "        for (int j = int(t); j < n; j += WG) {\n"
         "          R ss = R(0);\n"
         "          for (int i = 0; i < m; ++i) ss += ABS2(A(i, j));\n"
         "          out5.v[sbase + j] = sqrt(ss);\n"
         "        }\n"
         "        for (int e = int(t); e < m * (uc - n); e += WG) U(e / (uc - n), n + e % (uc - n)) = T(0);\n"
         "        SYNC();\n"
         "        for (int j = int(t); j < n; j += WG) {\n"
         "          R sj = out5.v[sbase + j];\n"
         "          int rank = 0;\n"
         "          for (int i = 0; i < n; ++i) {\n"
         "            R si = out5.v[sbase + i];\n"
         "            if (before(si, i, sj, j, true)) ++rank;\n"
         "          }\n"
         "          out3.v[sbase + rank] = sj;\n"
         "          if (uc > 0) {\n"
         "            for (int i = 0; i < m; ++i) U(i, rank) = sj > floor_ ? A(i, j) / sj : T(0);\n"
         "            for (int i = 0; i < n; ++i) VT(rank, i) = CONJ(V(i, j));\n"
         "          }\n"
         "        }\n"
         "        SYNC();\n"
         "      }\n"
         "    }\n"
         "  }\n"
         "}\n";
}

std::string emit_eigh_jacobi(const KernelSpec& spec) {
  return linalg_preamble(spec) + kPlayer +
         "#define A(i, j) out0.v[abase + (i) * n + (j)]\n"
         "#define V(i, j) out1.v[abase + (i) * n + (j)]\n"
         "#define X(i, j) out3.v[abase + (i) * n + (j)]\n"
         "#define CS(i) out4.v[cbase + (i)]\n"
         "shared int s_done;\n"
         "void main() {\n"
         "  int n = slot(pc.c0);\n"
         "  bool vec = slot(pc.c1) != 0;\n" +
         steps("c2", "c3") +
         "  uint t = gl_LocalInvocationID.x;\n"
         "  for (uint b = gl_WorkGroupID.x; b < uint(pc.n); b += gl_NumWorkGroups.x) {\n"
         "    int abase = int(b) * n * n, cbase = int(b) * (2 * n + 4), wbase = int(b) * n;\n"
         "    for (int s = s0; s < s1; ++s) {\n"
         "      if (s == 0) {\n"
         // The Hermitian matrix of the lower triangle (real diagonal), V = I, and ‖A‖ (kept
         // at CS(2n + 3)).
         "        for (int e = int(t); e < n * n; e += WG) {\n"
         "          int i = e / n, j = e % n;\n"
         "          if (j > i) A(i, j) = CONJ(A(j, i));\n"
         "          if (j == i) A(i, i) = TR(RE(A(i, i)));\n"
         "          V(i, j) = i == j ? TR(1) : T(0);\n"
         "        }\n"
         "        SYNC();\n"
         "        if (t == 0u) {\n"
         "          R mx = R(0), ss = R(0);\n"
         "          for (int e = 0; e < n * n; ++e) mx = max(mx, ABSV(out0.v[abase + e]));\n"
         "          if (mx > R(0)) {\n"
         "            for (int e = 0; e < n * n; ++e) ss += ABS2(out0.v[abase + e] / mx);\n"
         "          }\n"
         "          CS(2 * n + 3) = TR(mx * sqrt(ss));\n"
         "          out5.v[2 * int(b)] = 0; out5.v[2 * int(b) + 1] = 0;\n"
         "        }\n"
         "        SYNC();\n"
         "      } else if (s < last) {\n" +
         rotation_step("out5.v",
                       // Off-diagonal elements below eps² ‖A‖ are left alone: no rotation
                       // shrinks them below its own rounding. Each pair stores (c, s, phase):
                       // column q turned by the phase makes a_pq real, then the real rotation.
                       "        R floor_ = EPS * EPS * RE(CS(2 * n + 3));\n"
                       "        for (int pr = int(t); pr < np / 2; pr += WG) {\n"
                       "          int p, q;\n"
                       "          pair_of(pr, r, np, p, q);\n"
                       "          R c = R(1), sn = R(0);\n"
                       "          T ph = TR(1);\n"
                       "          if (q < n) {\n"
                       "            T apq = A(p, q);\n"
                       "            R g = ABSV(apq), app = RE(A(p, p)), aqq = RE(A(q, q));\n"
                       "            if (g > max(EPS * sqrt(abs(app)) * sqrt(abs(aqq)), floor_)) {\n"
                       "              atomicAdd(out5.v[2 * int(b) + 1], 1);\n"
                       "              rotation_of(apq, g, app, aqq, ph, c, sn);\n"
                       "            }\n"
                       "          }\n"
                       "          CS(3 * pr) = TR(c); CS(3 * pr + 1) = TR(sn); CS(3 * pr + 2) = ph;\n"
                       "        }\n"
                       "        SYNC();\n"
                       "        for (int e = int(t); e < (np / 2) * n; e += WG) {\n"
                       "          int pr = e / n, j = e % n, p, q;\n"
                       "          R sn = RE(CS(3 * pr + 1));\n"
                       "          if (sn == R(0)) continue;\n"
                       "          pair_of(pr, r, np, p, q);\n"
                       "          R c = RE(CS(3 * pr));\n"
                       "          T x = A(p, j), y = MUL(CONJ(CS(3 * pr + 2)), A(q, j));\n"
                       "          A(p, j) = c * x - sn * y; A(q, j) = sn * x + c * y;\n"
                       "        }\n"
                       "        SYNC();\n"
                       "        for (int e = int(t); e < (np / 2) * n; e += WG) {\n"
                       "          int pr = e / n, j = e % n, p, q;\n"
                       "          R sn = RE(CS(3 * pr + 1));\n"
                       "          if (sn == R(0)) continue;\n"
                       "          pair_of(pr, r, np, p, q);\n"
                       "          R c = RE(CS(3 * pr));\n"
                       "          T ph = CS(3 * pr + 2);\n"
                       "          T x = A(j, p), y = MUL(A(j, q), ph);\n"
                       "          A(j, p) = c * x - sn * y; A(j, q) = sn * x + c * y;\n"
                       "          x = V(j, p); y = MUL(V(j, q), ph);\n"
                       "          V(j, p) = c * x - sn * y; V(j, q) = sn * x + c * y;\n"
                       "        }\n"
                       "        SYNC();\n") +
         "      } else {\n"
         "        if (t == 0u) { out5.v[2 * int(b)] = out5.v[2 * int(b)] != 0 ? 0 : 1; }\n"
         "        for (int j = int(t); j < n; j += WG) CS(j) = TR(RE(A(j, j)));\n"
         "        SYNC();\n"
         "        for (int j = int(t); j < n; j += WG) {\n"
         "          R wj = RE(CS(j));\n"
         "          int rank = 0;\n"
         "          for (int i = 0; i < n; ++i) {\n"
         "            R wi = RE(CS(i));\n"
         "            if (before(wi, i, wj, j, false)) ++rank;\n"
         "          }\n"
         "          out2.v[wbase + rank] = wj;\n"
         "          if (vec) {\n"
         "            for (int i = 0; i < n; ++i) X(i, rank) = V(i, j);\n"
         "          }\n"
         "        }\n"
         "        SYNC();\n"
         "      }\n"
         "    }\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
