// Householder QR's GLSL (kernels/lib/linalg.h: qr_spec): the unblocked factorization and Q for
// small matrices, and the panel factorization of the blocked one (array/linalg/qr.cc).
#include <string>

#include "kernels/lib/linalg.h"
#include "kernels/lib/linalg_jacobi.h"

namespace vka {
namespace {

// The reflector of column k (dlarfg/zlarfg: beta = -sign(alpha)·‖x‖, tau = (beta - alpha)/beta,
// v = x / (alpha - beta), the norm scaled by the largest element against overflow): two trees
// in shared memory, one invocation forming tau, every invocation scaling its rows of v. Leaves
// tau in `tau` (uniform) with every write behind a barrier; barriers that order only shared
// memory are SYNC_S (linalg.cc).
constexpr const char* kReflector =
    "        R part = R(0);\n"
    "        for (int i = k + 1 + int(t); i < m; i += WG) part = max(part, ABSV(A(i, k)));\n"
    "        s_red[t] = part;\n"
    "        SYNC_S();\n"
    "        for (uint h = WG / 2; h > 0u; h >>= 1) {\n"
    "          if (t < h) s_red[t] = max(s_red[t], s_red[t + h]);\n"
    "          SYNC_S();\n"
    "        }\n"
    "        R mx = s_red[0];\n"
    "        SYNC_S();\n"
    "        part = R(0);\n"
    "        if (mx > R(0)) {\n"
    "          for (int i = k + 1 + int(t); i < m; i += WG) {\n"
    "            T x = A(i, k) / mx;\n"
    "            part += ABS2(x);\n"
    "          }\n"
    "        }\n"
    "        s_red[t] = part;\n"
    "        SYNC_S();\n"
    "        for (uint h = WG / 2; h > 0u; h >>= 1) {\n"
    "          if (t < h) s_red[t] = s_red[t] + s_red[t + h];\n"
    "          SYNC_S();\n"
    "        }\n"
    "        if (t == 0u) {\n"
    "          T alpha = A(k, k), tau = T(0), scale = T(0);\n"
    "          R ss = s_red[0];\n"
    // zlarfg: no reflector when x is zero and alpha real.
    "          if (mx > R(0) || IM(alpha) != R(0)) {\n"
    "            R xn = mx * sqrt(ss), aa = ABSV(alpha);\n"
    "            R hi = max(aa, xn), lo = min(aa, xn);\n"
    "            R h = hi * sqrt(R(1) + (lo / hi) * (lo / hi));\n"
    "            R beta = RE(alpha) >= R(0) ? -h : h;\n"
    "            tau = MAKE((beta - RE(alpha)) / beta, -IM(alpha) / beta);\n"
    "            scale = DIV(TR(1), alpha - TR(beta));\n"
    "            A(k, k) = TR(beta);\n"
    "          }\n"
    "          s_tau = tau;\n"
    "          s_scale = scale;\n"
    "          out1.v[tbase + k] = tau;\n"
    "        }\n"
    // A(k, k) is read again only after a later SYNC: shared memory alone here.
    "        SYNC_S();\n"
    "        T tau = s_tau, scale = s_scale;\n"
    "        if (tau != T(0)) {\n"
    "          for (int i = k + 1 + int(t); i < m; i += WG) A(i, k) = MUL(A(i, k), scale);\n"
    "        }\n"
    "        SYNC();\n";

// Unblocked (nb = 0), steps s in [s0, s1) of kmin (+ kmin when q > 0): s < kmin forms the
// reflector of column s and each invocation applies it to its own trailing columns; s >= kmin
// accumulates Q backwards from the identity, H_0 (H_1 (... I)), one reflector per step. The
// launch that ends the steps zeroes R below the diagonal.
constexpr const char* kUnblocked =
    "    int total = q > 0 ? 2 * kmin : kmin;\n"
    "    for (int s = s0; s < min(s1, total); ++s) {\n"
    "      if (s < kmin) {\n"
    "        int k = s;\n"
    "%REFLECTOR%"
    "        if (tau != T(0)) {\n"
    "          for (int j = k + 1 + int(t); j < n; j += WG) {\n"
    "            T w = A(k, j);\n"
    "            for (int i = k + 1; i < m; ++i) w += MUL(CONJ(A(i, k)), A(i, j));\n"
    "            w = MUL(CONJ(tau), w);\n"
    "            A(k, j) = A(k, j) - w;\n"
    "            for (int i = k + 1; i < m; ++i) A(i, j) = A(i, j) - MUL(A(i, k), w);\n"
    "          }\n"
    "        }\n"
    "        SYNC();\n"
    "      } else {\n"
    "        if (s == kmin) {\n"
    "          for (int e = int(t); e < m * q; e += WG) {\n"
    "            out2.v[qbase + e] = e / q == e % q ? TR(1) : T(0);\n"
    "          }\n"
    "          SYNC();\n"
    "        }\n"
    "        int k = 2 * kmin - 1 - s;\n"
    "        T tau = out1.v[tbase + k];\n"
    "        if (tau != T(0)) {\n"
    "          for (int j = int(t); j < q; j += WG) {\n"
    "            T w = Q(k, j);\n"
    "            for (int i = k + 1; i < m; ++i) w += MUL(CONJ(A(i, k)), Q(i, j));\n"
    "            w = MUL(tau, w);\n"
    "            Q(k, j) = Q(k, j) - w;\n"
    "            for (int i = k + 1; i < m; ++i) Q(i, j) = Q(i, j) - MUL(A(i, k), w);\n"
    "          }\n"
    "        }\n"
    "        SYNC();\n"
    "      }\n"
    "    }\n"
    "    if (s1 >= total) {\n"
    "      for (int e = int(t); e < m * n; e += WG) {\n"
    "        if (e / n > e % n) out0.v[abase + e] = T(0);\n"
    "      }\n"
    "    }\n"
    "    SYNC();\n";

// One panel [j0, j1) of the blocked factorization (nb > 0), steps s in [s0, s1) of [j0, j1]:
// s < j1 forms the reflector of column k = s and applies it to the panel's columns (k, j1),
// the invocations laid out as LANES columns × GROUPS row groups (a column's dot product summed
// over the groups in a fixed order); the same pass forms S(j, k) = v_jᴴ v_k for the panel's
// earlier columns and with it column k - j0 of the compact WY factor T (larft:
// T(0:c, c) = -tau T(0:c, 0:c) S(0:c, c), T(c, c) = tau, zero below). Step j1 copies V (unit
// diagonal, zeros above) into out3 and zeroes the panel below R's diagonal.
constexpr const char* kPanel =
    "    int w = j1 - j0;\n"
    "    uint lane = t % uint(LANES), g = t / uint(LANES);\n"
    "    int j = j0 + int(lane);\n"
    "    for (int s = s0; s < min(s1, j1 + 1); ++s) {\n"
    "      if (s < j1) {\n"
    "        int k = s;\n"
    "%REFLECTOR%"
    "        T dot = T(0);\n"
    "        if (j > k && j < j1) {\n"
    "          if (g == 0u) dot = A(k, j);\n"
    "          GROUP_ROWS(i) dot += MUL(CONJ(A(i, k)), A(i, j));\n"
    "        } else if (j < k) {\n"
    "          if (g == 0u) dot = CONJ(A(k, j));\n"
    "          GROUP_ROWS(i) dot += MUL(CONJ(A(i, j)), A(i, k));\n"
    "        }\n"
    "        s_part[t] = dot;\n"
    "        SYNC_S();\n"
    "        if (t < uint(LANES)) {\n"
    "          T acc = T(0);\n"
    "          for (int h = 0; h < GROUPS; ++h) acc += s_part[h * LANES + int(t)];\n"
    "          s_col[t] = acc;\n"
    "        }\n"
    "        SYNC_S();\n"
    "        if (tau != T(0) && j > k && j < j1) {\n"
    "          T wj = MUL(CONJ(tau), s_col[lane]);\n"
    "          if (g == 0u) A(k, j) = A(k, j) - wj;\n"
    "          GROUP_ROWS(i) A(i, j) = A(i, j) - MUL(A(i, k), wj);\n"
    "        }\n"
    "        int c = k - j0;\n"
    "        if (int(t) < w) {\n"
    "          int r = int(t);\n"
    "          T v = T(0);\n"
    "          if (r < c) {\n"
    "            T acc = T(0);\n"
    "            for (int l = r; l < c; ++l) acc += MUL(TF(r, l), s_col[l]);\n"
    "            v = -MUL(tau, acc);\n"
    "          } else if (r == c) {\n"
    "            v = tau;\n"
    "          }\n"
    "          TF(r, c) = v;\n"
    "        }\n"
    "        SYNC();\n"
    "      } else {\n"
    "        for (int e = int(t); e < (m - j0) * w; e += WG) {\n"
    "          int i = j0 + e / w, jj = j0 + e % w;\n"
    "          T x = A(i, jj);\n"
    "          out3.v[vbase + i * kmin + jj] = i > jj ? x : i == jj ? TR(1) : T(0);\n"
    "          if (i > jj) A(i, jj) = T(0);\n"
    "        }\n"
    "        SYNC();\n"
    "      }\n"
    "    }\n";

std::string with_reflector(std::string body) {
  const std::string key = "%REFLECTOR%";
  return body.replace(body.find(key), key.size(), kReflector);
}

}  // namespace

std::string emit_qr(const KernelSpec& spec) {
  return linalg_preamble(spec) +
         "#define A(i, j) out0.v[abase + (i) * n + (j)]\n"
         "#define Q(i, j) out2.v[qbase + (i) * q + (j)]\n"
         "#define TF(r, c) out4.v[fbase + (j0 + (r)) * nb + (c)]\n"
         "#define LANES " + std::to_string(kQrLanes) + "\n"
         "#define GROUPS (WG / LANES)\n"
         // The rows below k of this invocation's row group.
         "#define GROUP_ROWS(i) for (int i = k + 1 + int(g); i < m; i += GROUPS)\n"
         "shared T s_tau, s_scale;\n"
         "shared R s_red[WG];\n"
         "shared T s_part[WG];\n"
         "shared T s_col[LANES];\n"
         "void main() {\n"
         "  int m = slot(pc.c0), n = slot(pc.c1), q = slot(pc.c2), nb = slot(pc.c3);\n"
         "  int j0 = slot(pc.c4), j1 = slot(pc.c5);\n"
         // The step range: the last two slots (the wide variant's extra slot comes before).
         "  int s0 = slot(pc.c" + std::to_string(spec.slots.size() - 2) + "), s1 = slot(pc.c" +
         std::to_string(spec.slots.size() - 1) + ");\n"
         "  int kmin = min(m, n);\n"
         "  uint t = gl_LocalInvocationID.x;\n"
         "  for (uint b = gl_WorkGroupID.x; b < uint(pc.n); b += gl_NumWorkGroups.x) {\n"
         "    int abase = int(b) * m * n, tbase = int(b) * kmin, qbase = int(b) * m * q;\n"
         "    int vbase = int(b) * m * kmin, fbase = int(b) * kmin * nb;\n"
         "    if (nb == 0) {\n" +
         with_reflector(kUnblocked) + "    } else {\n" + with_reflector(kPanel) +
         "    }\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
