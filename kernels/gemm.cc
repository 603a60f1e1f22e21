// The GEMM kernel's GLSL (kernels/gemm.h): fixed text around the dtype's types and the tiling.
#include "kernels/gemm.h"

#include "device/errors.h"
#include "kernels/glsl_ops.h"
#include "kernels/glsl_writer.h"
#include "kernels/indexing.h"

namespace vka {
namespace {

// The accumulator (and shared-memory) type: numpy's compute type, uint for bool (or-of-and).
std::string acc_type(DType t) { return is_bool(t) ? "uint" : std::string(compute_type(t)); }

std::string extensions(DType t) {
  std::string h;
  if (itemsize(t) == 1) {
    h += "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
         "#extension GL_EXT_shader_8bit_storage : require\n";
  }
  if (itemsize(t) == 2) {
    h += "#extension GL_EXT_shader_16bit_storage : require\n"
         "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
         "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n";
  }
  if (t == DType::kInt64 || t == DType::kUInt64) {
    h += "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n";
  }
  return h;
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

uint32_t gemm_shared_bytes(const GemmConfig& c, DType t) {
  uint32_t word = is_bool(t) ? 4 : static_cast<uint32_t>(itemsize(t));
  if (itemsize(t) < 4) word = 4;  // 8- and 16-bit values are staged in 32 bits
  return static_cast<uint32_t>(c.bk * (c.bm + c.bn)) * word;
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
  return s;
}

std::string emit_gemm(const KernelSpec& spec) {
  VKA_ASSERT(spec.kind == KernelKind::kGemm);
  const DType t = spec.outputs[0].dtype;
  const GemmSpec& g = spec.gemm;
  const std::string A = acc_type(t);
  const std::string S(storage_type(t));
  const int threads = (g.bm / g.tm) * (g.bn / g.tn);
  GlslWriter push;
  emit_push_block(spec, push);
  auto num = [](int v) { return std::to_string(v); };
  // Tile loaders: element e of the tile → (row, col) with the operand's stride-1 axis fast.
  auto loader = [&](const char* sh, const char* buf, int rows, bool rows_fast,
                    const std::string& base,
                    const std::string& srow, const std::string& scol,
                    const std::string& rows_lim, const std::string& row0,
                    const std::string& cols_lim) {
    // sh[col * rows + row] = buf[base + (row0 + row) * srow + (k0 + col) * scol]. For A, rows
    // are m and cols are k; for B, rows are n and cols are k.
    const std::string count = num(rows) + " * BK";
    std::string r = std::string("      for (int e = tid; e < ") + count + "; e += THREADS) {\n";
    if (rows_fast) {
      r += "        int row = e % " + num(rows) + ", col = e / " + num(rows) + ";\n";
    } else {
      r += "        int col = e % BK, row = e / BK;\n";
    }
    r += "        int gr = " + row0 + " + row, gc = k0 + col;\n"
         "        " + A + " v = " + A + "(0);\n"
         "        if (gr < " + rows_lim + " && gc < " + cols_lim + ") v = " + A + "(" + buf +
         ".v[" + base + " + gr * " + srow + " + gc * " + scol + "]);\n"
         "        " + sh + "[col * " + num(rows) + " + row] = v;\n"
         "      }\n";
    return r;
  };
  std::string src = "#version 450\n" + extensions(t) + "// " + spec.name() + "\n" +
                    "layout(local_size_x = " + num(threads) + ") in;\n" +
                    storage_buffer(0, "readonly", S, "in0") +
                    storage_buffer(1, "readonly", S, "in1") +
                    storage_buffer(2, "writeonly", S, "out0") + push.str() +
                    "const int BM = " + num(g.bm) + ", BN = " + num(g.bn) + ", BK = " +
                    num(g.bk) + ", TM = " + num(g.tm) + ", TN = " + num(g.tn) + ";\n"
                    "const int RT = BM / TM, CT = BN / TN, THREADS = " + num(threads) + ";\n"
                    "shared " + A + " sa[BK * BM];\n"
                    "shared " + A + " sb[BK * BN];\n";
  src +=
      "void main() {\n"
      "  int M = int(pc.c0.x), N = int(pc.c1.x), K = int(pc.c2.x), batch = int(pc.c3.x);\n"
      "  int a_sb = int(pc.c4.x), a_sm = int(pc.c5.x), a_sk = int(pc.c6.x);\n"
      "  int b_sb = int(pc.c7.x), b_sk = int(pc.c8.x), b_sn = int(pc.c9.x);\n"
      "  int tid = int(gl_LocalInvocationID.x);\n"
      "  int tr = tid / CT, tc = tid - tr * CT;\n"
      "  int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;\n"
      // Workgroup-uniform loops: every barrier inside is reached by the whole workgroup.
      "  for (int z = int(gl_WorkGroupID.z); z < batch; z += int(gl_NumWorkGroups.z)) {\n"
      "  for (int ty = int(gl_WorkGroupID.y); ty < tiles_m; ty += int(gl_NumWorkGroups.y)) {\n"
      "  for (int tx = int(gl_WorkGroupID.x); tx < tiles_n; tx += int(gl_NumWorkGroups.x)) {\n"
      "    int m0 = ty * BM, n0 = tx * BN;\n"
      "    int a_base = int(pc.off0) + z * a_sb, b_base = int(pc.off1) + z * b_sb;\n"
      "    " + A + " acc[TM][TN];\n"
      "    for (int i = 0; i < TM; ++i)\n"
      "      for (int j = 0; j < TN; ++j) acc[i][j] = " + A + "(0);\n"
      "    for (int k0 = 0; k0 < K; k0 += BK) {\n" +
      loader("sa", "in0", g.bm, g.a_m_fast, "a_base", "a_sm", "a_sk", "M", "m0", "K") +
      loader("sb", "in1", g.bn, g.b_n_fast, "b_base", "b_sn", "b_sk", "N", "n0", "K") +
      "      barrier();\n"
      "      for (int kk = 0; kk < BK; ++kk) {\n"
      "        " + A + " ra[TM], rb[TN];\n"
      "        for (int i = 0; i < TM; ++i) ra[i] = sa[kk * BM + tr + i * RT];\n"
      "        for (int j = 0; j < TN; ++j) rb[j] = sb[kk * BN + tc + j * CT];\n"
      "        for (int i = 0; i < TM; ++i)\n"
      "          for (int j = 0; j < TN; ++j) acc[i][j] = " +
      multiply_add(t, "acc[i][j]", "ra[i]", "rb[j]") + ";\n"
      "      }\n"
      "      barrier();\n"
      "    }\n"
      "    int c_base = int(pc.off2) + z * M * N;\n"
      "    for (int i = 0; i < TM; ++i) {\n"
      "      int gm = m0 + tr + i * RT;\n"
      "      if (gm >= M) continue;\n"
      "      for (int j = 0; j < TN; ++j) {\n"
      "        int gn = n0 + tc + j * CT;\n"
      "        if (gn < N) out0.v[c_base + gm * N + gn] = " + S + "(acc[i][j]);\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  }\n"
      "  }\n"
      "}\n";
  return src;
}

}  // namespace vka
