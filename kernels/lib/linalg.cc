// The linalg library kernels' GLSL (kernels/lib/linalg.h): LU, LU solves and Cholesky here;
// Householder QR in linalg_qr.cc, the Jacobi eigensolvers in linalg_jacobi.cc.
#include "kernels/lib/linalg.h"

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/writer.h"
#include "kernels/lib/linalg_jacobi.h"
#include "kernels/lib/scan.h"

namespace vka {
namespace {

// The slots of each kind's spec; the wide variant (kLinalgWideThreads) has one more.
int base_slots(KernelKind kind) {
  return kind == KernelKind::kLuFactor ? 6 : kind == KernelKind::kQr ? 8 : -1;
}

KernelSpec spec_of(KernelKind kind, DType t, std::vector<DType> in, std::vector<DType> out,
                   int slots) {
  VKA_ASSERT(t == DType::kFloat32 || t == DType::kFloat64 || t == DType::kComplex64 ||
             t == DType::kComplex128);
  return library_spec(kind, in, out, slots);
}

}  // namespace

int linalg_threads(const KernelSpec& spec) {
  return static_cast<int>(spec.slots.size()) == base_slots(spec.kind) + 1 ? kLinalgWideThreads
                                                                          : kLinalgThreads;
}

std::string linalg_preamble(const KernelSpec& spec, int threads) {
  if (threads == 0) threads = linalg_threads(spec);
  const DType t = spec.outputs[0].dtype;
  const bool f64 = t == DType::kFloat64 || t == DType::kComplex128;
  const std::string real = f64 ? "double" : "float";
  std::string s = "#version 450\n// " + spec.name() + "\n" + address_extensions(spec) +
                  "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
                  "layout(local_size_x = " + std::to_string(threads) + ") in;\n"
                  "#define R " + real + "\n" +
                  // T: the element type; MUL, DIV, CONJ, ABS1 (|re| + |im|, LAPACK's pivot
                  // measure), ABSV (modulus), ABS2 (its square), RE, IM, MAKE (re, im) and TR
                  // (a real as T) cover real and complex alike.
                  (is_complex(t)
                       ? "#define T " + std::string(f64 ? "dvec2" : "vec2") + "\n"
                         "T MUL(T a, T b) { return T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }\n"
                         // Smith's division: no overflow in |b|².
                         "T DIV(T a, T b) {\n"
                         "  if (abs(b.x) >= abs(b.y)) {\n"
                         "    R r = b.y / b.x, d = b.x + b.y * r;\n"
                         "    return T((a.x + a.y * r) / d, (a.y - a.x * r) / d);\n"
                         "  }\n"
                         "  R r = b.x / b.y, d = b.y + b.x * r;\n"
                         "  return T((a.x * r + a.y) / d, (a.y * r - a.x) / d);\n"
                         "}\n"
                         "#define CONJ(a) T((a).x, -(a).y)\n"
                         "#define ABS1(a) (abs((a).x) + abs((a).y))\n"
                         "#define RE(a) ((a).x)\n"
                         "#define IM(a) ((a).y)\n"
                         "#define ABSV(a) length(a)\n"
                         "#define ABS2(a) dot(a, a)\n"
                         "#define MAKE(re, im) T(re, im)\n"
                         "#define TR(x) T(x, R(0))\n"
                       : "#define T " + real + "\n"
                         "#define MUL(a, b) ((a) * (b))\n"
                         "#define DIV(a, b) ((a) / (b))\n"
                         "#define CONJ(a) (a)\n"
                         "#define ABS1(a) abs(a)\n"
                         "#define RE(a) (a)\n"
                         "#define IM(a) R(0)\n"
                         "#define ABSV(a) abs(a)\n"
                         "#define ABS2(a) ((a) * (a))\n"
                         "#define MAKE(re, im) T(re)\n"
                         "#define TR(x) T(x)\n") +
                  "#define WG " + std::to_string(threads) + "\n" +
                  // Machine epsilon and 1/sqrt(eps) of T (rotation angles past it use t = 1/2z).
                  (f64 ? "#define EPS 2.220446049250313e-16lf\n#define BIG 6.7108864e7lf\n"
                       : "#define EPS 1.1920929e-7\n#define BIG 2896.3093\n") +
                  // Every invocation of the workgroup sees the others' buffer writes after it.
                  "#define SYNC() { memoryBarrierBuffer(); memoryBarrierShared(); barrier(); }\n";
  int b = 0;
  auto type = [](DType d) {
    return d == DType::kInt32        ? "int"
           : d == DType::kFloat64    ? "double"
           : d == DType::kComplex64  ? "vec2"
           : d == DType::kComplex128 ? "dvec2"
                                     : "float";
  };
  for (size_t i = 0; i < spec.inputs.size(); ++i, ++b) {
    s += operand_buffer(spec, b, "readonly", type(spec.inputs[i].dtype), "in" + std::to_string(i));
  }
  for (size_t i = 0; i < spec.outputs.size(); ++i, ++b) {
    s += operand_buffer(spec, b, "coherent", type(spec.outputs[i].dtype),
                        "out" + std::to_string(i));
  }
  GlslWriter push;
  emit_push_block(spec, push);
  s += push.str();
  s += "int slot(uvec2 c) { return int(pack64(c)); }\n";
  return s;
}

KernelSpec lu_factor_spec(DType t, bool wide) {
  return spec_of(KernelKind::kLuFactor, t, {}, {t, DType::kInt32, DType::kInt32, t},
                 base_slots(KernelKind::kLuFactor) + (wide ? 1 : 0));
}
KernelSpec lu_solve_spec(DType t) {
  return spec_of(KernelKind::kLuSolve, t, {t, DType::kInt32}, {t}, 6);
}
KernelSpec cholesky_spec(DType t) {
  return spec_of(KernelKind::kCholesky, t, {}, {t, DType::kInt32, t}, 6);
}
KernelSpec qr_spec(DType t, bool wide) {
  return spec_of(KernelKind::kQr, t, {}, {t, t, t, t, t},
                 base_slots(KernelKind::kQr) + (wide ? 1 : 0));
}
KernelSpec svd_jacobi_spec(DType t) {
  const DType r = real_dtype(t);
  return spec_of(KernelKind::kSvdJacobi, t, {}, {t, t, t, r, t, r, DType::kInt32}, 5);
}
KernelSpec eigh_jacobi_spec(DType t) {
  return spec_of(KernelKind::kEighJacobi, t, {}, {t, t, real_dtype(t), t, t, DType::kInt32}, 4);
}

namespace {

// The batch loop: b walks the matrices of this workgroup; its bounds are uniform, so the
// barriers inside stay in uniform control flow.
constexpr const char* kBatchLoop =
    "  uint t = gl_LocalInvocationID.x;\n"
    "  for (uint b = gl_WorkGroupID.x; b < uint(pc.n); b += gl_NumWorkGroups.x) {\n";

// Right-looking LU over columns [k0, k1) of the panel [j0, j1) (the whole matrix when
// unblocked; a launch is split into column ranges that keep each
// invocation's loop count bounded: llvmpipe ends any invocation's loops after 65535 iterations
// in all): pivot search (one invocation), row swap, column scaling and the rank-1 trailing
// update, each step behind a barrier.
std::string lu_factor(const KernelSpec& spec) {
  return linalg_preamble(spec) +
         "#define A(i, j) out0.v[base + (i) * n + (j)]\n"
         "shared int s_p;\n"
         "shared R s_val[WG];\n"
         "shared int s_idx[WG];\n"
         "void main() {\n"
         "  int n = slot(pc.c0), j0 = slot(pc.c1), j1 = slot(pc.c2), nb = slot(pc.c3);\n"
         // The step range: the last two slots (the wide variant's extra slot comes before).
         "  int k0 = slot(pc.c" + std::to_string(spec.slots.size() - 2) + "), k1 = min(slot(pc.c" +
         std::to_string(spec.slots.size() - 1) + "), n);\n" + kBatchLoop +
         "    int base = int(b) * n * n;\n"
         "    if (k0 == 0 && t == 0u) out2.v[b] = 0;\n"
         "    for (int k = k0; k < k1; ++k) {\n"
         // The pivot: the first row of largest |A(i, k)|, a strided scan per invocation and a
         // tree in shared memory (ties to the lower row, as LAPACK's idamax).
         "      R best = R(-1);\n"
         "      int at = n;\n"
         "      for (int i = k + int(t); i < n; i += WG) {\n"
         "        R v = ABS1(A(i, k));\n"
         "        if (v > best) { best = v; at = i; }\n"
         "      }\n"
         "      s_val[t] = best; s_idx[t] = at;\n"
         "      SYNC();\n"
         "      for (uint h = WG / 2; h > 0u; h >>= 1) {\n"
         "        if (t < h) {\n"
         "          R v = s_val[t + h];\n"
         "          int q = s_idx[t + h];\n"
         "          if (v > s_val[t] || (v == s_val[t] && q < s_idx[t])) { s_val[t] = v; s_idx[t] = q; }\n"
         "        }\n"
         "        SYNC();\n"
         "      }\n"
         "      if (t == 0u) {\n"
         "        int q = s_idx[0] < n ? s_idx[0] : k;\n"
         "        s_p = q;\n"
         "        out1.v[int(b) * n + k] = q;\n"
         "        if (s_val[0] == R(0) && out2.v[b] == 0) out2.v[b] = k + 1;\n"
         "      }\n"
         "      SYNC();\n"
         "      int p = s_p;\n"
         "      if (p != k) {\n"
         "        for (int j = int(t); j < j1; j += WG) {\n"
         "          T x = A(k, j); A(k, j) = A(p, j); A(p, j) = x;\n"
         "        }\n"
         "      }\n"
         "      SYNC();\n"
         "      T d = A(k, k);\n"
         "      if (d != T(0)) {\n"
         "        for (int i = k + 1 + int(t); i < n; i += WG) A(i, k) = DIV(A(i, k), d);\n"
         "      }\n"
         "      SYNC();\n"
         // The panel's trailing columns (A[j1:, j1:] is the GEMM's, array/linalg/linalg.cc).
         "      int r = n - k - 1, w = j1 - k - 1;\n"
         "      for (int e = int(t); e < r * w; e += WG) {\n"
         "        int i = k + 1 + e / w, j = k + 1 + e % w;\n"
         "        A(i, j) = A(i, j) - MUL(A(i, k), A(k, j));\n"
         "      }\n"
         "      SYNC();\n"
         "    }\n"
         // After the panel's last column: its row swaps on the columns right of it (getrf's
         // laswp), each invocation owning columns, and L11⁻¹ (unit lower, zero above) in out3,
         // one invocation per column: U12 = L11⁻¹ A12 is the GEMM's (array/linalg/linalg.cc).
         "    if (k1 == j1 && j1 < n) {\n"
         "      for (int j = j1 + int(t); j < n; j += WG) {\n"
         "        for (int k = j0; k < j1; ++k) {\n"
         "          int p = out1.v[int(b) * n + k];\n"
         "          if (p != k) { T x = A(k, j); A(k, j) = A(p, j); A(p, j) = x; }\n"
         "        }\n"
         "      }\n"
         "      int w = j1 - j0, ibase = int(b) * n * nb;\n"
         "      for (int c = int(t); c < w; c += WG) {\n"
         "        for (int i = 0; i < w; ++i) {\n"
         "          T x = i == c ? TR(1) : T(0);\n"
         "          for (int l = c; l < i; ++l) {\n"
         "            x -= MUL(A(j0 + i, j0 + l), out3.v[ibase + (j0 + l) * nb + c]);\n"
         "          }\n"
         "          out3.v[ibase + (j0 + i) * nb + c] = x;\n"
         "        }\n"
         "      }\n"
         "      SYNC();\n"
         "    }\n"
         "  }\n"
         "}\n";
}

// Each invocation owns right-hand-side columns. Steps s in [s0, s1) of 3n: s < n swaps row s
// with its pivot row (getrs' laswp, all before the substitutions); n <= s < 2n subtracts row
// i = s - n of L over columns [lo, i); 2n <= s solves row i = 3n - 1 - s of U over columns
// (i, hi). lo and hi let a blocked solve leave the rest to the GEMM (array/linalg/linalg.cc). No
// barriers: the columns are independent.
std::string lu_solve(const KernelSpec& spec) {
  return linalg_preamble(spec) +
         "#define LU(i, j) in0.v[abase + (i) * n + (j)]\n"
         "#define B(i) out0.v[bbase + (i) * k + c]\n"
         "void main() {\n"
         "  int n = slot(pc.c0), k = slot(pc.c1), lo = slot(pc.c2), hi = slot(pc.c3);\n"
         "  int s0 = slot(pc.c4), s1 = min(slot(pc.c5), 3 * n);\n" +
         kBatchLoop +
         "    int abase = int(b) * n * n, bbase = int(b) * n * k;\n"
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

// Right-looking Cholesky on the lower triangle over columns [k0, k1) of the panel [j0, j1)
// (the whole matrix when unblocked, nb = 0): the diagonal (one invocation, which also detects a
// non-positive pivot), the column scaling, the symmetric rank-1 update of the panel. Blocked,
// only the panel's diagonal block (rows below j1 are the GEMM's: L21 = A21 L11⁻ᴴ), and the launch
// that ends the panel writes L11⁻¹ to out2, one invocation per column (forward substitution).
// Unblocked, the launch that ends at n zeroes the upper triangle.
std::string cholesky(const KernelSpec& spec) {
  return linalg_preamble(spec) +
         "#define A(i, j) out0.v[base + (i) * n + (j)]\n"
         "#define INV(i, c) out2.v[ibase + (j0 + (i)) * nb + (c)]\n"
         "shared int s_bad;\n"
         "void main() {\n"
         "  int n = slot(pc.c0), nb = slot(pc.c1), j0 = slot(pc.c2), j1 = slot(pc.c3);\n"
         "  int k0 = slot(pc.c4), k1 = min(slot(pc.c5), j1);\n"
         "  int rows = nb > 0 ? j1 : n;\n" +
         kBatchLoop +
         "    int base = int(b) * n * n, ibase = int(b) * n * nb;\n"
         "    if (k0 == 0 && t == 0u) out1.v[b] = 0;\n"
         "    for (int k = k0; k < k1; ++k) {\n"
         "      if (t == 0u) {\n"
         "        R d = RE(A(k, k));\n"
         "        if (d > R(0) && out1.v[b] == 0) { A(k, k) = TR(sqrt(d)); s_bad = 0; }\n"
         "        else { s_bad = 1; if (out1.v[b] == 0) out1.v[b] = k + 1; }\n"
         "      }\n"
         "      SYNC();\n"
         "      if (s_bad != 0) break;\n"
         "      R d = RE(A(k, k));\n"
         "      for (int i = k + 1 + int(t); i < rows; i += WG) A(i, k) = A(i, k) / d;\n"
         "      SYNC();\n"
         // The panel's columns below row k (A22 = A[j1:, j1:] is the GEMM's).
         "      int r = rows - k - 1, w = j1 - k - 1;\n"
         "      for (int e = int(t); e < r * w; e += WG) {\n"
         "        int i = k + 1 + e / w, j = k + 1 + e % w;\n"
         "        if (j <= i) A(i, j) = A(i, j) - MUL(A(i, k), CONJ(A(j, k)));\n"
         "      }\n"
         "      SYNC();\n"
         "    }\n"
         "    if (nb > 0 && k1 == j1) {\n"
         "      int w = j1 - j0;\n"
         "      for (int c = int(t); c < w; c += WG) {\n"
         "        for (int i = 0; i < w; ++i) {\n"
         "          T x = T(0);\n"
         "          if (i >= c) {\n"
         "            T acc = i == c ? TR(1) : T(0);\n"
         "            for (int l = c; l < i; ++l) acc -= MUL(A(j0 + i, j0 + l), INV(l, c));\n"
         "            x = acc / RE(A(j0 + i, j0 + i));\n"
         "          }\n"
         "          INV(i, c) = x;\n"
         "        }\n"
         "      }\n"
         "      SYNC();\n"
         "    }\n"
         "    if (k1 == n && nb == 0) {\n"
         "      for (int e = int(t); e < n * n; e += WG) {\n"
         "        if (e % n > e / n) out0.v[base + e] = T(0);\n"
         "      }\n"
         "    }\n"
         "    SYNC();\n"
         "  }\n"
         "}\n";
}

}  // namespace

std::string emit_linalg(const KernelSpec& spec) {
  if (spec.kind == KernelKind::kLuFactor) return lu_factor(spec);
  if (spec.kind == KernelKind::kLuSolve) return lu_solve(spec);
  if (spec.kind == KernelKind::kCholesky) return cholesky(spec);
  if (spec.kind == KernelKind::kQr) return emit_qr(spec);
  if (spec.kind == KernelKind::kSvdJacobi) return emit_svd_jacobi(spec);
  if (spec.kind == KernelKind::kEighJacobi) return emit_eigh_jacobi(spec);
  if (spec.kind == KernelKind::kSvdJacobiWide) return emit_svd_jacobi_wide(spec);
  if (spec.kind == KernelKind::kEighJacobiWide) return emit_eigh_jacobi_wide(spec);
  internal_error("emit_linalg of a spec that is not a linalg kernel", __FILE__, __LINE__);
}

}  // namespace vka
