// The GEMM kernel's GLSL (kernels/gen/gemm.h) for every dtype, both shared-memory layouts (scalar
// and 4-vector), every operand load order and tilings with partial loads per invocation must
// compile to SPIR-V (Vulkan 1.2), and the spec must name and distinguish each variant.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/gen/gemm.h"
#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

constexpr DType kAll[] = {DType::kBool,      DType::kInt8,      DType::kUInt8,   DType::kInt16,
                          DType::kUInt16,    DType::kInt32,     DType::kUInt32,  DType::kInt64,
                          DType::kUInt64,    DType::kFloat16,   DType::kFloat32, DType::kFloat64,
                          DType::kComplex64, DType::kComplex128};

TEST(GemmCodegen, EveryDtypeAndLayoutCompiles) {
  // 128x128x8x8x8: the GPU default (4-vector layout for real dtypes); 16x32x8x2x4: scalar
  // layout; 32x32x3x4x4: a K slice that does not divide the tile loads evenly.
  const std::vector<GemmConfig> configs = {
      {128, 128, 8, 8, 8}, {16, 32, 8, 2, 4}, {32, 32, 3, 4, 4}};
  for (DType t : kAll) {
    for (const GemmConfig& c : configs) {
      const KernelSpec spec = gemm_spec(t, c, false, true);
      EXPECT_EQ(spec.gemm.vec4, !is_complex(t) && c.tm % 4 == 0 && c.tn % 4 == 0);
      const std::string err = compile_error(emit_gemm(spec), spec.name());
      EXPECT_TRUE(err.empty()) << err;
    }
  }
}

TEST(GemmCodegen, EveryLoadOrderCompilesAndIsItsOwnKernel) {
  std::vector<KernelSpec> specs;
  for (bool a_m_fast : {false, true}) {
    for (bool b_n_fast : {false, true}) {
      specs.push_back(gemm_spec(DType::kFloat32, {64, 64, 16, 4, 4}, a_m_fast, b_n_fast));
      const std::string err = compile_error(emit_gemm(specs.back()), specs.back().name());
      EXPECT_TRUE(err.empty()) << err;
    }
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    for (size_t j = 0; j < specs.size(); ++j) {
      EXPECT_EQ(specs[i] == specs[j], i == j);
      if (i != j) {
        EXPECT_NE(specs[i].name(), specs[j].name());
      }
    }
  }
  EXPECT_EQ(specs[1].name(), "gemm_f32_64x64x16_4x4_nn_v4");
  // k rows padded by a 4-vector (4-vector layout) or one element (scalar layout)
  EXPECT_EQ(gemm_shared_bytes({128, 128, 8, 8, 8}, DType::kFloat32), 8u * 264 * 4);
  EXPECT_EQ(gemm_shared_bytes({64, 64, 8, 4, 4}, DType::kComplex128), 8u * 130 * 16);
}

// Split-K's passes (kernels/gen/gemm.h): the partial pass stores the accumulator dtype and takes
// one more slot; the combining pass reads the partials as input 0.
TEST(GemmCodegen, SplitKPassesCompileForEveryDtype) {
  for (DType t : kAll) {
    for (const GemmConfig& c : {GemmConfig{128, 128, 8, 8, 8}, GemmConfig{16, 24, 4, 2, 3}}) {
      KernelSpec partial = gemm_spec(t, c, true, false);
      partial.gemm.split = GemmSplit::kPartial;
      partial.outputs[0].dtype = gemm_accumulator(t);
      partial.slots.push_back(DType::kInt64);
      std::string glsl = emit_gemm(partial);
      EXPECT_NE(glsl.find("kend"), std::string::npos);
      std::string err = compile_error(glsl, partial.name());
      EXPECT_TRUE(err.empty()) << err;
      KernelSpec combine = gemm_spec(t, c, true, false);
      combine.gemm.split = GemmSplit::kCombine;
      combine.inputs[0].dtype = gemm_accumulator(t);
      err = compile_error(emit_gemm(combine), combine.name());
      EXPECT_TRUE(err.empty()) << err;
      EXPECT_NE(partial, combine);
      EXPECT_NE(partial.name(), combine.name());
      EXPECT_NE(partial, gemm_spec(t, c, true, false));
    }
  }
  EXPECT_EQ(gemm_accumulator(DType::kBool), DType::kUInt32);
  EXPECT_EQ(gemm_accumulator(DType::kInt8), DType::kInt32);
  EXPECT_EQ(gemm_accumulator(DType::kUInt16), DType::kUInt32);
  EXPECT_EQ(gemm_accumulator(DType::kFloat16), DType::kFloat32);
  EXPECT_EQ(gemm_accumulator(DType::kComplex64), DType::kComplex64);
}

// The cooperative-matrix float16 kernels: lavapipe cannot run them, so they are compiled here
// (the GPU runs them through tests/array/matmul_test when the device offers cooperative
// matrices): the 64 x 64 one and pipelined tilings (the default; 8 subgroups of 4 x 2
// fragments; 1 x 1 fragments with a K slice of 16; a tile whose slices do not divide evenly
// among the invocations), for every operand layout and both subgroup sizes.
TEST(GemmCodegen, CooperativeMatrixKernelsCompile) {
  const std::vector<GemmCoopConfig> configs = {
      GemmCoopConfig{false, 0, 0, 0, 0, 0}, GemmCoopConfig{},
      GemmCoopConfig{true, 128, 128, 32, 4, 2}, GemmCoopConfig{true, 32, 32, 16, 1, 1},
      GemmCoopConfig{true, 64, 48, 48, 2, 3}};
  for (const GemmCoopConfig& c : configs) {
    ASSERT_EQ(gemm_coop_invalid(c), "") << to_string(c);
    for (uint32_t subgroup : {32u, 64u}) {
      for (bool a_m_fast : {false, true}) {
        for (bool b_n_fast : {false, true}) {
          const KernelSpec spec = gemm_coop_spec(a_m_fast, b_n_fast, subgroup, c);
          EXPECT_TRUE(spec.gemm.coop);
          EXPECT_NE(spec.name().find("_coop"), std::string::npos);
          EXPECT_EQ(gemm_coop_threads(spec.gemm), c.subgroups() * subgroup);
          const std::string glsl = emit_gemm(spec);
          EXPECT_NE(glsl.find("coopMatMulAddNV"), std::string::npos);
          EXPECT_EQ(glsl.find("in0v.v[") != std::string::npos, c.pipelined);
          const std::string err = compile_error(glsl, spec.name());
          EXPECT_TRUE(err.empty()) << err;
        }
      }
    }
  }
  // Emulated cooperative matrices (tests on devices without them): plain GLSL, every layout.
  for (bool a_m_fast : {false, true}) {
    for (bool b_n_fast : {false, true}) {
      const KernelSpec spec = gemm_coop_spec(a_m_fast, b_n_fast, 8, {true, 64, 48, 48, 2, 3}, true);
      EXPECT_NE(spec, gemm_coop_spec(a_m_fast, b_n_fast, 8, {true, 64, 48, 48, 2, 3}));
      EXPECT_NE(spec.name().find("_emulated_coop"), std::string::npos) << spec.name();
      const std::string glsl = emit_gemm(spec);
      EXPECT_EQ(glsl.find("GL_NV_cooperative_matrix"), std::string::npos);
      const std::string err = compile_error(glsl, spec.name());
      EXPECT_TRUE(err.empty()) << err;
    }
  }
  EXPECT_NE(gemm_coop_spec(false, true, 32), gemm_coop_spec(false, true, 64));
  EXPECT_NE(gemm_coop_spec(false, true, 32), gemm_coop_spec(false, true, 32, {false}));
  EXPECT_NE(gemm_coop_spec(false, true, 32), gemm_coop_spec(true, true, 32));
  EXPECT_NE(gemm_coop_spec(false, true, 32, {true, 128, 128, 32, 4, 2}),
            gemm_coop_spec(false, true, 32, {true, 128, 128, 32, 2, 4}));
  EXPECT_NE(gemm_coop_spec(false, true, 32, {false}),
            gemm_spec(DType::kFloat16, {64, 64, 32, 1, 1}, false, true));
  EXPECT_EQ(gemm_coop_spec(false, true, 32).name(), "gemm_f16_128x128x32_32x44_nn_coop");
  EXPECT_EQ(gemm_coop_spec(false, true, 32, {false}).name(), "gemm_f16_64x64x32_32x1_nn_coop");
}

// Shared memory and invocations of the cooperative kernels: the 64 x 64 one as it always was;
// the pipelined one two stages of padded A and B slices (16-byte words) and a 16 x 16 float16
// staging tile per subgroup.
TEST(GemmCodegen, CooperativeMatrixKernelResources) {
  const GemmSpec old = gemm_coop_spec(false, true, 32, {false}).gemm;
  EXPECT_EQ(gemm_coop_threads(old), 128u);
  EXPECT_EQ(gemm_coop_shared_bytes(old), 64u * 32 * 2 * 2 + 64 * 64 * 4);
  // 128 x 128 x 32, 4 x 4 fragments: 4 subgroups; A k-fast 128 rows of 40, B n-fast 32 of 136.
  const GemmSpec nn = gemm_coop_spec(false, true, 32).gemm;
  EXPECT_EQ(gemm_coop_threads(nn), 128u);
  EXPECT_EQ(gemm_coop_shared_bytes(nn), 2u * (128 * 40 + 32 * 136) * 2 + 4 * 512);
  // A m-fast: 32 rows of 136; B k-fast: 128 rows of 40.
  const GemmSpec tt = gemm_coop_spec(true, false, 32).gemm;
  EXPECT_EQ(gemm_coop_shared_bytes(tt), 2u * (32 * 136 + 128 * 40) * 2 + 4 * 512);
  EXPECT_EQ(gemm_coop_threads(gemm_coop_spec(false, true, 64, {true, 128, 128, 32, 4, 2}).gemm),
            8u * 64);
  EXPECT_NE(gemm_coop_invalid({true, 100, 128, 32, 4, 4}), "");
  EXPECT_NE(gemm_coop_invalid({true, 128, 128, 24, 4, 4}), "");
  EXPECT_NE(gemm_coop_invalid({true, 128, 128, 32, 0, 4}), "");
  EXPECT_EQ(to_string(GemmCoopConfig{}), "128x128x32x4x4");
  EXPECT_EQ(to_string(GemmCoopConfig{false}), "old");
}

}  // namespace
}  // namespace vka
