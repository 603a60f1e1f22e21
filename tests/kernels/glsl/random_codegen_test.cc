// The random source ops' generated code, GPU-free: Philox-4x32-10 in GLSL that compiles for
// every random source, index width and fused use; keys and counters only in push constants.
#include <tuple>

#include <gtest/gtest.h>

#include "ir/node_ops.h"
#include "kernels/gen/elementwise.h"
#include "kernels/gen/reduce.h"
#include "schedule/schedule.h"
#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

NodePtr bits(Graph& g, Op op, DType t, Shape s, uint64_t key, uint64_t counter, uint64_t param) {
  return g.source(op, t, std::move(s),
                  {Scalar::of_uint(key), Scalar::of_uint(counter), Scalar::of_uint(param)});
}

// Uniform float64 from a stream of 64-bit units: (u >> 11) * 2^-53, as array/random/random.cc.
NodePtr uniform64(Graph& g, NodePtr u) {
  NodePtr shifted = apply(g, Op::kRightShift, {u, WeakScalar::of_int(11)});
  return apply(g, Op::kMultiply,
               {g.astype(shifted, DType::kFloat64), WeakScalar::of_float(std::ldexp(1.0, -53))});
}

ScheduledKernel one_kernel(const std::vector<NodePtr>& targets) {
  Schedule s = schedule(targets);
  EXPECT_EQ(s.kernels.size(), 1u);
  return s.kernels.at(0);
}

std::string glsl(const ScheduledKernel& k) { return emit_elementwise(k.spec); }

TEST(RandomCodegen, EverySourceCompilesAtBothIndexWidths) {
  Graph g;
  for (Shape shape : {Shape{1000}, Shape{3, 1000}, Shape{int64_t{3} << 30}}) {
    for (auto [op, t] :
         {std::pair{Op::kRandomBits, DType::kUInt32}, std::pair{Op::kRandomBits, DType::kUInt64},
          std::pair{Op::kRandomBelow, DType::kUInt64}}) {
      ScheduledKernel k = one_kernel({bits(g, op, t, shape, 1, 2, 1)});
      const std::string s = glsl(k);
      EXPECT_EQ(compile_error(s, k.spec.name()), "") << s;
      EXPECT_NE(s.find("vka_philox4x32_10"), std::string::npos);
      EXPECT_NE(s.find("0xD2511F53u"), std::string::npos);
      EXPECT_NE(s.find("0xCD9E8D57u"), std::string::npos);
      EXPECT_NE(s.find("0x9E3779B9u, 0xBB67AE85u"), std::string::npos);
      EXPECT_EQ(k.spec.index64, shape[0] > INT32_MAX) << k.spec.to_string();
    }
  }
}

TEST(RandomCodegen, KeysAndCountersAreValuesNotStructure) {
  Graph g;
  ScheduledKernel a = one_kernel({bits(g, Op::kRandomBits, DType::kUInt32, {100}, 1, 0, 1)});
  ScheduledKernel b = one_kernel({bits(g, Op::kRandomBits, DType::kUInt32, {100}, 0xdeadbeefcafeull,
                                       77, uint64_t{2} | uint64_t{1} << 32)});
  EXPECT_EQ(a.spec, b.spec);
  EXPECT_EQ(a.spec.hash(), b.spec.hash());
  EXPECT_NE(a.params.slots, b.params.slots);
  EXPECT_EQ(glsl(a), glsl(b));
}

TEST(RandomCodegen, AFloat64NormalFusesUnderTheMinimumPushConstantLimit) {
  // loc + scale * sqrt(-2 log1p(-u1)) * cos(2 pi u2): one kernel within 128 push-constant bytes.
  Graph g;
  const Shape s = {1001};
  NodePtr u1 = uniform64(g, bits(g, Op::kRandomBits, DType::kUInt64, s, 5, 0, 2));
  NodePtr u2 =
      uniform64(g, bits(g, Op::kRandomBits, DType::kUInt64, s, 5, 0, 2 | uint64_t{1} << 32));
  NodePtr r = apply(
      g, Op::kSqrt,
      {apply(g, Op::kMultiply,
             {WeakScalar::of_float(-2), apply(g, Op::kLog1p, {apply(g, Op::kNegative, {u1})})})});
  NodePtr c =
      apply(g, Op::kCos, {apply(g, Op::kMultiply, {WeakScalar::of_float(6.283185307179586), u2})});
  NodePtr z = apply(g, Op::kMultiply, {r, c});
  NodePtr y =
      apply(g, Op::kAdd,
            {apply(g, Op::kMultiply, {z, WeakScalar::of_float(2)}), WeakScalar::of_float(1)});
  ScheduledKernel k = one_kernel({y});
  EXPECT_LE(push_layout(k.spec).size, 128u);
  const std::string src = glsl(k);
  EXPECT_EQ(compile_error(src, k.spec.name()), "") << src;
  // One Philox block serves both uniforms: the block helper is emitted once.
  EXPECT_EQ(src.find("uvec4 vka_random_block"), src.rfind("uvec4 vka_random_block"));
}

TEST(RandomCodegen, VectorizedDrawsTakeTheirLanesFromWholeBlocks) {
  Graph g;
  for (auto [t, quad, lane3] :
       {std::tuple{DType::kUInt32, "vka_random_quad32(pc.", "= rq0[0].w;"},
        std::tuple{DType::kUInt64, "vka_random_quad64(pc.", "= pack64(rq0[1].zw);"}}) {
    ScheduledKernel k = one_kernel({bits(g, Op::kRandomBits, t, {4099}, 1, 2, 1)});
    k.spec.vector_width = 4;
    const std::string src = glsl(k);
    EXPECT_EQ(compile_error(src, k.spec.name()), "") << src;
    // Drawn once before the lanes, which read what it drew.
    EXPECT_NE(src.find(quad), std::string::npos) << src;
    EXPECT_EQ(src.find(quad), src.rfind(quad)) << src;
    EXPECT_NE(src.find(lane3), std::string::npos) << src;
  }
  // Float32 normals: both of a pair from each 64-bit unit, two pairs from one block.
  ScheduledKernel n = one_kernel({bits(g, Op::kRandomNormal, DType::kFloat32, {4099}, 1, 2, 1)});
  n.spec.vector_width = 4;
  const std::string normal = glsl(n);
  EXPECT_EQ(compile_error(normal, n.spec.name()), "") << normal;
  EXPECT_NE(normal.find("vka_random_quad_normal32(pc."), std::string::npos) << normal;
  EXPECT_NE(normal.find("= uintBitsToFloat(rq0[0].w);"), std::string::npos) << normal;
  // random_below reads a block per element: no lanes to share.
  ScheduledKernel k = one_kernel({bits(g, Op::kRandomBelow, DType::kUInt64, {4099}, 1, 2, 10)});
  k.spec.vector_width = 4;
  EXPECT_EQ(glsl(k).find("vka_random_quad"), std::string::npos);
}

TEST(RandomCodegen, AReductionOfADrawIsOneKernel) {
  Graph g;
  NodePtr u = bits(g, Op::kRandomBits, DType::kUInt32, {4099}, 3, 0, 1);
  NodePtr f = g.astype(apply(g, Op::kRightShift, {u, WeakScalar::of_int(8)}), DType::kFloat32);
  NodePtr total = g.reduce(Op::kSum, f, {0}, false, DType::kFloat32);
  ScheduledKernel k = one_kernel({total});
  EXPECT_EQ(k.spec.kind, KernelKind::kReduce);
  const std::string src = emit_elementwise(k.spec);
  EXPECT_EQ(compile_error(src, k.spec.name()), "") << src;
}

}  // namespace
}  // namespace vka
