// The 64 x 64 float16 GEMM on cooperative matrices (gemm_coop_spec's "old" kernel; the
// pipelined one is in kernels/gen/gemm_coop.cc).
#include "kernels/gen/gemm.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/writer.h"

namespace vka {

// The 64 x 64 kernel (gemm_coop_spec, "old"). Shared memory: the A slice row-major
// (BM x BK), the B slice row-major (BK x BN), then the float32 results (BM x BN).
std::string emit_gemm_coop_64(const KernelSpec& spec) {
  const GemmSpec& g = spec.gemm;
  const int threads = kGemmCoopSubgroups * g.tm;
  auto num = [](int v) { return std::to_string(v); };
  GlslWriter push;
  emit_push_block(spec, push);
  // Tile loads as in emit_gemm, into row-major slices: element (row, col) of A's slice at
  // sa[row * BK + col], of B's (k, n) at sb[k * BN + n].
  auto load = [&](const char* sh, const char* buf, bool rows_fast, const std::string& base,
                  const std::string& srow, const std::string& scol, const std::string& lim,
                  const std::string& row0, const std::string& at) {
    std::string r = std::string("      for (int e = tid; e < 64 * BK; e += THREADS) {\n");
    r += rows_fast ? "        int row = e % 64, col = e / 64;\n"
                   : "        int col = e % BK, row = e / BK;\n";
    r += "        int gr = " + row0 +
         " + row, gc = k0 + col;\n"
         "        float16_t v = float16_t(0);\n"
         "        if (gr < " +
         lim + " && gc < K) v = " + buf + ".v[" + base + " + gr * " + srow + " + gc * " + scol +
         "];\n"
         "        " +
         sh + "[" + at +
         "] = v;\n"
         "      }\n";
    return r;
  };
  return "#version 450\n"
         "#extension GL_EXT_shader_16bit_storage : require\n"
         "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
         "#extension GL_NV_cooperative_matrix : require\n"
         "#extension GL_KHR_memory_scope_semantics : require\n"
         "#extension GL_KHR_shader_subgroup_basic : require\n"
         "// " +
         spec.name() +
         "\n"
         "layout(local_size_x = " +
         num(threads) + ") in;\n" + storage_buffer(0, "readonly", "float16_t", "in0") +
         storage_buffer(1, "readonly", "float16_t", "in1") +
         storage_buffer(2, "writeonly", "float16_t", "out0") + push.str() +
         "const int BM = 64, BN = 64, BK = " + num(g.bk) + ", THREADS = " + num(threads) +
         ";\n"
         "shared float16_t sa[BM * BK];\n"
         "shared float16_t sb[BK * BN];\n"
         "shared float sc[BM * BN];\n"
         "#define F16 fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>\n"
         "#define F32 fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>\n"
         "void main() {\n"
         "  int M = int(pc.c0.x), N = int(pc.c0.y), K = int(pc.c1.x), batch = int(pc.c1.y);\n"
         "  int a_sb = int(pc.c2.x), a_sm = int(pc.c2.y), a_sk = int(pc.c3.x);\n"
         "  int b_sb = int(pc.c3.y), b_sk = int(pc.c4.x), b_sn = int(pc.c4.y);\n"
         "  int tid = int(gl_LocalInvocationID.x);\n"
         // Subgroup s computes rows wm * 32 .. + 31 and columns wn * 32 .. + 31 of the tile.
         "  int s = int(gl_SubgroupID), wm = s >> 1, wn = s & 1;\n"
         "  int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;\n"
         "  for (int z = int(gl_WorkGroupID.z); z < batch; z += int(gl_NumWorkGroups.z)) {\n"
         "  for (int ty = int(gl_WorkGroupID.y); ty < tiles_m; ty += int(gl_NumWorkGroups.y)) {\n"
         "  for (int tx = int(gl_WorkGroupID.x); tx < tiles_n; tx += int(gl_NumWorkGroups.x)) {\n"
         "    int m0 = ty * BM, n0 = tx * BN;\n"
         "    int a_base = int(pc.off0) + z * a_sb, b_base = int(pc.off1) + z * b_sb;\n"
         "    F32 acc[2][2];\n"
         "    for (int i = 0; i < 2; ++i)\n"
         "      for (int j = 0; j < 2; ++j) acc[i][j] = F32(0.0);\n"
         "    for (int k0 = 0; k0 < K; k0 += BK) {\n" +
         load("sa", "in0", g.a_m_fast, "a_base", "a_sm", "a_sk", "M", "m0", "row * BK + col") +
         load("sb", "in1", g.b_n_fast, "b_base", "b_sn", "b_sk", "N", "n0", "col * BN + row") +
         "      barrier();\n"
         "      for (int kk = 0; kk < BK; kk += 16) {\n"
         "        F16 fa[2], fb[2];\n"
         "        for (int i = 0; i < 2; ++i)\n"
         "          coopMatLoadNV(fa[i], sa, uint((wm * 32 + i * 16) * BK + kk), uint(BK), "
         "false);\n"
         "        for (int j = 0; j < 2; ++j)\n"
         "          coopMatLoadNV(fb[j], sb, uint(kk * BN + wn * 32 + j * 16), uint(BN), "
         "false);\n"
         "        for (int i = 0; i < 2; ++i)\n"
         "          for (int j = 0; j < 2; ++j) acc[i][j] = coopMatMulAddNV(fa[i], fb[j], "
         "acc[i][j]);\n"
         "      }\n"
         "      barrier();\n"
         "    }\n"
         "    for (int i = 0; i < 2; ++i)\n"
         "      for (int j = 0; j < 2; ++j)\n"
         "        coopMatStoreNV(acc[i][j], sc, uint((wm * 32 + i * 16) * BN + wn * 32 + "
         "j * 16), uint(BN), false);\n"
         "    barrier();\n"
         "    int c_base = int(pc.off2) + z * M * N;\n"
         "    for (int e = tid; e < BM * BN; e += THREADS) {\n"
         "      int gm = m0 + e / BN, gn = n0 + e % BN;\n"
         "      if (gm < M && gn < N) out0.v[c_base + gm * N + gn] = float16_t(sc[e]);\n"
         "    }\n"
         "    barrier();\n"
         "  }\n"
         "  }\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
