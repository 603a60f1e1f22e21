// The GEMM kernel's GLSL (kernels/gemm.h) for every dtype, both shared-memory layouts (scalar
// and 4-vector), every operand load order and tilings with partial loads per invocation must
// compile to SPIR-V (Vulkan 1.2), and the spec must name and distinguish each variant.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/gemm.h"
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
      if (i != j) EXPECT_NE(specs[i].name(), specs[j].name());
    }
  }
  EXPECT_EQ(specs[1].name(), "gemm_f32_64x64x16_4x4_nn_v4");
  // k rows padded by a 4-vector (4-vector layout) or one element (scalar layout)
  EXPECT_EQ(gemm_shared_bytes({128, 128, 8, 8, 8}, DType::kFloat32), 8u * 264 * 4);
  EXPECT_EQ(gemm_shared_bytes({64, 64, 8, 4, 4}, DType::kComplex128), 8u * 130 * 16);
}

// Split-K's passes (kernels/gemm.h): the partial pass stores the accumulator dtype and takes
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

// The cooperative-matrix float16 kernel: lavapipe cannot run it, so it is compiled here (the
// GPU runs it through tests/array/matmul_test when the device offers cooperative matrices).
TEST(GemmCodegen, CooperativeMatrixKernelCompiles) {
  for (uint32_t subgroup : {32u, 64u}) {
    for (bool a_m_fast : {false, true}) {
      for (bool b_n_fast : {false, true}) {
        const KernelSpec spec = gemm_coop_spec(a_m_fast, b_n_fast, subgroup);
        EXPECT_TRUE(spec.gemm.coop);
        EXPECT_NE(spec.name().find("_coop"), std::string::npos);
        const std::string glsl = emit_gemm(spec);
        EXPECT_NE(glsl.find("coopMatMulAddNV"), std::string::npos);
        const std::string err = compile_error(glsl, spec.name());
        EXPECT_TRUE(err.empty()) << err;
      }
    }
  }
  EXPECT_NE(gemm_coop_spec(false, true, 32), gemm_coop_spec(false, true, 64));
  EXPECT_NE(gemm_coop_spec(false, true, 32),
            gemm_spec(DType::kFloat16, {64, 64, 32, 1, 1}, false, true));
}

}  // namespace
}  // namespace vka
