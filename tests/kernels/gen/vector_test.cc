// The vectorized elementwise variants (vector_width 4 and 2): when a launch may use them, and
// that their GLSL compiles for every real dtype with whole-vector loads and stores.
#include <gtest/gtest.h>

#include "ir/node_ops.h"
#include "kernels/gen/elementwise.h"
#include "schedule/schedule.h"
#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

NodePtr leaf(Graph& g, DType t, View v) {
  return g.buffer(std::make_shared<BufferRef>(), t, std::move(v));
}

TEST(VectorWidth, ChosenOnlyForAlignedContiguousLaunches) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, View::contiguous({1000}));
  NodePtr b = leaf(g, DType::kFloat32, View::contiguous({1000}, 8));
  ScheduledKernel k = schedule({apply(g, Op::kAdd, {a, b})}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 4);

  NodePtr odd = leaf(g, DType::kFloat32, View::contiguous({1000}, 3));  // offset 3
  k = schedule({apply(g, Op::kAdd, {a, odd})}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 1);

  NodePtr c = leaf(g, DType::kComplex64, View::contiguous({1000}));
  k = schedule({apply(g, Op::kConj, {c})}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 1);

  // Rank 2 along rows with stride 1 (a broadcast row, any alignment): row vectors.
  NodePtr m = leaf(g, DType::kFloat32, View::contiguous({10, 100}));
  NodePtr row = leaf(g, DType::kFloat32, View::contiguous({100}, 1));
  k = schedule({apply(g, Op::kMultiply, {m, row})}).kernels.at(0);
  EXPECT_EQ(k.spec.rank, 2);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 4);
  // A transposed operand does not run along rows: scalar.
  NodePtr t = leaf(g, DType::kFloat32, transpose(View::contiguous({100, 10})));
  k = schedule({apply(g, Op::kMultiply, {m, t})}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 1);

  NodePtr s = leaf(g, DType::kFloat32, View::contiguous({}));  // a 0-d operand is a scalar
  k = schedule({apply(g, Op::kMultiply, {a, s})}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 4);

  // 8-byte outputs: vectors of 2, whose offsets need only be even; 8-byte inputs alone: 4.
  NodePtr d = leaf(g, DType::kFloat64, View::contiguous({1000}, 2));
  k = schedule({apply(g, Op::kAdd, {d, d})}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 2);
  k = schedule({g.astype(d, DType::kFloat32)}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 1);  // offset 2 is not a float32 vector's
  NodePtr d4 = leaf(g, DType::kFloat64, View::contiguous({1000}, 4));
  k = schedule({g.astype(d4, DType::kFloat32)}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 4);
  NodePtr d1 = leaf(g, DType::kInt64, View::contiguous({1000}, 1));
  k = schedule({apply(g, Op::kAdd, {d1, d1})}).kernels.at(0);
  EXPECT_EQ(choose_vector_width(k.spec, k.params), 1);
}

TEST(VectorWidth, RowVectorsCompileForEveryRealDtype) {
  const DType types[] = {DType::kBool,   DType::kInt8,    DType::kUInt8,   DType::kInt16,
                         DType::kUInt16, DType::kInt32,   DType::kUInt32,  DType::kInt64,
                         DType::kUInt64, DType::kFloat16, DType::kFloat32, DType::kFloat64};
  for (DType t : types) {
    Graph g;
    // Two shifted slices of a 12x12 array, as a stencil reads them.
    View base = View::contiguous({12, 12});
    View left = base, right = base;
    left.shape = right.shape = {10, 10};
    left.offset = 13;
    right.offset = 14;
    NodePtr a = leaf(g, t, left), b = leaf(g, t, right);
    NodePtr y = is_bool(t) ? apply(g, Op::kLogicalXor, {a, b}) : apply(g, Op::kMaximum, {a, b});
    ScheduledKernel k = schedule({y}).kernels.at(0);
    k.spec.vector_width = choose_vector_width(k.spec, k.params);
    ASSERT_EQ(k.spec.vector_width, 4) << name(t);
    const std::string glsl = emit_elementwise(k.spec);
    EXPECT_EQ(compile_error(glsl, k.spec.name()), "") << name(t);
    EXPECT_NE(glsl.find("g < groups"), std::string::npos) << glsl;     // the vector loop
    EXPECT_NE(glsl.find("t < head + tail"), std::string::npos) << glsl;  // head and tail
  }
}

TEST(VectorWidth, EveryRealDtypeCompilesWithVectorLoads) {
  const DType types[] = {DType::kBool,   DType::kInt8,    DType::kUInt8,   DType::kInt16,
                         DType::kUInt16, DType::kInt32,   DType::kUInt32,  DType::kInt64,
                         DType::kUInt64, DType::kFloat16, DType::kFloat32, DType::kFloat64};
  for (DType t : types) {
    Graph g;
    NodePtr a = leaf(g, t, View::contiguous({64}));
    NodePtr b = leaf(g, t, View::contiguous({64}));
    NodePtr y = is_bool(t) ? apply(g, Op::kLogicalXor, {a, b})
                           : apply(g, Op::kMaximum, {a, b});
    ScheduledKernel k = schedule({y, apply(g, Op::kEqual, {a, b})}).kernels.at(0);
    k.spec.vector_width = choose_vector_width(k.spec, k.params);
    // 8-byte outputs store 16-byte vectors of 2 (ir/kernel_spec.cc: choose_vector_width).
    const int width = itemsize(t) == 8 ? 2 : 4;
    ASSERT_EQ(k.spec.vector_width, width) << name(t);
    const std::string glsl = emit_elementwise(k.spec);
    EXPECT_EQ(compile_error(glsl, k.spec.name()), "") << name(t);
    EXPECT_NE(glsl.find("vec" + std::to_string(width) + " v[]"), std::string::npos) << glsl;
    EXPECT_NE(glsl.find("q < groups"), std::string::npos) << glsl;  // the vector loop
    EXPECT_NE(glsl.find("i < pc.n"), std::string::npos) << glsl;    // the tail loop
  }
}

}  // namespace
}  // namespace vka

namespace vka {
namespace {

// Kernels may ask to keep float subnormals (SPIR-V DenormPreserve), which a device that flushes
// them by default (NVIDIA for float32) then honours; the GLSL must compile with the mode.
TEST(FloatControls, DenormPreserveCompilesForEveryFloatWidth) {
  for (DType t : {DType::kFloat16, DType::kFloat32, DType::kFloat64}) {
    Graph g;
    NodePtr a = leaf(g, t, View::contiguous({64}));
    NodePtr b = leaf(g, t, View::contiguous({64}));
    ScheduledKernel k = schedule({apply(g, Op::kMultiply, {a, b})}).kernels.at(0);
    EmitOptions options;
    options.denorm_preserve_16 = options.denorm_preserve_32 = options.denorm_preserve_64 = true;
    const std::string glsl = emit_elementwise(k.spec, options);
    EXPECT_EQ(compile_error(glsl, k.spec.name()), "") << name(t);
    EXPECT_NE(glsl.find("4459, 32)"), std::string::npos) << glsl;
    EXPECT_EQ(glsl.find("4459, 64)") != std::string::npos,
              t == DType::kFloat64);
    EXPECT_EQ(emit_elementwise(k.spec).find("spirv_execution_mode"), std::string::npos);
  }
}

}  // namespace
}  // namespace vka
