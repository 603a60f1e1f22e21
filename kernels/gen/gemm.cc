// The GEMM kernel's GLSL (kernels/gen/gemm.h): fixed text around the dtype's types and the tiling.
#include "kernels/gen/gemm.h"

#include "base/errors.h"
#include "kernels/gen/gemm_store.h"
#include "kernels/gen/reduce.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/writer.h"

namespace vka {
namespace {

// The 4-vector of the accumulator type (vec4 path; not complex).
std::string acc_vec4(DType t) {
  const std::string a = gemm_acc_type(t);
  if (a == "float") return "vec4";
  if (a == "double") return "dvec4";
  if (a == "int") return "ivec4";
  if (a == "uint") return "uvec4";
  if (a == "int64_t") return "i64vec4";
  if (a == "uint64_t") return "u64vec4";
  internal_error("no 4-vector for a complex GEMM accumulator", __FILE__, __LINE__);
}

// acc + a * b in the accumulator type.
std::string multiply_add(DType t, const std::string& acc, const std::string& a,
                         const std::string& b) {
  if (is_bool(t)) return acc + " | (" + a + " & " + b + ")";
  if (is_complex(t)) {
    return acc + " + " + gemm_acc_type(t) + "(" + a + ".x * " + b + ".x - " + a + ".y * " + b +
           ".y, " + a + ".x * " + b + ".y + " + a + ".y * " + b + ".x)";
  }
  return acc + " + " + a + " * " + b;
}

}  // namespace

std::string to_string(const GemmConfig& c) {
  return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) + "x" +
         std::to_string(c.tm) + "x" + std::to_string(c.tn);
}

namespace {

bool uses_vec4(const GemmConfig& c, DType t) {
  return !is_complex(t) && c.tm % 4 == 0 && c.tn % 4 == 0;
}

// Padding of each k row of the shared tiles: the loads of a row-major A write a column of the
// tile (stride bm); padding the stride by a 4-vector (by 1 in the scalar layout) spreads those
// writes over every bank.
int tile_pad(bool vec4) { return vec4 ? 4 : 1; }

}  // namespace

uint32_t gemm_shared_bytes(const GemmConfig& c, DType t) {
  uint32_t word = is_bool(t) ? 4 : static_cast<uint32_t>(itemsize(t));
  if (itemsize(t) < 4) word = 4;  // 8- and 16-bit values are staged in 32 bits
  const int pad = tile_pad(uses_vec4(c, t));
  return static_cast<uint32_t>(c.bk * (c.bm + pad + c.bn + pad)) * word;
}

KernelSpec gemm_spec(DType t, const GemmConfig& c, bool a_m_fast, bool b_n_fast) {
  VKA_ASSERT(c.bm % c.tm == 0 && c.bn % c.tn == 0 && c.bk > 0);
  KernelSpec s;
  s.kind = KernelKind::kGemm;
  s.rank = 1;
  s.inputs = {Accessor{t, Layout::kContiguous}, Accessor{t, Layout::kContiguous}};
  s.outputs = {Accessor{t, Layout::kContiguous}};
  s.results = {0};
  s.slots.assign(kGemmSlots, DType::kInt64);
  s.gemm.bm = static_cast<int16_t>(c.bm);
  s.gemm.bn = static_cast<int16_t>(c.bn);
  s.gemm.bk = static_cast<int16_t>(c.bk);
  s.gemm.tm = static_cast<int16_t>(c.tm);
  s.gemm.tn = static_cast<int16_t>(c.tn);
  s.gemm.a_m_fast = a_m_fast;
  s.gemm.b_n_fast = b_n_fast;
  s.gemm.vec4 = uses_vec4(c, t);
  return s;
}

namespace {

// Everything after the push block: the workgroup size, tiling constants, shared tiles and
// main(). Without an epilogue each result is stored to out0; with one, each result element
// (batch z, row gm, column gn) evaluates the epilogue's tape at flat index
// i = (z * M + gm) * N + gn, the product being `gemm_value`, and the tape's outputs are stored.
std::string gemm_body(const KernelSpec& spec, TapeEmitter* epilogue) {
  const DType t = spec.inputs[1].dtype;
  const GemmSpec& g = spec.gemm;
  const bool partial = g.split == GemmSplit::kPartial;
  VKA_ASSERT(g.split != GemmSplit::kCombine && !(partial && epilogue));
  const std::string A = gemm_acc_type(t);
  // The stored type: the product's dtype, or the accumulator's for partial products.
  const std::string S(storage_type(spec.outputs[0].dtype));
  const int threads = (g.bm / g.tm) * (g.bn / g.tn);
  auto num = [](int v) { return std::to_string(v); };
  // Tile loads, in two halves so that the next K slice's global loads are in flight while
  // the current one is multiplied: fetch() reads this invocation's elements of a slice into
  // registers (p<x>[r], element e = tid + r * THREADS of the tile, the operand's stride-1 axis
  // fastest), stash() writes them to shared memory (s<x>[k * rows + row], k-major).
  auto per = [&](int rows) { return (rows * g.bk + threads - 1) / threads; };
  auto fetch = [&](const char* p, const char* buf, int rows, bool rows_fast, const std::string& k0,
                   const std::string& base, const std::string& srow, const std::string& scol,
                   const std::string& rows_lim, const std::string& row0) {
    const std::string R = num(rows);
    std::string r = "      UNROLL for (int r = 0; r < " + num(per(rows)) +
                    "; ++r) {\n"
                    "        int e = tid + r * THREADS;\n";
    r += rows_fast ? "        int row = e % " + R + ", col = e / " + R + ";\n"
                   : "        int col = e % BK, row = e / BK;\n";
    r += "        int gr = " + row0 + " + row, gc = " + k0 +
         " + col;\n"
         "        " +
         std::string(p) + "[r] = " + A +
         "(0);\n"
         "        if (e < " +
         R + " * BK && gr < " + rows_lim + " && gc < kend) " + p + "[r] = " + A + "(" + buf +
         ".v[" + base + " + gr * " + srow + " + gc * " + scol +
         "]);\n"
         "      }\n";
    return r;
  };
  auto stash = [&](const char* p, const char* sh, int rows, bool rows_fast,
                   const std::string& stride) {
    const std::string R = num(rows);
    std::string r = "      UNROLL for (int r = 0; r < " + num(per(rows)) +
                    "; ++r) {\n"
                    "        int e = tid + r * THREADS;\n";
    r += rows_fast ? "        int row = e % " + R + ", col = e / " + R + ";\n"
                   : "        int col = e % BK, row = e / BK;\n";
    if (g.vec4) {
      r += "        int at = col * " + stride +
           " + row;\n"
           "        if (e < " +
           R + " * BK) " + std::string(sh) + "[at >> 2][at & 3] = " + p +
           "[r];\n"
           "      }\n";
    } else {
      r += "        if (e < " + R + " * BK) " + std::string(sh) + "[col * " + stride +
           " + row] = " + p +
           "[r];\n"
           "      }\n";
    }
    return r;
  };
  // The multiply-adds of one k step, and the store of the results. Scalar layout: invocation
  // (tr, tc) owns rows tr + i * RT and columns tc + j * CT. vec4 layout: rows
  // (i / 4) * RT * 4 + tr * 4 + i % 4 and columns likewise in runs of 4, read from shared
  // memory as 4-vectors; accumulators acc[i][j / 4] are 4-vectors along the columns.
  std::string step, acc_decl, row, col, result;
  if (g.vec4) {
    const std::string V = acc_vec4(t);
    const std::string madd =
        is_bool(t) ? "acc[i][j] | (uvec4(a) & rb[j])" : "acc[i][j] + a * rb[j]";
    acc_decl = "    " + V +
               " acc[TM][TN / 4];\n"
               "    UNROLL for (int i = 0; i < TM; ++i)\n"
               "      UNROLL for (int j = 0; j < TN / 4; ++j) acc[i][j] = " +
               V + "(0);\n";
    step =
        "        " + V +
        " ra[TM / 4], rb[TN / 4];\n"
        "        UNROLL for (int i = 0; i < TM / 4; ++i) ra[i] = sa[kk * (SA / 4) + i * RT + tr];\n"
        "        UNROLL for (int j = 0; j < TN / 4; ++j) rb[j] = sb[kk * (SB / 4) + j * CT + tc];\n"
        "        UNROLL for (int i = 0; i < TM; ++i) {\n"
        "          " +
        A +
        " a = ra[i >> 2][i & 3];\n"
        "          UNROLL for (int j = 0; j < TN / 4; ++j) acc[i][j] = " +
        madd +
        ";\n"
        "        }\n";
    row = "m0 + (ti >> 2) * RT * 4 + tr * 4 + (ti & 3)";
    col = "n0 + (tj >> 2) * CT * 4 + tc * 4 + (tj & 3)";
    result = "acc[ti][tj >> 2][tj & 3]";
  } else {
    acc_decl = "    " + A +
               " acc[TM][TN];\n"
               "    UNROLL for (int i = 0; i < TM; ++i)\n"
               "      UNROLL for (int j = 0; j < TN; ++j) acc[i][j] = " +
               A + "(0);\n";
    step = "        " + A +
           " ra[TM], rb[TN];\n"
           "        UNROLL for (int i = 0; i < TM; ++i) ra[i] = sa[kk * SA + tr + i * RT];\n"
           "        UNROLL for (int j = 0; j < TN; ++j) rb[j] = sb[kk * SB + tc + j * CT];\n"
           "        UNROLL for (int i = 0; i < TM; ++i)\n"
           "          UNROLL for (int j = 0; j < TN; ++j) acc[i][j] = " +
           multiply_add(t, "acc[i][j]", "ra[i]", "rb[j]") + ";\n";
    row = "m0 + tr + ti * RT";
    col = "n0 + tc + tj * CT";
    result = "acc[ti][tj]";
  }
  std::string store;
  if (!epilogue) {
    store =
        "    UNROLL for (int ti = 0; ti < TM; ++ti) {\n"
        "      int gm = " +
        row +
        ";\n"
        "      if (gm >= M) continue;\n"
        "      UNROLL for (int tj = 0; tj < TN; ++tj) {\n"
        "        int gn = " +
        col +
        ";\n"
        "        if (gn < N) out0.v[c_base + gm * N + gn] = " +
        S + "(" + result +
        ");\n"
        "      }\n"
        "    }\n";
  } else {
    store = gemm_staged_epilogue(spec, *epilogue);
  }
  const std::string shared_type = g.vec4 ? acc_vec4(t) : A;
  const std::string shared_div = g.vec4 ? " / 4" : "";
  // UNROLL marks the loops over an invocation's registers: forced unrolling for 8- and 16-byte
  // accumulators and under an epilogue (otherwise the H200's compiler kept the accumulators in
  // local memory: float64 at 1 TFLOP/s instead of 17, float32 relu(A @ B + bias) 6.7 ms instead
  // of 4.1), the compiler's choice for a plain 4-byte GEMM (forcing it cost float32 4096^3
  // about 10% there).
  const bool force_unroll = is_complex(t) || itemsize(t) >= 8 || epilogue != nullptr;
  std::string src = std::string(force_unroll ? "#define UNROLL [[unroll]]\n" : "#define UNROLL\n") +
                    "layout(local_size_x = " + num(threads) +
                    ") in;\n"
                    "const int BM = " +
                    num(g.bm) + ", BN = " + num(g.bn) + ", BK = " + num(g.bk) +
                    ", TM = " + num(g.tm) + ", TN = " + num(g.tn) +
                    ";\n"
                    "const int RT = BM / TM, CT = BN / TN, THREADS = " +
                    num(threads) +
                    ";\n"
                    "const int SA = BM + " +
                    num(tile_pad(g.vec4)) + ", SB = BN + " + num(tile_pad(g.vec4)) +
                    ";  // k-row strides of the shared tiles\n"
                    "shared " +
                    shared_type + " sa[BK * SA" + shared_div +
                    "];\n"
                    "shared " +
                    shared_type + " sb[BK * SB" + shared_div + "];\n";
  if (epilogue) {
    src += "shared " + shared_type + " sc[RT * BN" + shared_div +
           "];  // one register row of the tile, staged for the epilogue\n";
  }
  src +=
      "void main() {\n"
      "  int M = int(pc.c0.x), N = int(pc.c0.y), K = int(pc.c1.x), batch = int(pc.c1.y);\n"
      "  int a_sb = int(pc.c2.x), a_sm = int(pc.c2.y), a_sk = int(pc.c3.x);\n"
      "  int b_sb = int(pc.c3.y), b_sk = int(pc.c4.x), b_sn = int(pc.c4.y);\n"
      "  int tid = int(gl_LocalInvocationID.x);\n"
      "  int tr = tid / CT, tc = tid - tr * CT;\n"
      "  int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;\n" +
      // Workgroup-uniform loops: every barrier inside is reached by the whole workgroup.
      std::string(
          partial
              // Partial products: z runs over (K range, batch), range s covering
              // [s * KC, min(K, (s + 1) * KC)) (empty ranges write zeros), written at
              // ((s * batch + b) * M + m) * N + n.
              ? "  int S = int(pc.c5.x), KC = int(pc.c5.y);\n"
                "  for (int zs = int(gl_WorkGroupID.z); zs < batch * S; zs += "
                "int(gl_NumWorkGroups.z)) {\n"
                "  int z = zs % batch, kbeg = (zs / batch) * KC, kend = min(K, kbeg + KC);\n"
              : "  for (int z = int(gl_WorkGroupID.z); z < batch; z += int(gl_NumWorkGroups.z)) {\n"
                "  int zs = z, kbeg = 0, kend = K;\n") +
      "  for (int ty = int(gl_WorkGroupID.y); ty < tiles_m; ty += int(gl_NumWorkGroups.y)) {\n"
      "  for (int tx = int(gl_WorkGroupID.x); tx < tiles_n; tx += int(gl_NumWorkGroups.x)) {\n"
      "    int m0 = ty * BM, n0 = tx * BN;\n"
      "    int a_base = int(pc.off0) + z * a_sb, b_base = int(pc.off1) + z * b_sb;\n" +
      acc_decl + "    " + A + " pa[" + num(per(g.bm)) + "], pb[" + num(per(g.bn)) + "];\n" +
      fetch("pa", "in0", g.bm, g.a_m_fast, "kbeg", "a_base", "a_sm", "a_sk", "M", "m0") +
      fetch("pb", "in1", g.bn, g.b_n_fast, "kbeg", "b_base", "b_sn", "b_sk", "N", "n0") +
      "    for (int k0 = kbeg; k0 < kend; k0 += BK) {\n" +
      stash("pa", "sa", g.bm, g.a_m_fast, "SA") + stash("pb", "sb", g.bn, g.b_n_fast, "SB") +
      "      barrier();\n"
      // The next slice's loads, issued before this slice's multiply-adds.
      "      if (k0 + BK < kend) {\n" +
      fetch("pa", "in0", g.bm, g.a_m_fast, "(k0 + BK)", "a_base", "a_sm", "a_sk", "M", "m0") +
      fetch("pb", "in1", g.bn, g.b_n_fast, "(k0 + BK)", "b_base", "b_sn", "b_sk", "N", "n0") +
      "      }\n"
      "      for (int kk = 0; kk < BK; ++kk) {\n" +
      step +
      "      }\n"
      "      barrier();\n"
      "    }\n"
      "    int c_base = int(pc.off2) + zs * M * N;\n" +
      store +
      "  }\n"
      "  }\n"
      "  }\n"
      "}\n";
  return src;
}

}  // namespace

std::string emit_gemm_coop(const KernelSpec& spec);  // kernels/gen/gemm_coop.cc

std::string emit_gemm(const KernelSpec& spec) {
  VKA_ASSERT(spec.kind == KernelKind::kGemm && spec.tape.empty());
  if (spec.gemm.coop) return emit_gemm_coop(spec);
  const DType t = spec.inputs[1].dtype;
  auto type = [](const Accessor& a) { return std::string(storage_type(a.dtype)); };
  GlslWriter push;
  emit_push_block(spec, push);
  return "#version 450\n" + std::string(kGemmExtensions) + "\n" + dtype_extensions(t) +
         address_extensions(spec) + "// " + spec.name() + "\n" +
         operand_buffer(spec, 0, "readonly", type(spec.inputs[0]), "B0", "in0") +
         operand_buffer(spec, 1, "readonly", type(spec.inputs[1]), "B1", "in1") +
         operand_buffer(spec, 2, "writeonly", type(spec.outputs[0]), "B2", "out0") + push.str() +
         (spec.gemm.split == GemmSplit::kCombine ? gemm_combine_body(spec, nullptr)
                                                 : gemm_body(spec, nullptr));
}

void emit_gemm_main(const KernelSpec& spec, TapeEmitter& epilogue, GlslWriter& w) {
  VKA_ASSERT(spec.kind == KernelKind::kGemm && !spec.gemm.coop && !spec.tape.empty());
  w.raw(spec.gemm.split == GemmSplit::kCombine ? gemm_combine_body(spec, &epilogue)
                                               : gemm_body(spec, &epilogue));
}

}  // namespace vka
