// The executable tour of vkarray: one expression walked through every stage of the pipeline,
// printing each artifact. It is the architecture document that cannot go stale: if a stage
// changes shape, this test says how. Run it with --test_output=all to read the tour.
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "array/array.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/compile.h"
#include "kernels/gen/elementwise.h"
#include "runtime/realize.h"
#include "schedule/schedule.h"

namespace vka {
namespace {

TEST(Tour, OneExpressionThroughEveryStage) {
  // 0. Data on the device: three uploaded float32 vectors (every replica of the context).
  std::vector<float> ha = {1, 2, 3, 4}, hx = {0.5f, 0.5f, 2, -1}, hb = {10, 20, 30, 40};
  Array a = Array::from_host(ha.data(), {4}, DType::kFloat32);
  Array x = Array::from_host(hx.data(), {4}, DType::kFloat32);
  Array b = Array::from_host(hb.data(), {4}, DType::kFloat32);

  // 1. Front end: operators build an immutable graph; nothing runs yet.
  Array y = sqrt(abs(a * x + b)) * 2.0;
  std::printf("1. graph:\n%s\n", to_string({y.node()}).c_str());
  EXPECT_TRUE(y.is_lazy());
  EXPECT_EQ(y.dtype(), DType::kFloat32);  // the Python-scalar 2.0 is weak: float32 stays

  // 2. Schedule: the graph is cut into kernel specs — here one fused elementwise kernel.
  Schedule plan = schedule({y.node()}, limits_of(y.context()->device(0).caps()));
  std::printf("2. schedule:\n%s\n", plan.to_string().c_str());
  ASSERT_EQ(plan.kernels.size(), 1u);
  const KernelSpec& spec = plan.kernels[0].spec;

  // 3. KernelSpec: plain data, structure only (sizes and the constant 2.0 are launch params).
  std::printf("3. spec %s:\n%s\n", spec.name().c_str(), spec.to_string().c_str());
  EXPECT_EQ(spec.name(), "ew_f32_3in_1out_contig");
  EXPECT_EQ(spec.inputs.size(), 3u);

  // 4. GLSL, generated from the spec.
  const std::string glsl = emit_elementwise(spec);
  std::printf("4. GLSL:\n%s\n", numbered_source(glsl).c_str());
  EXPECT_NE(glsl.find("sqrt"), std::string::npos);

  // 5. SPIR-V, compiled with shaderc.
  const std::vector<uint32_t> spirv = compile_glsl(glsl, spec.name());
  std::printf("5. SPIR-V: %zu words, magic 0x%08x\n\n", spirv.size(), spirv[0]);
  EXPECT_EQ(spirv[0], 0x07230203u);

  // 6. A pipeline on the device, binding i = argument i, one push-constant block.
  Device& dev = y.context()->device(0);
  Pipeline pipeline(dev, spirv, spec.num_bindings(), push_layout(spec).size, spec.name());
  std::printf("6. pipeline: %u bindings, %u push-constant bytes\n\n", pipeline.num_bindings(),
              pipeline.push_constant_bytes());

  // 7. realize(): all of the above plus dispatch on every replica; the result downloads.
  const uint64_t before = realize_stats().kernels;
  std::vector<float> out = y.to_vector<float>();
  EXPECT_EQ(realize_stats().kernels - before, 1u);
  std::printf("7. result:");
  for (size_t i = 0; i < out.size(); ++i) {
    std::printf(" %g", out[i]);
    EXPECT_FLOAT_EQ(out[i], std::sqrt(std::abs(ha[i] * hx[i] + hb[i])) * 2.0f);
  }
  std::printf("\n");
}

}  // namespace
}  // namespace vka
