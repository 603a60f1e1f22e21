// The GLSL of lu_chunks_spec (kernels/lib/linalg.h): one chunk of a blocked triangular solve of
// a few right-hand sides per launch, the rows beyond it updated across the whole device.
#include <string>

#include "kernels/lib/linalg.h"
#include "kernels/lib/linalg_jacobi.h"

namespace vka {

// Each workgroup takes WG rows beyond the chunk's start (forward: down from c0; backward: up
// from c1), an invocation per row: its right-hand sides less the terms of the previous chunk
// (solved by the launch before, read from shared memory), in the order of the previous chunk's
// columns. Workgroup 0 holds the chunk's rows: once updated, one invocation per right-hand side
// solves the chunk against its diagonal block in registers (unit lower forward; upper,
// dividing by the diagonal, backward), right-looking like getrs' trsm.
std::string emit_lu_chunks(const KernelSpec& spec) {
  return linalg_preamble(spec, 0, "#extension GL_EXT_control_flow_attributes : require\n") +
         shared_block_glsl() +
         "#define LU(i, j) in0.v[abase + (i) * n + (j)]\n"
         "#define B(i, c) out0.v[bbase + (i) * k + (c)]\n"
         "#define RHS " +
         std::to_string(kLinalgFewRhs) +
         "\n"
         "shared T s_x[BLK * RHS], s_b[BLK * RHS];\n"
         "void main() {\n"
         "  int n = slot(pc.c0), k = slot(pc.c1), back = slot(pc.c2), c0 = slot(pc.c3);\n"
         "  int groups = slot(pc.c4), c1 = min(c0 + BLK, n), w = c1 - c0;\n"
         // The previous chunk: above (forward) or below (backward), p0 + [0, pw).
         "  int p0 = back != 0 ? c1 : max(c0 - BLK, 0);\n"
         "  int pw = back != 0 ? min(BLK, n - c1) : c0 - p0;\n" +
         kBatchLoop +
         "    int mat = int(b) / groups, g = int(b) % groups;\n"
         "    int abase = mat * n * n, bbase = mat * n * k;\n"
         "    for (int e = int(t); e < pw * k; e += WG) s_x[e] = B(p0 + e / k, e % k);\n"
         "    if (g == 0) {\n"
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        S(e / w, e % w) = LU(c0 + e / w, c0 + e % w);\n"
         "      }\n"
         "    }\n"
         "    SYNC_S();\n"
         "    int i = back != 0 ? c1 - 1 - (g * WG + int(t)) : c0 + g * WG + int(t);\n"
         "    if (i >= 0 && i < n) {\n"
         "      T acc[RHS];\n"
         "      [[unroll]] for (int c = 0; c < RHS; ++c) acc[c] = c < k ? B(i, c) : T(0);\n"
         "      for (int l = 0; l < pw; ++l) {\n"
         "        T m = LU(i, p0 + l);\n"
         "        [[unroll]] for (int c = 0; c < RHS; ++c) {\n"
         "          if (c < k) acc[c] -= MUL(m, s_x[l * k + c]);\n"
         "        }\n"
         "      }\n"
         "      bool chunk = i >= c0 && i < c1;\n"
         "      [[unroll]] for (int c = 0; c < RHS; ++c) {\n"
         "        if (c < k && chunk) s_b[(i - c0) * k + c] = acc[c];\n"
         "        if (c < k && !chunk) B(i, c) = acc[c];\n"
         "      }\n"
         "    }\n"
         "    SYNC_S();\n"
         "    if (g == 0 && int(t) < k) {\n"
         "      int c = int(t);\n"
         "      T y[BLK];\n"
         "      [[unroll]] for (int r = 0; r < BLK; ++r) y[r] = r < w ? s_b[r * k + c] : T(0);\n"
         "      if (back == 0) {\n"
         "        [[unroll]] for (int l = 0; l < BLK; ++l) {\n"
         "          [[unroll]] for (int r = l + 1; r < BLK; ++r) {\n"
         "            if (r < w) y[r] -= MUL(S(r, l), y[l]);\n"
         "          }\n"
         "        }\n"
         "      } else {\n"
         "        [[unroll]] for (int l = BLK - 1; l >= 0; --l) {\n"
         "          if (l < w) {\n"
         "            y[l] = DIV(y[l], S(l, l));\n"
         "            [[unroll]] for (int r = 0; r < l; ++r) y[r] -= MUL(S(r, l), y[l]);\n"
         "          }\n"
         "        }\n"
         "      }\n"
         "      [[unroll]] for (int r = 0; r < BLK; ++r) { if (r < w) B(c0 + r, c) = y[r]; }\n"
         "    }\n"
         "    SYNC();\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
