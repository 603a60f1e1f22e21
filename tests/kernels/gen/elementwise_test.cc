// Structure of the generated shaders: bindings, push block, fast path, extensions, storage of
// bool, helper emission, and line numbering for error messages.
#include "kernels/gen/elementwise.h"

#include <gtest/gtest.h>

#include "base/errors.h"
#include "ir/node_ops.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/writer.h"
#include "schedule/schedule.h"
#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

NodePtr leaf(Graph& g, DType t, Shape s) {
  return g.buffer(std::make_shared<BufferRef>(), t, View::contiguous(s));
}

std::string glsl_for(const std::vector<NodePtr>& targets) {
  Schedule s = schedule(targets, Limits{64, 256, 512});
  EXPECT_EQ(s.kernels.size(), 1u);
  return emit_elementwise(s.kernels.at(0).spec);
}

bool has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

TEST(Elementwise, ContiguousFastPathHasNoNdIndex) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {8, 8}), b = leaf(g, DType::kFloat32, {8, 8});
  std::string s =
      glsl_for({apply(g, Op::kAdd, {apply(g, Op::kMultiply, {a, WeakScalar::of_float(2)}), b})});
  EXPECT_TRUE(has(s, "#version 450")) << s;
  EXPECT_TRUE(has(s, "binding = 0) readonly buffer In0 { float v[]; }")) << s;
  EXPECT_TRUE(has(s, "binding = 2) writeonly buffer Out0 { float v[]; }")) << s;
  EXPECT_TRUE(has(s, "layout(offset = 0) int n;")) << s;
  EXPECT_TRUE(has(s, "uintBitsToFloat(pc.c0.x)")) << s;  // the 2.0 is a push constant
  EXPECT_FALSE(has(s, "2.0")) << s;
  EXPECT_FALSE(has(s, "rest")) << s;
  EXPECT_FALSE(has(s, "#extension")) << s;
  EXPECT_TRUE(has(s, "for (int i = int(gl_GlobalInvocationID.x); i < pc.n; i += grid)")) << s;
  EXPECT_EQ(compile_error(s, "fast path"), "");
}

TEST(Elementwise, ContiguousKernelsUnrollWithoutNdIndex) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat64, {1000}), b = leaf(g, DType::kFloat64, {1000});
  Schedule sched =
      schedule({apply(g, Op::kAdd, {apply(g, Op::kMultiply, {a, b}), a})}, Limits{64, 256, 512});
  ASSERT_EQ(sched.kernels.size(), 1u);
  KernelSpec spec = sched.kernels[0].spec;
  spec.unroll = 4;  // what a CPU device's launch chooses (runtime/launch.cc)
  ASSERT_TRUE(unrolls(spec));
  EXPECT_EQ(flat_unroll(spec), 4);
  const std::string s = emit_elementwise(spec);
  EXPECT_TRUE(has(s, "i0 < pc.n; i0 += grid * int(4))")) << s;
  EXPECT_TRUE(has(s, "double o0[4];")) << s;
  EXPECT_TRUE(has(s, "x0[3] = (pc.off2 + i);")) << s;
  EXPECT_FALSE(has(s, "rest")) << s;  // contiguous: no index math
  EXPECT_EQ(compile_error(s, "unrolled contiguous"), "");
}

TEST(Elementwise, CopiesKeepTheBits) {
  Graph g;
  for (DType t : {DType::kFloat16, DType::kFloat32, DType::kFloat64}) {
    NodePtr a = leaf(g, t, {9});
    const std::string s = glsl_for({g.convert(a, t, {9})});
    // No conversion through float (NVIDIA makes every float16 NaN 0x7fff on the way back).
    EXPECT_FALSE(has(s, "vka_f16(")) << s;
    EXPECT_FALSE(has(s, "float(v0)")) << s;
    EXPECT_EQ(compile_error(s, "copy"), "");
  }
}

TEST(Elementwise, StridedBoolAndExtensions) {
  Graph g;
  NodePtr a =
      g.buffer(std::make_shared<BufferRef>(), DType::kInt8, transpose(View::contiguous({4, 6})));
  NodePtr b = leaf(g, DType::kFloat16, {4});
  std::string s = glsl_for({apply(g, Op::kLess, {a, b})});
  EXPECT_TRUE(has(s, "GL_EXT_shader_explicit_arithmetic_types_int8")) << s;
  EXPECT_TRUE(has(s, "GL_EXT_shader_8bit_storage")) << s;
  EXPECT_TRUE(has(s, "GL_EXT_shader_explicit_arithmetic_types_float16")) << s;
  EXPECT_TRUE(has(s, "GL_EXT_shader_16bit_storage")) << s;
  EXPECT_FALSE(has(s, "int64")) << s;
  // Rank 2 with a strided operand: row mode, workgroups along y walk rows (no division).
  EXPECT_TRUE(has(s, "gl_WorkGroupID.y")) << s;
  EXPECT_TRUE(has(s, "for (int c = col0; c < pc.dim1")) << s;
  EXPECT_TRUE(has(s, "r < rows; r += int(gl_NumWorkGroups.y) * packed")) << s;  // row_lanes
  EXPECT_TRUE(has(s, "int i1_3 = c + int(3) * cgrid;")) << s;  // 4 columns per step
  EXPECT_FALSE(has(s, "% pc.dim1")) << s;
  EXPECT_TRUE(has(s, "uint8_t v[]; } out0")) << s;  // bool stored as uint8
  EXPECT_TRUE(has(s, "? 1 : 0)")) << s;
  EXPECT_EQ(compile_error(s, "strided"), "");
}

TEST(Elementwise, RowLanesCoverShortRowsWithPartOfAWorkgroup) {
  // Invocations per row: the fewest powers of two (at least kMinRowLanes) that cover a row in
  // one pass of `columns` each; the workgroup takes 256 / lanes rows at once.
  EXPECT_EQ(row_lanes(62, 4, 256), kMinRowLanes);  // a slice's last axis of 62
  EXPECT_EQ(row_lanes(1, 1, 256), kMinRowLanes);
  EXPECT_EQ(row_lanes(128, 4, 256), 32u);
  EXPECT_EQ(row_lanes(129, 4, 256), 64u);
  EXPECT_EQ(row_lanes(1024, 4, 256), 256u);
  EXPECT_EQ(row_lanes(100000, 1, 256), 256u);
}

TEST(Elementwise, LoadsComeBeforeTheComputation) {
  // tanh(a) + tanh(b) + tanh(c): the three loads are issued before the first tanh, so their
  // latencies overlap instead of each waiting behind a routine.
  Graph g;
  NodePtr t;
  for (int k = 0; k < 3; ++k) {
    NodePtr x = apply(g, Op::kTanh, {leaf(g, DType::kFloat64, {8})});
    t = t ? apply(g, Op::kAdd, {t, x}) : x;
  }
  std::string s = glsl_for({t});
  const std::size_t first_call = s.find("= vka_tanh_f64(");
  ASSERT_NE(first_call, std::string::npos) << s;
  std::size_t last_load = 0;
  for (std::size_t p = s.find("in2.v["); p != std::string::npos; p = s.find("in2.v[", p + 1)) {
    last_load = std::max(last_load, p);
  }
  ASSERT_GT(last_load, 0u) << s;
  EXPECT_LT(last_load, first_call) << s;
  EXPECT_EQ(compile_error(s, "loads_first"), "");
}

TEST(Elementwise, Index64UsesInt64Everywhere) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {int64_t{3} << 30});
  std::string s = glsl_for({apply(g, Op::kSqrt, {a})});
  EXPECT_TRUE(has(s, "GL_EXT_shader_explicit_arithmetic_types_int64")) << s;
  EXPECT_TRUE(has(s, "layout(offset = 0) int64_t n;")) << s;
  EXPECT_TRUE(has(s, "for (int64_t i = ")) << s;
  EXPECT_TRUE(has(s, "in0.v[uint((pc.off0 + i))]")) << s;
  EXPECT_EQ(compile_error(s, "index64"), "");
}

TEST(Elementwise, SharedValueComputedOnce) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat64, {8});
  NodePtr e = apply(g, Op::kExp, {a});
  std::string s = glsl_for({apply(g, Op::kAdd, {e, e}), apply(g, Op::kMultiply, {e, a})});
  std::size_t calls = 0;
  for (std::size_t p = s.find("= vka_exp_f64("); p != std::string::npos;
       p = s.find("= vka_exp_f64(", p + 1)) {
    ++calls;
  }
  EXPECT_EQ(calls, 1u) << s;
  EXPECT_TRUE(has(s, "double vka_exp_f64(double x)")) << s;
  EXPECT_TRUE(has(s, "1.4426950408889634LF")) << s;  // double literals keep double precision
  EXPECT_EQ(compile_error(s, "shared"), "");
}

// The math library: locals are precise (no reassociation or contraction by the driver), the
// precision-independent Payne-Hanek code and 2/pi table come once in a shader that reduces
// both float and double arguments, and no int64 is needed for it.
TEST(GlslMath, PreciseLocalsAndOneSharedReductionTable) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {8});
  NodePtr b = leaf(g, DType::kFloat64, {8});
  NodePtr sa = apply(g, Op::kSin, {a});
  NodePtr sb = apply(g, Op::kCos, {b});
  std::string s = glsl_for({sa, sb, apply(g, Op::kPower, {b, b})});
  EXPECT_TRUE(has(s, "precise float r1 = a - k * 1.57080078125;")) << s;
  EXPECT_TRUE(has(s, "precise double bb = s - a;")) << s;
  std::size_t tables = 0;
  for (std::size_t p = s.find("const uint VKA_2OPI[40]"); p != std::string::npos;
       p = s.find("const uint VKA_2OPI[40]", p + 1)) {
    ++tables;
  }
  EXPECT_EQ(tables, 1u) << s;
  EXPECT_TRUE(has(s, "int vka_ph_core(")) << s;
  EXPECT_FALSE(has(s, "int64")) << s;
  EXPECT_EQ(compile_error(s, "math library"), "");
}

TEST(GlslOps, NumpySemanticsInTheExpressions) {
  HelperSet h;
  // Integer floor division: a helper with the zero and INT_MIN / -1 rules.
  std::string fd = emit_op(Op::kFloorDivide, DType::kInt32, {"a", "b"}, &h);
  EXPECT_EQ(fd, "vka_floordiv_i32(a, b)");
  EXPECT_TRUE(has(h.str(), "if (b == int(0)) return int(0);")) << h.str();
  EXPECT_TRUE(has(h.str(), "if (b == int(-1)) return -a;")) << h.str();
  // maximum propagates NaN from either side; fmax ignores a NaN operand. Ties (0.0, -0.0)
  // give the second operand for float32/float64 (numpy's maxps loops on x86), the first for
  // float16 (its C loop).
  EXPECT_EQ(emit_op(Op::kMaximum, DType::kFloat32, {"a", "b"}, &h),
            "((isnan(a) || a > b) ? a : b)");
  EXPECT_EQ(emit_op(Op::kFmax, DType::kFloat32, {"a", "b"}, &h), "((isnan(b) || a > b) ? a : b)");
  EXPECT_EQ(emit_op(Op::kMaximum, DType::kFloat16, {"a", "b"}, &h),
            "((isnan(a) || a >= b) ? a : b)");
  EXPECT_EQ(emit_op(Op::kReciprocal, DType::kInt32, {"a"}, &h),
            "(a == int(0) ? int(0x80000000u) : int(1) / a)");
  // Rounding through the math library, never GLSL's roundEven/trunc/floor/ceil, whose lowering
  // depends on the driver and, on lavapipe, on the host CPU.
  EXPECT_EQ(emit_op(Op::kRound, DType::kFloat64, {"a"}, &h), "vka_rint_f64(a)");
  EXPECT_EQ(emit_op(Op::kTrunc, DType::kFloat32, {"a"}, &h), "vka_trunc_f32(a)");
  EXPECT_EQ(emit_op(Op::kFloor, DType::kFloat16, {"a"}, &h), "vka_floor_f32(a)");
  EXPECT_EQ(emit_op(Op::kCeil, DType::kFloat64, {"a"}, &h), "vka_ceil_f64(a)");
  EXPECT_EQ(emit_op(Op::kRint, DType::kComplex128, {"a"}, &h), "vka_crint_f64(a)");
  EXPECT_TRUE(has(h.str(), "precise double s = a + 4503599627370496.0LF;")) << h.str();
  for (const char* builtin : {"roundEven(", " trunc(", " floor(", " ceil(", " round("}) {
    EXPECT_FALSE(has(h.str(), builtin)) << builtin;
  }
  EXPECT_EQ(emit_op(Op::kLess, DType::kBool, {"a", "b"}, &h), "(int(a) < int(b))");
  EXPECT_EQ(to_compute(DType::kInt8, "v"), "int(v)");
  EXPECT_EQ(from_compute(DType::kFloat16, "e"), "float16_t(e)");
  EXPECT_EQ(truth(DType::kFloat32, "x"), "(x != float(0))");
  EXPECT_THROW(emit_op(Op::kBitwiseAnd, DType::kFloat32, {"a", "b"}, &h), DTypeError);
}

TEST(ShaderCompiler, ReportsErrorsWithNumberedSource) {
  std::string err = compile_error("#version 450\nvoid main() { int x = ; }\n", "bad");
  EXPECT_TRUE(has(err, "bad")) << err;
  EXPECT_TRUE(has(err, "   2  void main()")) << err;
}

TEST(GlslWriter, IndentsAndNumbers) {
  GlslWriter w;
  w.open("void main()").line("int x = 1;").close();
  EXPECT_EQ(w.str(), "void main() {\n  int x = 1;\n}\n");
  EXPECT_EQ(number_lines("a\nb\n"), "   1  a\n   2  b\n");
}

TEST(Elementwise, Float16IntermediatesAreRoundedExactly) {
  // x.astype(float16) * 3, read back as float32: the float16 intermediates round through
  // vka_f16 (exact float32 arithmetic), never through a float(float16_t(v)) pair that a
  // driver may drop.
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {100});
  NodePtr h = g.astype(a, DType::kFloat16);
  NodePtr y = g.astype(apply(g, Op::kMultiply, {h, WeakScalar::of_float(3)}), DType::kFloat32);
  std::string s = glsl_for({y});
  EXPECT_TRUE(has(s, "float16_t vka_f16(float x)")) << s;
  EXPECT_TRUE(has(s, "vka_rint_f32(")) << s;
  EXPECT_TRUE(has(s, "= vka_f16(")) << s;
  EXPECT_EQ(compile_error(s, "float16 rounding"), "");
}

// VKA_FMA=1 (Limits::fma): float32 and float64 adds and subtracts of a product become one
// fma(), in every arrangement; other dtypes, a product of another dtype and the default keep a
// multiply and an add, every value still `precise`.
TEST(Elementwise, FusedMultiplyAddsOnlyWhereOptedIn) {
  Graph g;
  auto count = [](const std::string& s, const std::string& what) {
    int n = 0;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
  };
  for (DType t : {DType::kFloat32, DType::kFloat64}) {
    NodePtr a = leaf(g, t, {16}), b = leaf(g, t, {16}), c = leaf(g, t, {16});
    NodePtr ab = apply(g, Op::kMultiply, {a, b});
    const std::vector<NodePtr> targets = {
        apply(g, Op::kAdd, {ab, c}),                                     // fma(a, b, c)
        apply(g, Op::kAdd, {c, apply(g, Op::kMultiply, {b, c})}),        // fma(b, c, c)
        apply(g, Op::kSubtract, {apply(g, Op::kMultiply, {c, a}), b}),   // fma(c, a, -b)
        apply(g, Op::kSubtract, {a, apply(g, Op::kMultiply, {a, c})})};  // fma(-a, c, a)
    Limits opted{64, 256, 512};
    opted.fma = true;
    Schedule on = schedule(targets, opted);
    ASSERT_EQ(on.kernels.size(), 1u);
    const KernelSpec& spec = on.kernels[0].spec;
    EXPECT_TRUE(spec.fma);
    EXPECT_NE(spec.name().find("_fma"), std::string::npos) << spec.name();
    const std::string s = emit_elementwise(spec);
    EXPECT_EQ(count(s, "= fma("), 4) << s;
    EXPECT_EQ(count(s, "= fma(-"), 1) << s;
    EXPECT_TRUE(has(s, ", -v")) << s;  // p * q - y adds -y
    // Every value is still precise (the contraction is the explicit fma() alone); the other
    // declarations of the type are the buffers' element arrays.
    const std::string decl = std::string(t == DType::kFloat32 ? " float" : " double") + " v";
    EXPECT_EQ(count(s, decl) - count(s, decl + "[]"), count(s, "precise" + decl)) << s;
    EXPECT_EQ(count(s, "precise" + decl), 11) << s;  // three loads, four products, four sums
    EXPECT_EQ(compile_error(s, "fma"), "");
    // The default: no fma, and the two specs are two cache entries.
    Schedule off = schedule(targets, Limits{64, 256, 512});
    ASSERT_EQ(off.kernels.size(), 1u);
    EXPECT_FALSE(off.kernels[0].spec.fma);
    EXPECT_FALSE(has(emit_elementwise(off.kernels[0].spec), "fma(")) << s;
    EXPECT_FALSE(off.kernels[0].spec == spec);
    EXPECT_NE(off.kernels[0].spec.hash(), spec.hash());
  }
  // int64 arithmetic, and a float32 product added in float64, keep their multiply and add.
  Limits opted{64, 256, 512};
  opted.fma = true;
  NodePtr i = leaf(g, DType::kInt64, {16}), j = leaf(g, DType::kInt64, {16});
  NodePtr x = leaf(g, DType::kFloat32, {16}), y = leaf(g, DType::kFloat64, {16});
  Schedule other = schedule({apply(g, Op::kAdd, {apply(g, Op::kMultiply, {i, j}), i}),
                             apply(g, Op::kAdd, {apply(g, Op::kMultiply, {x, x}), y})},
                            opted);
  ASSERT_EQ(other.kernels.size(), 1u);
  const std::string s = emit_elementwise(other.kernels[0].spec);
  EXPECT_FALSE(has(s, "fma(")) << s;
  EXPECT_EQ(compile_error(s, "no fma"), "");
}

}  // namespace
}  // namespace vka
