// The linalg library kernels' GLSL (kernels/lib/linalg.h): the specs, the shared preamble and
// Cholesky here; LU in linalg_lu.cc, Householder QR in linalg_qr.cc, the Jacobi eigensolvers in
// linalg_jacobi.cc.
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
  return kind == KernelKind::kLuFactor ? 8 : kind == KernelKind::kQr ? 8 : -1;
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

std::string linalg_preamble(const KernelSpec& spec, int threads, const std::string& extensions) {
  if (threads == 0) threads = linalg_threads(spec);
  const DType t = spec.outputs[0].dtype;
  const bool f64 = t == DType::kFloat64 || t == DType::kComplex128;
  const std::string real = f64 ? "double" : "float";
  const std::string wg = std::to_string(threads);
  std::string s =
      "#version 450\n// " + spec.name() + "\n" + address_extensions(spec) +
      "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n" + extensions +
      "layout(local_size_x = " + wg + ") in;\n" + "#define R " + real + "\n" +
      // T: the element type; MUL, DIV, CONJ, ABS1 (|re| + |im|, LAPACK's pivot
      // measure), ABSV (modulus), ABS2 (its square), RE, IM, MAKE (re, im) and TR
      // (a real as T) cover real and complex alike.
      (is_complex(t)
           ? "#define T " + std::string(f64 ? "dvec2" : "vec2") +
                 "\n"
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
           : "#define T " + real +
                 "\n"
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
      "#define WG " + wg + "\n" +
      // Machine epsilon and 1/sqrt(eps) of T (rotation angles past it use t = 1/2z).
      (f64 ? "#define EPS 2.220446049250313e-16lf\n#define BIG 6.7108864e7lf\n"
           : "#define EPS 1.1920929e-7\n#define BIG 2896.3093\n") +
      // SYNC: every invocation of the workgroup sees the others' buffer and shared
      // writes after it. SYNC_S: their shared writes only, for phases that share
      // nothing else: on the H200 a barrier with a buffer memory barrier took
      // 440-570 ns, one with a shared one 62-88 ns (256-1024 invocations), and a
      // 32-column Cholesky block in shared memory 59 us with SYNC at every step.
      "#define SYNC() { memoryBarrierBuffer(); memoryBarrierShared(); barrier(); }\n"
      "#define SYNC_S() { memoryBarrierShared(); barrier(); }\n";
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
KernelSpec lu_panel_spec(DType t) {
  VKA_ASSERT(lu_panel_rows(t) > 0);
  return spec_of(KernelKind::kLuPanel, t, {},
                 {t, DType::kInt32, DType::kInt32, DType::kInt32, DType::kInt32}, 8);
}
KernelSpec lu_chunks_spec(DType t) { return spec_of(KernelKind::kLuChunks, t, {t}, {t}, 5); }
KernelSpec lu_solve_spec(DType t) {
  return spec_of(KernelKind::kLuSolve, t, {t, DType::kInt32}, {t}, 6);
}
KernelSpec cholesky_spec(DType t) {
  return spec_of(KernelKind::kCholesky, t, {}, {t, DType::kInt32}, 7);
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

std::string shared_block_glsl() {
  return "#define BLK " + std::to_string(kLinalgBlock) +
         "\n"
         "shared T s_blk[BLK * (BLK + 1)];\n"
         "#define S(i, j) s_blk[(i) * (BLK + 1) + (j)]\n";
}

namespace {

// Right-looking Cholesky on the lower triangle. Unblocked (mode 0): columns [k0, k1) of the
// matrix, the diagonal (one invocation, which also detects a non-positive pivot), the column
// scaling and the symmetric rank-1 update, each behind a barrier; the launch that ends at n
// zeroes the upper triangle. Mode 1: the panel's diagonal block alone, whole in one launch and
// in shared memory, since its order is at most kLinalgBlock; L11 is written back. Mode 2: the
// rows below it, an invocation per row, x L11ᴴ = a by substitution in registers (right-looking,
// as potf2 scales and updates a column), many workgroups.
std::string cholesky(const KernelSpec& spec) {
  return linalg_preamble(spec, 0, "#extension GL_EXT_control_flow_attributes : require\n") +
         shared_block_glsl() +
         "#define A(i, j) out0.v[base + (i) * n + (j)]\n"
         "shared int s_bad;\n"
         "void main() {\n"
         "  int n = slot(pc.c0), mode = slot(pc.c1), j0 = slot(pc.c2), j1 = slot(pc.c3);\n"
         "  int groups = slot(pc.c4), k0 = slot(pc.c5), k1 = min(slot(pc.c6), j1);\n" +
         kBatchLoop +
         "    int mat = int(b) / groups, g = int(b) % groups;\n"
         "    int base = mat * n * n;\n"
         "    if (mode == 2) {\n"
         "      int w = j1 - j0, i = j1 + g * WG + int(t);\n"
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        if (e % w <= e / w) S(e / w, e % w) = A(j0 + e / w, j0 + e % w);\n"
         "      }\n"
         "      SYNC_S();\n"
         "      if (i < n) {\n"
         "        T x[BLK];\n"
         "        [[unroll]] for (int c = 0; c < BLK; ++c) x[c] = c < w ? A(i, j0 + c) : T(0);\n"
         "        [[unroll]] for (int c = 0; c < BLK; ++c) {\n"
         "          if (c < w) {\n"
         "            x[c] = x[c] / RE(S(c, c));\n"
         "            [[unroll]] for (int q = c + 1; q < BLK; ++q) {\n"
         "              if (q < w) x[q] -= MUL(x[c], CONJ(S(q, c)));\n"
         "            }\n"
         "          }\n"
         "        }\n"
         "        [[unroll]] for (int c = 0; c < BLK; ++c) { if (c < w) A(i, j0 + c) = x[c]; }\n"
         "      }\n"
         "      SYNC_S();\n"
         "      continue;\n"
         "    }\n"
         "    if (mode == 1) {\n"
         "      int w = j1 - j0;\n"
         "      int info = 0;\n"
         "      if (t == 0u) { if (j0 == 0) out1.v[mat] = 0; else info = out1.v[mat]; }\n"
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        int i = e / w, j = e % w;\n"
         "        if (j <= i) S(i, j) = A(j0 + i, j0 + j);\n"
         "      }\n"
         "      SYNC_S();\n"
         "      for (int k = 0; k < w; ++k) {\n"
         "        if (t == 0u) {\n"
         "          R d = RE(S(k, k));\n"
         "          if (d > R(0) && info == 0) { S(k, k) = TR(sqrt(d)); s_bad = 0; }\n"
         "          else { s_bad = 1; if (info == 0) out1.v[mat] = j0 + k + 1; }\n"
         "        }\n"
         "        SYNC_S();\n"
         "        if (s_bad != 0) break;\n"
         "        R d = RE(S(k, k));\n"
         "        for (int i = k + 1 + int(t); i < w; i += WG) S(i, k) = S(i, k) / d;\n"
         "        SYNC_S();\n"
         "        int r = w - k - 1;\n"
         "        for (int e = int(t); e < r * r; e += WG) {\n"
         "          int i = k + 1 + e / r, j = k + 1 + e % r;\n"
         "          if (j <= i) S(i, j) = S(i, j) - MUL(S(i, k), CONJ(S(j, k)));\n"
         "        }\n"
         "        SYNC_S();\n"
         "      }\n"
         "      for (int e = int(t); e < w * w; e += WG) {\n"
         "        int i = e / w, j = e % w;\n"
         "        if (j <= i) A(j0 + i, j0 + j) = S(i, j);\n"
         "      }\n"
         "      SYNC();\n"
         "      continue;\n"
         "    }\n"
         "    if (k0 == 0 && t == 0u) out1.v[mat] = 0;\n"
         "    for (int k = k0; k < k1; ++k) {\n"
         "      if (t == 0u) {\n"
         "        R d = RE(A(k, k));\n"
         "        if (d > R(0) && out1.v[mat] == 0) { A(k, k) = TR(sqrt(d)); s_bad = 0; }\n"
         "        else { s_bad = 1; if (out1.v[mat] == 0) out1.v[mat] = k + 1; }\n"
         "      }\n"
         "      SYNC();\n"
         "      if (s_bad != 0) break;\n"
         "      R d = RE(A(k, k));\n"
         "      for (int i = k + 1 + int(t); i < n; i += WG) A(i, k) = A(i, k) / d;\n"
         "      SYNC();\n"
         "      int r = n - k - 1;\n"
         "      for (int e = int(t); e < r * r; e += WG) {\n"
         "        int i = k + 1 + e / r, j = k + 1 + e % r;\n"
         "        if (j <= i) A(i, j) = A(i, j) - MUL(A(i, k), CONJ(A(j, k)));\n"
         "      }\n"
         "      SYNC();\n"
         "    }\n"
         "    if (k1 == n) {\n"
         "      for (int e = int(t); e < n * n; e += WG) {\n"
         "        if (e % n > e / n) out0.v[base + e] = T(0);\n"
         "      }\n"
         "    }\n"
         "    SYNC();\n"
         "  }\n"
         "}\n";
}

}  // namespace

std::string emit_linalg(const KernelSpec& spec, const EmitOptions& options) {
  if (spec.kind == KernelKind::kLuFactor) return emit_lu_factor(spec);
  if (spec.kind == KernelKind::kLuSolve) return emit_lu_solve(spec);
  if (spec.kind == KernelKind::kLuPanel) return emit_lu_panel(spec, options);
  if (spec.kind == KernelKind::kLuChunks) return emit_lu_chunks(spec);
  if (spec.kind == KernelKind::kCholesky) return cholesky(spec);
  if (spec.kind == KernelKind::kQr) return emit_qr(spec);
  if (spec.kind == KernelKind::kSvdJacobi) return emit_svd_jacobi(spec);
  if (spec.kind == KernelKind::kEighJacobi) return emit_eigh_jacobi(spec);
  if (spec.kind == KernelKind::kSvdJacobiWide) return emit_svd_jacobi_wide(spec);
  if (spec.kind == KernelKind::kEighJacobiWide) return emit_eigh_jacobi_wide(spec);
  internal_error("emit_linalg of a spec that is not a linalg kernel", __FILE__, __LINE__);
}

}  // namespace vka
