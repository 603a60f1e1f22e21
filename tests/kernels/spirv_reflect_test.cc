// SPIR-V reflection of user kernels (kernels/spirv_reflect.h), on shaders compiled by shaderc.
#include "kernels/spirv_reflect.h"

#include <gtest/gtest.h>

#include "base/errors.h"
#include "kernels/compile.h"

namespace vka {
namespace {

TEST(SpirvReflect, BindingsPushConstantsSpecConstantsAndLocalSize) {
  const std::string src = R"(#version 450
layout(local_size_x_id = 2, local_size_y = 4) in;
layout(constant_id = 0) const float f = 1.5;
layout(constant_id = 1) const double d = 2.0;
layout(constant_id = 3) const int i = -7;
layout(constant_id = 4) const bool b = true;
layout(push_constant) uniform P { float x; double y; uint z[3]; } pc;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 2) buffer B { float o[]; };
layout(binding = 3) writeonly buffer C { float c[]; };
void main() {
  uint g = gl_GlobalInvocationID.x;
  o[g] = a[g] * f + float(d) + float(i) + (b ? 1.0 : 0.0) + pc.x + float(pc.y) + float(pc.z[2]);
  c[g] = 1.0;
}
)";
  const ShaderInfo info = reflect_spirv(compile_glsl(src, "t"), "t");
  EXPECT_EQ(info.declared, (std::vector<bool>{true, false, true, true}));
  EXPECT_TRUE(info.readonly[0]);
  EXPECT_FALSE(info.readonly[2]);
  EXPECT_FALSE(info.readonly[3]);
  EXPECT_EQ(info.push_constant_bytes, 16u + 12u);  // x at 0, y at 8, z at 16 (stride 4)
  ASSERT_EQ(info.spec_constants.size(), 5u);  // 0, 1, 2 (local size x), 3, 4
  EXPECT_EQ(info.spec_constants.at(0).kind, SpecConstantInfo::kFloat);
  EXPECT_EQ(info.spec_constants.at(1).bytes, 8u);
  EXPECT_EQ(info.spec_constants.at(2).kind, SpecConstantInfo::kUInt);
  EXPECT_EQ(info.spec_constants.at(3).kind, SpecConstantInfo::kInt);
  EXPECT_EQ(static_cast<int32_t>(info.spec_constants.at(3).default_bits), -7);
  EXPECT_EQ(info.spec_constants.at(4).kind, SpecConstantInfo::kBool);
  EXPECT_EQ(info.local_size_id[0], 2);
  EXPECT_EQ(info.local_size_id[1], -1);
  EXPECT_EQ(info.local_size[1], 4u);
  EXPECT_EQ(info.local_size[2], 1u);
}

TEST(SpirvReflect, RefusesWhatUserKernelsCannotBind) {
  const std::string uniform = R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) uniform U { float u; };
layout(binding = 1) buffer B { float b[]; };
void main() { b[0] = u; }
)";
  EXPECT_THROW(reflect_spirv(compile_glsl(uniform, "u"), "u"), ShapeError);
  const std::string set1 = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 1, binding = 0) buffer B { float b[]; };
void main() { b[0] = 1.0; }
)";
  EXPECT_THROW(reflect_spirv(compile_glsl(set1, "s"), "s"), ShapeError);
  EXPECT_THROW(reflect_spirv({0x07230203u, 0x10000, 0, 1, 0}, "empty"), ShapeError);
  EXPECT_THROW(reflect_spirv({1, 2, 3}, "garbage"), ShapeError);
}

}  // namespace
}  // namespace vka
