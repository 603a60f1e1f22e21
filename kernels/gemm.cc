// The GEMM kernel's GLSL (kernels/gemm.h): fixed text around the dtype's types and the tiling.
#include "kernels/gemm.h"

#include "device/errors.h"
#include "kernels/glsl_ops.h"
#include "kernels/glsl_writer.h"
#include "kernels/indexing.h"
#include "kernels/reduce.h"

namespace vka {
namespace {

// The accumulator (and shared-memory) type: numpy's compute type, uint for bool (or-of-and).
std::string acc_type(DType t) { return is_bool(t) ? "uint" : std::string(compute_type(t)); }

// The 4-vector of the accumulator type (vec4 path; not complex).
std::string acc_vec4(DType t) {
  const std::string a = acc_type(t);
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
    return acc + " + " + acc_type(t) + "(" + a + ".x * " + b + ".x - " + a + ".y * " + b +
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

// The epilogue's value of the product: the accumulator rounded to the product's dtype, in
// that dtype's tape value type (kernels/glsl_ops.h).
std::string product_value(DType t, const std::string& acc) {
  if (is_bool(t)) return "(" + acc + " != 0u)";
  return std::string(value_type(t)) + "(" + acc + ")";
}

// The store of a kernel with an epilogue, in TM passes: pass ti stages register row ti of
// every invocation (RT rows x BN columns of the tile) in shared memory with constant indices,
// so the accumulators stay in registers (a loop indexing them with its counter would put them
// in local memory for the whole kernel), and the workgroup then evaluates the epilogue over
// the chunk with consecutive invocations on consecutive columns of a row (coalesced loads of
// the epilogue's operands and stores of its outputs). Each element (batch z, row gm, column
// gn) evaluates the tape at flat index i = (z * M + gm) * N + gn, the product being
// `gemm_value`.
std::string staged_epilogue(const KernelSpec& spec, TapeEmitter& epilogue) {
  const DType t = spec.inputs[1].dtype;
  const GemmSpec& g = spec.gemm;
  const int cols = g.vec4 ? g.tn / 4 : g.tn;  // accumulators (4-vectors) per register row
  auto num = [](int v) { return std::to_string(v); };
  std::string r = "    for (int ti = 0; ti < TM; ++ti) {\n"
                  "      barrier();  // the previous chunk is read\n"
                  "      switch (ti) {\n";
  for (int i = 0; i < g.tm; ++i) {
    r += "        case " + num(i) + ":\n";
    for (int j = 0; j < cols; ++j) {
      r += g.vec4 ? "          sc[tr * (BN / 4) + " + num(j) + " * CT + tc] = acc[" + num(i) +
                        "][" + num(j) + "];\n"
                  : "          sc[tr * BN + tc + " + num(j) + " * CT] = acc[" + num(i) + "][" +
                        num(j) + "];\n";
    }
    r += "          break;\n";
  }
  r += "      }\n"
       "      barrier();\n";
  // Chunk row q holds tile row (ti / 4) * RT * 4 + q * 4 + ti % 4 (4-vector layout) or
  // ti * RT + q (scalar layout).
  r += g.vec4 ? "      int row0 = m0 + (ti >> 2) * RT * 4 + (ti & 3), row_step = 4;\n"
              : "      int row0 = m0 + ti * RT, row_step = 1;\n";
  r += "      for (int e = tid; e < RT * BN; e += THREADS) {\n"
       "        int q = e / BN, c = e - q * BN;\n"
       "        int gm = row0 + q * row_step, gn = n0 + c;\n";
  const std::string staged = g.vec4 ? "sc[e >> 2][e & 3]" : "sc[e]";
  const std::string it = index_type(spec);
  GlslWriter e;
  e.open("if (gm < M && gn < N)");
  e.line(std::string(value_type(t)) + " gemm_value = " + product_value(t, staged) + ";");
  e.line(it + " zrow = " + it + "(z) * " + it + "(M) + " + it + "(gm);");
  e.line(it + " i = zrow * " + it + "(N) + " + it + "(gn);");
  if (any_strided(spec) && spec.rank >= 2) {
    // The N-d index of i. The iteration space is the product's shape with adjacent dims
    // merged: when its last dim is N (the common case, e.g. a bias broadcast along rows),
    // the element's row and column give the last index and the rest without a division.
    const std::string last = "pc.dim" + std::to_string(spec.rank - 1);
    const std::string L = "i" + std::to_string(spec.rank - 1);
    e.line(it + " " + L + ", rest;");
    e.open("if (" + last + " == " + it + "(N))");
    e.line(L + " = " + it + "(gn);");
    e.line("rest = zrow;");
    e.close();
    e.open("else");
    e.line(L + " = i % " + last + ";");
    e.line("rest = i / " + last + ";");
    e.close();
    for (int d = spec.rank - 2; d >= 1; --d) {
      const std::string dim = "pc.dim" + std::to_string(d);
      e.line(it + " i" + std::to_string(d) + " = rest % " + dim + ";");
      e.line("rest /= " + dim + ";");
    }
    e.line(it + " i0 = rest;");
  } else {
    emit_nd_index(spec, e);
  }
  epilogue.emit(e);
  e.close();
  r += e.str();
  r += "      }\n"
       "    }\n";
  return r;
}

// Everything after the push block: the workgroup size, tiling constants, shared tiles and
// main(). Without an epilogue each result is stored to out0; with one, each result element
// (batch z, row gm, column gn) evaluates the epilogue's tape at flat index
// i = (z * M + gm) * N + gn, the product being `gemm_value`, and the tape's outputs are stored.
std::string gemm_body(const KernelSpec& spec, TapeEmitter* epilogue) {
  const DType t = spec.inputs[1].dtype;
  const GemmSpec& g = spec.gemm;
  const bool partial = g.split == GemmSplit::kPartial;
  VKA_ASSERT(g.split != GemmSplit::kCombine && !(partial && epilogue));
  const std::string A = acc_type(t);
  // The stored type: the product's dtype, or the accumulator's for partial products.
  const std::string S(storage_type(spec.outputs[0].dtype));
  const int threads = (g.bm / g.tm) * (g.bn / g.tn);
  auto num = [](int v) { return std::to_string(v); };
  // Tile loads, in two halves so that the next K slice's global loads are in flight while
  // the current one is multiplied: fetch() reads this invocation's elements of a slice into
  // registers (p<x>[r], element e = tid + r * THREADS of the tile, the operand's stride-1 axis
  // fastest), stash() writes them to shared memory (s<x>[k * rows + row], k-major).
  auto per = [&](int rows) { return (rows * g.bk + threads - 1) / threads; };
  auto fetch = [&](const char* p, const char* buf, int rows, bool rows_fast,
                   const std::string& k0, const std::string& base, const std::string& srow,
                   const std::string& scol,
                   const std::string& rows_lim, const std::string& row0) {
    const std::string R = num(rows);
    std::string r = "      for (int r = 0; r < " + num(per(rows)) + "; ++r) {\n"
                    "        int e = tid + r * THREADS;\n";
    r += rows_fast ? "        int row = e % " + R + ", col = e / " + R + ";\n"
                   : "        int col = e % BK, row = e / BK;\n";
    r += "        int gr = " + row0 + " + row, gc = " + k0 + " + col;\n"
         "        " + std::string(p) + "[r] = " + A + "(0);\n"
         "        if (e < " + R + " * BK && gr < " + rows_lim + " && gc < kend) " + p + "[r] = " +
         A + "(" + buf + ".v[" + base + " + gr * " + srow + " + gc * " + scol + "]);\n"
         "      }\n";
    return r;
  };
  auto stash = [&](const char* p, const char* sh, int rows, bool rows_fast,
                   const std::string& stride) {
    const std::string R = num(rows);
    std::string r = "      for (int r = 0; r < " + num(per(rows)) + "; ++r) {\n"
                    "        int e = tid + r * THREADS;\n";
    r += rows_fast ? "        int row = e % " + R + ", col = e / " + R + ";\n"
                   : "        int col = e % BK, row = e / BK;\n";
    if (g.vec4) {
      r += "        int at = col * " + stride + " + row;\n"
           "        if (e < " + R + " * BK) " + std::string(sh) + "[at >> 2][at & 3] = " + p +
           "[r];\n"
           "      }\n";
    } else {
      r += "        if (e < " + R + " * BK) " + std::string(sh) + "[col * " + stride +
           " + row] = " + p + "[r];\n"
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
    acc_decl = "    " + V + " acc[TM][TN / 4];\n"
               "    for (int i = 0; i < TM; ++i)\n"
               "      for (int j = 0; j < TN / 4; ++j) acc[i][j] = " + V + "(0);\n";
    step = "        " + V + " ra[TM / 4], rb[TN / 4];\n"
           "        for (int i = 0; i < TM / 4; ++i) ra[i] = sa[kk * (SA / 4) + i * RT + tr];\n"
           "        for (int j = 0; j < TN / 4; ++j) rb[j] = sb[kk * (SB / 4) + j * CT + tc];\n"
           "        for (int i = 0; i < TM; ++i) {\n"
           "          " + A + " a = ra[i >> 2][i & 3];\n"
           "          for (int j = 0; j < TN / 4; ++j) acc[i][j] = " + madd + ";\n"
           "        }\n";
    row = "m0 + (ti >> 2) * RT * 4 + tr * 4 + (ti & 3)";
    col = "n0 + (tj >> 2) * CT * 4 + tc * 4 + (tj & 3)";
    result = "acc[ti][tj >> 2][tj & 3]";
  } else {
    acc_decl = "    " + A + " acc[TM][TN];\n"
               "    for (int i = 0; i < TM; ++i)\n"
               "      for (int j = 0; j < TN; ++j) acc[i][j] = " + A + "(0);\n";
    step = "        " + A + " ra[TM], rb[TN];\n"
           "        for (int i = 0; i < TM; ++i) ra[i] = sa[kk * SA + tr + i * RT];\n"
           "        for (int j = 0; j < TN; ++j) rb[j] = sb[kk * SB + tc + j * CT];\n"
           "        for (int i = 0; i < TM; ++i)\n"
           "          for (int j = 0; j < TN; ++j) acc[i][j] = " +
           multiply_add(t, "acc[i][j]", "ra[i]", "rb[j]") + ";\n";
    row = "m0 + tr + ti * RT";
    col = "n0 + tc + tj * CT";
    result = "acc[ti][tj]";
  }
  std::string store;
  if (!epilogue) {
    store = "    for (int ti = 0; ti < TM; ++ti) {\n"
            "      int gm = " + row + ";\n"
            "      if (gm >= M) continue;\n"
            "      for (int tj = 0; tj < TN; ++tj) {\n"
            "        int gn = " + col + ";\n"
            "        if (gn < N) out0.v[c_base + gm * N + gn] = " + S + "(" + result + ");\n"
            "      }\n"
            "    }\n";
  } else {
    store = staged_epilogue(spec, *epilogue);
  }
  const std::string shared_type = g.vec4 ? acc_vec4(t) : A;
  const std::string shared_div = g.vec4 ? " / 4" : "";
  std::string src = "layout(local_size_x = " + num(threads) + ") in;\n"
                    "const int BM = " + num(g.bm) + ", BN = " + num(g.bn) + ", BK = " +
                    num(g.bk) + ", TM = " + num(g.tm) + ", TN = " + num(g.tn) + ";\n"
                    "const int RT = BM / TM, CT = BN / TN, THREADS = " + num(threads) + ";\n"
                    "const int SA = BM + " + num(tile_pad(g.vec4)) + ", SB = BN + " +
                    num(tile_pad(g.vec4)) + ";  // k-row strides of the shared tiles\n"
                    "shared " + shared_type + " sa[BK * SA" + shared_div + "];\n"
                    "shared " + shared_type + " sb[BK * SB" + shared_div + "];\n";
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
      std::string(partial
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
      acc_decl +
      "    " + A + " pa[" + num(per(g.bm)) + "], pb[" + num(per(g.bn)) + "];\n" +
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

// The combining pass of a split-K product: each element (flat index e of the batch x M x N
// product) sums its S partial products (in0, S consecutive batch x M x N blocks) in order
// 0, 1, ..., S - 1 in the accumulator type, rounds the sum to the product's dtype, and stores
// it, or evaluates the epilogue (as gemm_body's) at flat index e.
std::string combine_body(const KernelSpec& spec, TapeEmitter* epilogue) {
  const DType t = spec.inputs[1].dtype;
  const std::string A = acc_type(t);
  VKA_ASSERT(std::string(storage_type(spec.inputs[0].dtype)) == A);
  std::string r = "layout(local_size_x = " + std::to_string(kGemmCombineGroup) + ") in;\n"
                  "void main() {\n"
                  "  int M = int(pc.c0.x), N = int(pc.c0.y), batch = int(pc.c1.y);\n"
                  "  int S = int(pc.c2.x);\n"
                  "  int total = batch * M * N, a0 = int(pc.off0);\n"
                  "  int grid = int(gl_NumWorkGroups.x) * " + std::to_string(kGemmCombineGroup) +
                  ";\n"
                  "  for (int e = int(gl_GlobalInvocationID.x); e < total; e += grid) {\n"
                  "    precise " + A + " acc = in0.v[a0 + e];\n"
                  "    for (int s = 1; s < S; ++s) {\n"
                  "      " + A + " p = in0.v[a0 + s * total + e];\n";
  r += is_bool(t) ? "      acc = acc | p;\n" : "      acc = acc + p;\n";
  r += "    }\n";
  if (!epilogue) {
    r += "    out0.v[int(pc.off2) + e] = " + std::string(storage_type(t)) + "(acc);\n";
  } else {
    const std::string it = index_type(spec);
    GlslWriter w;
    w.open("");
    w.line(std::string(value_type(t)) + " gemm_value = " + product_value(t, "acc") + ";");
    w.line(it + " i = " + it + "(e);");
    emit_nd_index(spec, w);
    epilogue->emit(w);
    w.close();
    r += w.str();
  }
  r += "  }\n"
       "}\n";
  return r;
}

}  // namespace

std::string emit_gemm_coop(const KernelSpec& spec);  // kernels/gemm_coop.cc

std::string emit_gemm(const KernelSpec& spec) {
  VKA_ASSERT(spec.kind == KernelKind::kGemm && spec.tape.empty());
  if (spec.gemm.coop) return emit_gemm_coop(spec);
  const DType t = spec.inputs[1].dtype;
  auto type = [](const Accessor& a) { return std::string(storage_type(a.dtype)); };
  GlslWriter push;
  emit_push_block(spec, push);
  return "#version 450\n" + dtype_extensions(t) + "// " + spec.name() + "\n" +
         storage_buffer(0, "readonly", type(spec.inputs[0]), "in0") +
         storage_buffer(1, "readonly", type(spec.inputs[1]), "in1") +
         storage_buffer(2, "writeonly", type(spec.outputs[0]), "out0") + push.str() +
         (spec.gemm.split == GemmSplit::kCombine ? combine_body(spec, nullptr)
                                                 : gemm_body(spec, nullptr));
}

void emit_gemm_main(const KernelSpec& spec, TapeEmitter& epilogue, GlslWriter& w) {
  VKA_ASSERT(spec.kind == KernelKind::kGemm && !spec.gemm.coop && !spec.tape.empty());
  w.raw(spec.gemm.split == GemmSplit::kCombine ? combine_body(spec, &epilogue)
                                               : gemm_body(spec, &epilogue));
}

DType gemm_accumulator(DType t) {
  switch (t) {
    case DType::kBool:
    case DType::kUInt8:
    case DType::kUInt16:
      return DType::kUInt32;
    case DType::kInt8:
    case DType::kInt16:
      return DType::kInt32;
    case DType::kFloat16:
      return DType::kFloat32;
    default:
      return t;
  }
}

}  // namespace vka
