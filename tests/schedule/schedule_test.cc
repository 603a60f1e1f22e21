// The scheduler: kernel counts of the fusion cases, shared values, limits, and
// the KernelSpec's independence from sizes and scalar values.
#include "schedule/schedule.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "base/errors.h"
#include "ir/node_ops.h"

namespace vka {
namespace {

NodePtr leaf(Graph& g, DType t, Shape s) {
  return g.buffer(std::make_shared<BufferRef>(), t, View::contiguous(s));
}
WeakScalar f(double v) { return WeakScalar::of_float(v); }

// sqrt(abs(2*a+b)+1)*exp(-b)-a
NodePtr chain(Graph& g, NodePtr a, NodePtr b) {
  NodePtr t = apply(g, Op::kAdd, {apply(g, Op::kMultiply, {f(2), a}), b});
  t = apply(g, Op::kSqrt, {apply(g, Op::kAdd, {apply(g, Op::kAbs, {t}), f(1)})});
  t = apply(g, Op::kMultiply, {t, apply(g, Op::kExp, {apply(g, Op::kNegative, {b})})});
  return apply(g, Op::kSubtract, {t, a});
}

TEST(Schedule, MulAddIsOneKernel) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {1000}), b = leaf(g, DType::kFloat32, {1000}),
          c = leaf(g, DType::kFloat32, {1000});
  Schedule s = schedule({apply(g, Op::kAdd, {apply(g, Op::kMultiply, {a, b}), c})});
  ASSERT_EQ(s.kernels.size(), 1u) << s.to_string();
  const KernelSpec& k = s.kernels[0].spec;
  EXPECT_EQ(k.name(), "ew_f32_3in_1out_contig");
  EXPECT_EQ(k.tape.size(), 5u);
  EXPECT_EQ(s.kernels[0].params.shape, (Shape{1000}));
}

TEST(Schedule, SixOpChainIsOneKernel) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {64, 64}), b = leaf(g, DType::kFloat32, {64, 64});
  Schedule s = schedule({chain(g, a, b)});
  ASSERT_EQ(s.kernels.size(), 1u) << s.to_string();
  EXPECT_EQ(s.kernels[0].spec.inputs.size(), 2u);
  EXPECT_EQ(s.kernels[0].spec.rank, 1);           // contiguous 2-d collapses to 1-d
  EXPECT_EQ(s.kernels[0].spec.slots.size(), 2u);  // the constants 2 and 1
}

TEST(Schedule, TwoOutputsOfOneExpressionShareAKernel) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {100}), b = leaf(g, DType::kFloat32, {100});
  NodePtr common = apply(g, Op::kExp, {apply(g, Op::kAdd, {a, b})});
  NodePtr y1 = apply(g, Op::kMultiply, {common, f(3)});
  NodePtr y2 = apply(g, Op::kSubtract, {common, a});
  Schedule s = schedule({y1, y2});
  ASSERT_EQ(s.kernels.size(), 1u) << s.to_string();
  const KernelSpec& k = s.kernels[0].spec;
  EXPECT_EQ(k.outputs.size(), 2u);
  // The shared exp is computed once inside the kernel.
  int exps = 0;
  for (const TapeEntry& e : k.tape) exps += e.op == Op::kExp;
  EXPECT_EQ(exps, 1);
}

TEST(Schedule, BroadcastAndStridedInputsAreReadInPlace) {
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  View rows = slice(View::contiguous({8, 10}), 1, {std::nullopt, std::nullopt, 2});  // (8, 5)
  NodePtr a = g.buffer(buf, DType::kFloat32, rows);
  NodePtr bias = leaf(g, DType::kFloat32, {5});
  NodePtr s0 = leaf(g, DType::kFloat32, {});
  Schedule s = schedule({apply(g, Op::kMultiply, {apply(g, Op::kAdd, {a, bias}), s0})});
  ASSERT_EQ(s.kernels.size(), 1u);
  const KernelSpec& k = s.kernels[0].spec;
  EXPECT_EQ(k.inputs[0].layout, Layout::kStrided);
  EXPECT_EQ(k.inputs[1].layout, Layout::kStrided);  // broadcast rows: stride 0
  EXPECT_EQ(k.inputs[2].layout, Layout::kScalar);
  EXPECT_EQ(k.outputs[0].layout, Layout::kContiguous);
  EXPECT_EQ(k.name(), "ew_f32_3in_1out_strided");
  const LaunchParams& p = s.kernels[0].params;
  EXPECT_EQ(p.shape, (Shape{8, 5}));
  EXPECT_EQ(p.inputs[0].strides, (std::vector<int64_t>{10, 2}));
  EXPECT_EQ(p.inputs[1].strides, (std::vector<int64_t>{0, 1}));
}

TEST(Schedule, ValueSharedByKernelsOfDifferentShapesIsMaterializedOnce) {
  Graph g;
  NodePtr x = leaf(g, DType::kFloat32, {5}), m = leaf(g, DType::kFloat32, {3, 5});
  NodePtr shared = apply(g, Op::kSin, {x});
  NodePtr small = apply(g, Op::kAdd, {shared, f(1)});  // shape (5,)
  NodePtr big = apply(g, Op::kMultiply, {shared, m});  // shape (3, 5)
  Schedule s = schedule({small, big});
  ASSERT_EQ(s.kernels.size(), 2u) << s.to_string();
  // The (5,) kernel writes both `small` and the shared sin; the (3, 5) kernel reads it.
  const auto& outs = s.kernels[0].outputs;
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_TRUE((outs[0] == shared && outs[1] == small) || (outs[0] == small && outs[1] == shared));
  EXPECT_EQ(s.kernels[1].inputs[0], shared);
  for (const TapeEntry& e : s.kernels[1].spec.tape) EXPECT_NE(e.op, Op::kSin);
}

TEST(Schedule, ManyInputsConstantsAndViewsAreOneKernel) {
  Graph g;
  std::vector<NodePtr> in;
  for (int i = 0; i < 40; ++i) in.push_back(leaf(g, DType::kFloat32, {32}));
  NodePtr sum = in[0];
  for (int i = 1; i < 40; ++i) sum = apply(g, Op::kAdd, {sum, in[i]});
  for (int i = 0; i < 100; ++i) sum = apply(g, Op::kMultiply, {sum, f(1.0 + i)});
  Schedule s = schedule({sum});
  ASSERT_EQ(s.kernels.size(), 1u) << s.to_string();
  EXPECT_TRUE(s.kernels[0].reason.empty());
  EXPECT_EQ(s.kernels[0].spec.inputs.size(), 40u);
  EXPECT_EQ(s.kernels[0].spec.slots.size(), 100u);
  EXPECT_TRUE(s.kernels[0].spec.input_bindings.empty());  // 40 storages, 40 bindings
}

TEST(Schedule, ViewsOfOneStorageShareABinding) {
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  NodePtr other = leaf(g, DType::kFloat32, {8});
  NodePtr sum = other;
  for (int i = 0; i < 64; ++i) {
    sum = apply(g, Op::kAdd, {sum, g.buffer(buf, DType::kFloat32, View{i, {8}, {1}})});
  }
  Schedule s = schedule({sum});
  ASSERT_EQ(s.kernels.size(), 1u) << s.to_string();
  const KernelSpec& spec = s.kernels[0].spec;
  ASSERT_EQ(spec.inputs.size(), 65u);
  EXPECT_EQ(spec.num_input_bindings(), 2);
  EXPECT_EQ(spec.num_operand_bindings(), 3);  // and the output
  std::set<int> view_bindings, other_bindings;
  for (size_t a = 0; a < spec.inputs.size(); ++a) {
    const int b = spec.input_binding(static_cast<int>(a));
    (s.kernels[0].inputs[a] == other ? other_bindings : view_bindings).insert(b);
  }
  EXPECT_EQ(view_bindings.size(), 1u);
  EXPECT_EQ(other_bindings.size(), 1u);
  EXPECT_NE(*view_bindings.begin(), *other_bindings.begin());
}

TEST(Schedule, TapeLimitSplits) {
  Graph g;
  NodePtr x = leaf(g, DType::kFloat32, {32});
  for (int i = 0; i < 20; ++i) x = apply(g, Op::kSin, {x});
  Limits lim;
  lim.max_tape = 12;
  Schedule s = schedule({x}, lim);
  ASSERT_EQ(s.kernels.size(), 2u) << s.to_string();
  EXPECT_NE(s.kernels[0].reason.find("SSA values > max_tape 12"), std::string::npos)
      << s.to_string();
  EXPECT_TRUE(s.kernels[1].reason.empty());
}

TEST(Schedule, RunningSumOfTranscendentalTermsIsCutAlongItsSpine) {
  // t = t + tanh(x[k]) for 0-d views x[k]: each kernel takes the next run of terms and the
  // sum so far (one output each), in ceil(terms / (3/4 of the limit)) kernels, not a kernel
  // per term split off one at a time.
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  const int terms = 200;
  NodePtr t = apply(g, Op::kTanh, {g.buffer(buf, DType::kFloat64, View{0, {}, {}})});
  for (int k = 1; k < terms; ++k) {
    NodePtr term = apply(g, Op::kTanh, {g.buffer(buf, DType::kFloat64, View{k, {}, {}})});
    t = apply(g, Op::kAdd, {t, term});
  }
  Limits lim;
  lim.max_transcendental = 16;  // cuts every 12 terms
  Schedule s = schedule({t}, lim);
  EXPECT_EQ(s.kernels.size(), static_cast<size_t>((terms + 11) / 12)) << s.to_string();
  for (const ScheduledKernel& k : s.kernels) {
    EXPECT_EQ(k.outputs.size(), 1u) << s.to_string();
    int weight = 0;
    for (const TapeEntry& e : k.spec.tape) weight += transcendental_weight(e);
    EXPECT_LE(weight, lim.max_transcendental) << s.to_string();
    EXPECT_EQ(k.outputs[0]->op(), Op::kAdd) << s.to_string();
  }
}

TEST(Schedule, OneElementKernelsTakeTheScalarTranscendentalLimit) {
  // The same running sum of 40 tanh terms: over 0-d views it is cut into kernels of weight at
  // most max_scalar_transcendental; over views of 64 elements, or summing a 64-element
  // expression into a 0-d total, it stays one kernel (weight 40 <= max_transcendental).
  auto running_sum = [](Graph& g, const std::shared_ptr<BufferRef>& buf, Shape shape) {
    std::vector<int64_t> strides(shape.size(), 1);
    NodePtr t;
    for (int k = 0; k < 40; ++k) {
      NodePtr term = apply(g, Op::kTanh, {g.buffer(buf, DType::kFloat64, View{k, shape, strides})});
      t = t ? apply(g, Op::kAdd, {t, term}) : term;
    }
    return t;
  };
  Limits lim;
  lim.max_transcendental = 64;
  lim.max_scalar_transcendental = 16;
  auto buf = std::make_shared<BufferRef>();
  Graph g0;
  Schedule s0 = schedule({running_sum(g0, buf, {})}, lim);
  // Cut every 12 terms (3/4 of 16): 12, 12 and the last 16.
  EXPECT_EQ(s0.kernels.size(), 3u) << s0.to_string();
  for (const ScheduledKernel& k : s0.kernels) {
    int weight = 0;
    for (const TapeEntry& e : k.spec.tape) weight += transcendental_weight(e);
    EXPECT_LE(weight, lim.max_scalar_transcendental) << s0.to_string();
  }
  EXPECT_NE(s0.to_string().find("> max_scalar_transcendental 16"), std::string::npos)
      << s0.to_string();
  Graph g1;
  Schedule s1 = schedule({running_sum(g1, buf, {64})}, lim);
  EXPECT_EQ(s1.kernels.size(), 1u) << s1.to_string();
  Graph g2;
  NodePtr total = g2.reduce(Op::kSum, running_sum(g2, buf, {64}), {0}, false, DType::kFloat64);
  Schedule s2 = schedule({total}, lim);
  EXPECT_EQ(s2.kernels.size(), 1u) << s2.to_string();
}

TEST(Schedule, TranscendentalWeightFollowsTheOpTable) {
  auto weight = [](Op op, DType t) { return transcendental_weight(TapeEntry{op, t}); };
  EXPECT_EQ(weight(Op::kAdd, DType::kFloat64), 0);
  EXPECT_EQ(weight(Op::kHypot, DType::kFloat64), 0);
  EXPECT_EQ(weight(Op::kExp, DType::kFloat32), 1);
  EXPECT_EQ(weight(Op::kTanh, DType::kFloat64), 1);
  EXPECT_EQ(weight(Op::kPower, DType::kFloat32), 1);
  EXPECT_EQ(weight(Op::kLog, DType::kComplex64), 4);
  EXPECT_EQ(weight(Op::kSin, DType::kFloat32), 1);
  EXPECT_EQ(weight(Op::kArctan2, DType::kFloat64), 4);
  EXPECT_EQ(weight(Op::kCos, DType::kComplex128), 4);
}

TEST(Schedule, AValueWrittenIntoADestinationIsReadThroughIt) {
  // t1 goes into elements 8..11 of a buffer; the sum reading it, a kernel of its own, must read
  // them there (not from the start of the buffer, as a fresh buffer would be).
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {4});
  NodePtr t1 = apply(g, Op::kMultiply, {a, WeakScalar::of_float(2.0)});
  NodePtr t2 = g.reduce(Op::kSum, t1, {0}, false, DType::kFloat32);
  NodePtr dest = g.buffer(std::make_shared<BufferRef>(), DType::kFloat32, View::contiguous({4}, 8));
  Schedule s = schedule({t1, t2}, Limits(), {{t1.get(), dest}});
  ASSERT_EQ(s.kernels.size(), 2u) << s.to_string();
  const ScheduledKernel& sum = s.kernels[1];
  ASSERT_EQ(sum.inputs.size(), 1u);
  EXPECT_EQ(sum.inputs[0], t1);
  EXPECT_EQ(sum.params.inputs[0].offset, 8) << s.to_string();
}

TEST(Schedule, ImpossibleLimitIsAClearError) {
  Graph g;
  NodePtr w = apply(
      g, Op::kWhere,
      {leaf(g, DType::kBool, {4}), leaf(g, DType::kFloat32, {4}), leaf(g, DType::kFloat32, {4})});
  Limits lim;
  lim.max_tape = 2;  // three loads and the where: nothing inside to split off
  EXPECT_THROW(schedule({w}, lim), DeviceError);
}

TEST(KernelSpec, IndependentOfSizesAndScalarValues) {
  Graph g;
  auto spec_for = [&](int64_t n, double k) {
    NodePtr a = leaf(g, DType::kFloat32, {n}), b = leaf(g, DType::kFloat32, {n});
    return schedule({apply(g, Op::kAdd, {apply(g, Op::kMultiply, {a, f(k)}), b})}).kernels.at(0);
  };
  ScheduledKernel k1 = spec_for(10, 2.0), k2 = spec_for(12345, -7.5);
  EXPECT_EQ(k1.spec, k2.spec);
  EXPECT_EQ(k1.spec.hash(), k2.spec.hash());
  EXPECT_NE(k1.params.shape, k2.params.shape);
  EXPECT_NE(k1.params.slots[0], k2.params.slots[0]);
  // Different structure: other dtype, other op.
  NodePtr a = leaf(g, DType::kFloat64, {10}), b = leaf(g, DType::kFloat64, {10});
  KernelSpec other =
      schedule({apply(g, Op::kAdd, {apply(g, Op::kMultiply, {a, f(2)}), b})}).kernels[0].spec;
  EXPECT_NE(other, k1.spec);
  EXPECT_NE(other.hash(), k1.spec.hash());
  EXPECT_EQ(other.name(), "ew_f64_2in_1out_contig");
}

TEST(KernelSpec, PushConstantsPackTheLayout) {
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  NodePtr a = g.buffer(buf, DType::kFloat32, transpose(View::contiguous({3, 4}, 5)));
  ScheduledKernel k = schedule({apply(g, Op::kAdd, {a, f(0.5)})}).kernels.at(0);
  PushLayout L = push_layout(k.spec);
  // n, dim0, dim1, off0, st0_0, st0_1, off1 (the output, contiguous), then the slot at 32.
  ASSERT_EQ(L.fields.size(), 8u);
  EXPECT_EQ(L.fields.back().name(), "c0");
  EXPECT_EQ(L.fields.back().offset, 32u);
  EXPECT_EQ(L.size, 40u);
  std::vector<uint8_t> bytes = pack_push_constants(k.spec, L, k.params);
  auto i32 = [&](int at) {
    int32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  EXPECT_EQ(i32(0), 12);  // n
  EXPECT_EQ(i32(4), 4);   // dim0
  EXPECT_EQ(i32(8), 3);   // dim1
  EXPECT_EQ(i32(12), 5);  // off0
  EXPECT_EQ(i32(16), 1);  // st0_0
  EXPECT_EQ(i32(20), 4);  // st0_1
  float half;
  std::memcpy(&half, bytes.data() + 32, 4);
  EXPECT_EQ(half, 0.5f);
}

TEST(KernelSpec, HugeArraysUse64BitIndexMath) {
  Graph g;
  NodePtr a = leaf(g, DType::kUInt8, {int64_t{3} << 30});
  ScheduledKernel k = schedule({apply(g, Op::kAdd, {a, WeakScalar::of_int(1)})}).kernels.at(0);
  EXPECT_TRUE(k.spec.index64);
  EXPECT_EQ(k.spec.name(), "ew_u8_1in_1out_contig_i64");
  EXPECT_EQ(push_layout(k.spec).fields[0].bytes, 8u);
}

}  // namespace
}  // namespace vka
