// The float16 GEMM on cooperative matrices (kernels/gen/gemm.h: gemm_coop_spec).
#include "kernels/gen/gemm.h"

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/writer.h"

namespace vka {

std::string to_string(const GemmCoopConfig& c) {
  if (!c.pipelined) return "old";
  return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) + "x" +
         std::to_string(c.fm) + "x" + std::to_string(c.fn);
}

std::string gemm_coop_invalid(const GemmCoopConfig& c) {
  if (!c.pipelined) return "";
  if (c.fm < 1 || c.fn < 1 || c.fm > 8 || c.fn > 8) return "fm and fn must be 1 to 8";
  if (c.bm < 16 * c.fm || c.bn < 16 * c.fn || c.bm % (16 * c.fm) != 0 || c.bn % (16 * c.fn) != 0) {
    return "bm must be a positive multiple of 16 fm and bn of 16 fn";
  }
  if (c.bk < 16 || c.bk % 16 != 0 || c.bk > 256 || c.bm > 512 || c.bn > 512) {
    return "bk must be a multiple of 16 (at most 256), bm and bn at most 512";
  }
  if (c.subgroups() > 32) return "at most 32 subgroups per workgroup";
  return "";
}

KernelSpec gemm_coop_spec(bool a_m_fast, bool b_n_fast, uint32_t subgroup_size,
                          const GemmCoopConfig& c, bool emulated) {
  VKA_ASSERT(gemm_coop_invalid(c).empty() && (c.pipelined || !emulated));
  const GemmConfig tile = c.pipelined ? GemmConfig{c.bm, c.bn, c.bk, 1, 1}
                                      : GemmConfig{kGemmCoopTile, kGemmCoopTile, kGemmCoopK, 1, 1};
  KernelSpec s = gemm_spec(DType::kFloat16, tile, a_m_fast, b_n_fast);
  s.gemm.vec4 = emulated;  // (no 4-vector layout here)
  s.gemm.coop = true;
  s.gemm.tm = static_cast<int16_t>(subgroup_size);
  s.gemm.tn = static_cast<int16_t>(c.pipelined ? 10 * c.fm + c.fn : 1);
  return s;
}

namespace {

bool pipelined(const GemmSpec& g) { return g.tn != 1; }

// The pipelined kernel's shared tiles, in 16-byte words: an operand's slice of `outer` x
// `inner` float16 (inner: the operand's stride-1 axis) is stored `outer` rows of inner + 8.
struct CoopTiles {
  int a_outer, a_inner, b_outer, b_inner;
  int a_ld() const { return (a_inner + 8) / 8; }
  int b_ld() const { return (b_inner + 8) / 8; }
  int a_stage() const { return a_outer * a_ld(); }
  int b_stage() const { return b_outer * b_ld(); }
};

CoopTiles coop_tiles(const GemmSpec& g) {
  CoopTiles t;
  // A (m, k): k-fast rows of m, or (A transposed, m fast) rows of k.
  t.a_outer = g.a_m_fast ? g.bk : g.bm;
  t.a_inner = g.a_m_fast ? g.bm : g.bk;
  // B (k, n): n-fast rows of k, or (B transposed, k fast) rows of n.
  t.b_outer = g.b_n_fast ? g.bk : g.bn;
  t.b_inner = g.b_n_fast ? g.bn : g.bk;
  return t;
}

}  // namespace

uint32_t gemm_coop_threads(const GemmSpec& g) {
  if (!pipelined(g)) return static_cast<uint32_t>(kGemmCoopSubgroups * g.tm);
  const int fm = g.tn / 10, fn = g.tn % 10;
  return static_cast<uint32_t>((g.bm / (16 * fm)) * (g.bn / (16 * fn)) * g.tm);
}

uint32_t gemm_coop_shared_bytes(const GemmSpec& g) {
  if (!pipelined(g)) {
    return static_cast<uint32_t>(g.bm * g.bk * 2 + g.bk * g.bn * 2 + g.bm * g.bn * 4);
  }
  const CoopTiles t = coop_tiles(g);
  const uint32_t subgroups = gemm_coop_threads(g) / static_cast<uint32_t>(g.tm);
  return static_cast<uint32_t>(2 * (t.a_stage() + t.b_stage()) * 16) + subgroups * 256 * 2;
}

namespace {

// One operand of the pipelined kernel: how its slice maps to the buffer.
struct CoopOperand {
  const char* name;            // "a" or "b"
  const char* buf;             // "in0" or "in1" (the uvec4 view: buf + "v")
  std::string outer0, inner0;  // the slice's first outer and inner index (m0 / n0 / k0)
};

// load8_<x>(fast, base, o, i0): the 8 elements (outer o, inner i0 .. i0 + 7) of operand x as
// 4 packed words, zeros outside [0, lo) x [0, li). One 16-byte load where `fast` (the inner
// stride is 1, the base and outer stride are multiples of 8) and all 8 are inside; else 8
// bounds-checked scalar loads through the operand's strides.
std::string load8(const CoopOperand& x) {
  const std::string n = x.name, buf = x.buf;
  return "uvec4 load8_" + n +
         "(bool fast, int base, int o, int i0, int so, int si, int lo, "
         "int li) {\n"
         "  if (fast && o < lo && i0 + 8 <= li) return " +
         buf +
         "v.v[(base + o * so + i0) >> 3];\n"
         "  uvec4 r = uvec4(0u);\n"
         "  if (o >= lo) return r;\n"
         "  [[unroll]] for (int j = 0; j < 4; ++j) {\n"
         "    int i = i0 + 2 * j;\n"
         "    f16vec2 h = f16vec2(float16_t(0.0));\n"
         "    if (i < li) h.x = " +
         buf +
         ".v[base + o * so + i * si];\n"
         "    if (i + 1 < li) h.y = " +
         buf +
         ".v[base + o * so + (i + 1) * si];\n"
         "    r[j] = packFloat2x16(h);\n"
         "  }\n"
         "  return r;\n"
         "}\n";
}

// fetch: this invocation's 8-element vectors of the slice at k0 into registers p<x>[r]
// (vector e = tid + r * THREADS: outer e / (INNER / 8), inner (e % (INNER / 8)) * 8);
// stash: those registers into shared stage `st`.
std::string fetch(const CoopOperand& x, const std::string& X) {
  const std::string n = x.name;
  return "    [[unroll]] for (int r = 0; r < " + X +
         "_PER; ++r) {\n"
         "      int e = tid + r * THREADS;\n"
         "      if (" +
         X + "_PER * THREADS == " + X + "_VECS || e < " + X +
         "_VECS)\n"
         "        p" +
         n + "[r] = load8_" + n + "(" + n + "_fast, " + n + "_base, " + x.outer0 + " + e / (" + X +
         "_IN / 8), " + x.inner0 + " + (e % (" + X + "_IN / 8)) * 8, " + n + "_so, " + n + "_si, " +
         n + "_lo, " + n +
         "_li);\n"
         "    }\n";
}

std::string stash(const CoopOperand& x, const std::string& X, const std::string& st) {
  const std::string n = x.name;
  return "    [[unroll]] for (int r = 0; r < " + X +
         "_PER; ++r) {\n"
         "      int e = tid + r * THREADS;\n"
         "      if (" +
         X + "_PER * THREADS == " + X + "_VECS || e < " + X +
         "_VECS)\n"
         "        s" +
         n + "[" + st + " * " + X + "_STAGE + (e / (" + X + "_IN / 8)) * " + X + "_LD + e % (" + X +
         "_IN / 8)] = p" + n +
         "[r];\n"
         "    }\n";
}

// The fragment types and operations of the pipelined kernel: the device's cooperative
// matrices, or (spec.gemm.vec4: tests on devices without them) a plain-GLSL emulation run by
// the whole subgroup together as the real ones are: every invocation loads whole operand
// fragments (from the uvec4 shared slices), and owns rows lane, lane + subgroup size, ... of
// the accumulator fragments, which it multiplies, converts and stores (to float16 arrays).
// So the kernel's own indexing, synchronization and bindings run unchanged on any device.
constexpr const char* kNativeCoop =
    "#define F16 fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>\n"
    "#define F32 fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>\n"
    "#define ZERO(X_) X_ = F32(0.0)\n"
    "#define TO_F16(H_, X_) H_ = F16(X_)\n"
    "#define MMA(C_, A_, B_) C_ = coopMatMulAddNV(A_, B_, C_)\n";
constexpr const char* kEmulatedCoop =
    "struct F16 { float16_t v[256]; };\n"
    "struct F32 { float v[256]; };\n"
    "#define EMU_ROWS(i_) for (uint i_ = gl_SubgroupInvocationID; i_ < 16u; "
    "i_ += gl_SubgroupSize)\n"
    // In place, as macros: 1 KiB structures passed by value swamp a CPU driver's compiler.
    "#define ZERO(X_) { for (int q_ = 0; q_ < 256; ++q_) X_.v[q_] = 0.0; }\n"
    "#define TO_F16(H_, X_) { EMU_ROWS(i_) { for (uint j_ = 0u; j_ < 16u; ++j_) "
    "H_.v[i_ * 16u + j_] = float16_t(X_.v[i_ * 16u + j_]); } }\n"
    "#define MMA(C_, A_, B_) { EMU_ROWS(i_) { for (uint j_ = 0u; j_ < 16u; ++j_) { "
    "float t_ = C_.v[i_ * 16u + j_]; for (uint k_ = 0u; k_ < 16u; ++k_) "
    "t_ += float(A_.v[i_ * 16u + k_]) * float(B_.v[k_ * 16u + j_]); "
    "C_.v[i_ * 16u + j_] = t_; } } }\n"
    "float16_t emu_half(uvec4 w, uint h) {\n"
    "  f16vec2 p = unpackFloat2x16(w[(h >> 1) & 3u]);\n"
    "  return (h & 1u) == 0u ? p.x : p.y;\n"
    "}\n"
    // Element (i, j) at half E_ * 8 + i * S_ * 8 + j (row-major) or E_ * 8 + j * S_ * 8 + i
    // of a uvec4 array; stores: at E_ + i * S_ + j (or E_ + j * S_ + i) of a float16_t array.
    "#define coopMatLoadNV(M_, B_, E_, S_, C_) { uint e_ = (E_), s_ = (S_); "
    "for (int q_ = 0; q_ < 256; ++q_) { uint i_ = uint(q_ / 16), j_ = uint(q_ % 16); "
    "uint h_ = e_ * 8u + ((C_) ? j_ * s_ * 8u + i_ : i_ * s_ * 8u + j_); "
    "M_.v[q_] = emu_half(B_[h_ >> 3], h_); } }\n"
    "#define coopMatStoreNV(M_, B_, E_, S_, C_) { uint e_ = (E_), s_ = (S_); "
    "EMU_ROWS(i_) { for (uint j_ = 0u; j_ < 16u; ++j_) "
    "B_[e_ + ((C_) ? j_ * s_ + i_ : i_ * s_ + j_)] = M_.v[i_ * 16u + j_]; } }\n";

// The pipelined kernel (kernels/gen/gemm.h).
std::string emit_gemm_coop_pipelined(const KernelSpec& spec) {
  const GemmSpec& g = spec.gemm;
  const int fm = g.tn / 10, fn = g.tn % 10;
  const int threads = static_cast<int>(gemm_coop_threads(g));
  const CoopTiles t = coop_tiles(g);
  auto num = [](int v) { return std::to_string(v); };
  GlslWriter push;
  emit_push_block(spec, push);
  // A (m, k) element (m0 + o, k0 + i) k-fast, (m0 + i, k0 + o) m-fast; B (k, n) likewise.
  const CoopOperand a{"a", "in0", g.a_m_fast ? "k0" : "m0", g.a_m_fast ? "m0" : "k0"};
  const CoopOperand b{"b", "in1", g.b_n_fast ? "k0" : "n0", g.b_n_fast ? "n0" : "k0"};
  // The 16-byte word of fragment (row r, k kk) of A's stage st, and of (k kk, column c) of B's:
  // row-major where the slice rows run along k (A) / n (B), column-major otherwise.
  const std::string a_frag =
      g.a_m_fast ? "st * A_STAGE + kk * A_LD + r / 8" : "st * A_STAGE + r * A_LD + kk / 8";
  const std::string b_frag =
      g.b_n_fast ? "st * B_STAGE + kk * B_LD + c / 8" : "st * B_STAGE + c * B_LD + kk / 8";
  const char* a_col = g.a_m_fast ? "true" : "false";
  const char* b_col = g.b_n_fast ? "false" : "true";
  return "#version 450\n"
         "#extension GL_EXT_shader_16bit_storage : require\n"
         "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n" +
         std::string(g.vec4 ? ""
                            : "#extension GL_NV_cooperative_matrix : require\n"
                              "#extension GL_KHR_memory_scope_semantics : require\n") +
         "#extension GL_KHR_shader_subgroup_basic : require\n"
         "#extension GL_EXT_control_flow_attributes : require\n"
         "// " +
         spec.name() +
         "\n"
         "layout(local_size_x = " +
         num(threads) + ") in;\n" + storage_buffer(0, "readonly", "float16_t", "in0") +
         "layout(std430, set = 0, binding = 0) readonly buffer B0v { uvec4 v[]; } in0v;\n" +
         storage_buffer(1, "readonly", "float16_t", "in1") +
         "layout(std430, set = 0, binding = 1) readonly buffer B1v { uvec4 v[]; } in1v;\n" +
         storage_buffer(2, "writeonly", "float16_t", "out0") + push.str() +
         "const int BM = " + num(g.bm) + ", BN = " + num(g.bn) + ", BK = " + num(g.bk) +
         ", FM = " + num(fm) + ", FN = " + num(fn) +
         ";\n"
         "const int SG_N = BN / (16 * FN), SUBGROUPS = (BM / (16 * FM)) * SG_N;\n"
         "const int THREADS = " +
         num(threads) +
         ";\n"
         // Shared slices: OUT rows of IN float16 (IN the stride-1 axis) padded to LD words.
         "const int A_OUT = " +
         num(t.a_outer) + ", A_IN = " + num(t.a_inner) + ", A_LD = " + num(t.a_ld()) +
         ", A_STAGE = A_OUT * A_LD;\n"
         "const int B_OUT = " +
         num(t.b_outer) + ", B_IN = " + num(t.b_inner) + ", B_LD = " + num(t.b_ld()) +
         ", B_STAGE = B_OUT * B_LD;\n"
         "const int A_VECS = A_OUT * A_IN / 8, A_PER = (A_VECS + THREADS - 1) / THREADS;\n"
         "const int B_VECS = B_OUT * B_IN / 8, B_PER = (B_VECS + THREADS - 1) / THREADS;\n"
         "shared uvec4 sa[2 * A_STAGE];\n"
         "shared uvec4 sb[2 * B_STAGE];\n"
         "shared float16_t sc[SUBGROUPS * 256];\n" +
         (g.vec4 ? kEmulatedCoop : kNativeCoop) + load8(a) + load8(b) +
         "void main() {\n"
         "  int M = int(pc.c0.x), N = int(pc.c0.y), K = int(pc.c1.x), batch = int(pc.c1.y);\n"
         "  int a_sb = int(pc.c2.x), a_sm = int(pc.c2.y), a_sk = int(pc.c3.x);\n"
         "  int b_sb = int(pc.c3.y), b_sk = int(pc.c4.x), b_sn = int(pc.c4.y);\n"
         "  int tid = int(gl_LocalInvocationID.x);\n"
         // Subgroup s owns rows (s / SG_N) * 16 FM .. + 16 FM - 1 and columns
         // (s % SG_N) * 16 FN .. + 16 FN - 1 of the tile.
         "  int s = int(gl_SubgroupID), sm = s / SG_N, sn = s % SG_N;\n"
         // Each operand's outer / inner strides and extents.
         "  int a_so = " +
         (g.a_m_fast ? "a_sk" : "a_sm") + ", a_si = " + (g.a_m_fast ? "a_sm" : "a_sk") +
         ", a_lo = " + (g.a_m_fast ? "K" : "M") + ", a_li = " + (g.a_m_fast ? "M" : "K") +
         ";\n"
         "  int b_so = " +
         (g.b_n_fast ? "b_sk" : "b_sn") + ", b_si = " + (g.b_n_fast ? "b_sn" : "b_sk") +
         ", b_lo = " + (g.b_n_fast ? "K" : "N") + ", b_li = " + (g.b_n_fast ? "N" : "K") +
         ";\n"
         "  bool a_fast = a_si == 1 && (a_so & 7) == 0 && (int(pc.off0) & 7) == 0 && "
         "(a_sb & 7) == 0;\n"
         "  bool b_fast = b_si == 1 && (b_so & 7) == 0 && (int(pc.off1) & 7) == 0 && "
         "(b_sb & 7) == 0;\n"
         "  int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;\n"
         "  int nk = (K + BK - 1) / BK;\n"
         "  uvec4 pa[A_PER], pb[B_PER];\n"
         "  for (int z = int(gl_WorkGroupID.z); z < batch; z += int(gl_NumWorkGroups.z)) {\n"
         "  int a_base = int(pc.off0) + z * a_sb, b_base = int(pc.off1) + z * b_sb;\n"
         "  int c_base = int(pc.off2) + z * M * N;\n"
         "  for (int ty = int(gl_WorkGroupID.y); ty < tiles_m; ty += int(gl_NumWorkGroups.y)) {\n"
         "  for (int tx = int(gl_WorkGroupID.x); tx < tiles_n; tx += int(gl_NumWorkGroups.x)) {\n"
         "    int m0 = ty * BM, n0 = tx * BN;\n"
         "    F32 acc[FM][FN];\n"
         "    [[unroll]] for (int i = 0; i < FM; ++i)\n"
         "      [[unroll]] for (int j = 0; j < FN; ++j) ZERO(acc[i][j]);\n"
         "    int k0 = 0;\n" +
         fetch(a, "A") + fetch(b, "B") + stash(a, "A", "0") + stash(b, "B", "0") +
         "    barrier();\n"
         // Slice kt is in stage kt & 1; slice kt + 1's global loads are issued before slice
         // kt is multiplied and land in the other stage after it; the barrier then both
         // publishes them and retires every read of stage kt & 1 before it is refilled.
         "    for (int kt = 0; kt < nk; ++kt) {\n"
         "      int st = kt & 1;\n"
         "      bool more = kt + 1 < nk;\n"
         "      k0 = (kt + 1) * BK;\n"
         "      if (more) {\n" +
         fetch(a, "A") + fetch(b, "B") +
         "      }\n"
         "      [[unroll]] for (int kk = 0; kk < BK; kk += 16) {\n"
         "        F16 fa[FM], fb[FN];\n"
         "        [[unroll]] for (int i = 0; i < FM; ++i) {\n"
         "          int r = sm * 16 * FM + i * 16;\n"
         "          coopMatLoadNV(fa[i], sa, uint(" +
         a_frag + "), uint(A_LD), " + a_col +
         ");\n"
         "        }\n"
         "        [[unroll]] for (int j = 0; j < FN; ++j) {\n"
         "          int c = sn * 16 * FN + j * 16;\n"
         "          coopMatLoadNV(fb[j], sb, uint(" +
         b_frag + "), uint(B_LD), " + b_col +
         ");\n"
         "        }\n"
         "        [[unroll]] for (int i = 0; i < FM; ++i)\n"
         "          [[unroll]] for (int j = 0; j < FN; ++j)\n"
         "            MMA(acc[i][j], fa[i], fb[j]);\n"
         "      }\n"
         "      if (more) {\n" +
         stash(a, "A", "(st ^ 1)") + stash(b, "B", "(st ^ 1)") +
         "      }\n"
         "      barrier();\n"
         "    }\n"
         // Fragments wholly inside C, 16-byte aligned: straight to C; the others through this
         // subgroup's 16 x 16 staging tile, element by element within bounds.
         "    [[unroll]] for (int i = 0; i < FM; ++i) {\n"
         "      [[unroll]] for (int j = 0; j < FN; ++j) {\n"
         "        int r0 = m0 + sm * 16 * FM + i * 16, c0 = n0 + sn * 16 * FN + j * 16;\n"
         "        if (r0 >= M || c0 >= N) continue;\n"
         "        F16 h;\n"
         "        TO_F16(h, acc[i][j]);\n"
         "        int at = c_base + r0 * N + c0;\n"
         "        if (r0 + 16 <= M && c0 + 16 <= N && (N & 7) == 0 && (at & 7) == 0) {\n"
         "          coopMatStoreNV(h, out0.v, uint(at), uint(N), false);\n"
         "        } else {\n"
         "          coopMatStoreNV(h, sc, uint(s * 256), 16u, false);\n"
         "          subgroupBarrier();\n"
         "          for (int e = int(gl_SubgroupInvocationID); e < 256; "
         "e += int(gl_SubgroupSize)) {\n"
         "            int gm = r0 + e / 16, gn = c0 + e % 16;\n"
         "            if (gm < M && gn < N) out0.v[c_base + gm * N + gn] = sc[s * 256 + e];\n"
         "          }\n"
         "          subgroupBarrier();\n"
         "        }\n"
         "      }\n"
         "    }\n"
         "  }\n"
         "  }\n"
         "  }\n"
         "}\n";
}

}  // namespace

std::string emit_gemm_coop_64(const KernelSpec& spec);  // kernels/gen/gemm_coop_64.cc

std::string emit_gemm_coop(const KernelSpec& spec) {
  if (!pipelined(spec.gemm)) return emit_gemm_coop_64(spec);
  std::string glsl = emit_gemm_coop_pipelined(spec);
  if (spec.gemm.vec4) {
    // Emulated fragments are 1 KiB structures: unrolled, they swamp a CPU driver's compiler.
    const std::string unroll = "[[unroll]] ";
    for (size_t at = glsl.find(unroll); at != std::string::npos; at = glsl.find(unroll, at)) {
      glsl.erase(at, unroll.size());
    }
  }
  return glsl;
}

}  // namespace vka
