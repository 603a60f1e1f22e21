// Scheduling reductions (no device): one kernel per reduction with the elementwise expression
// that feeds it fused in, the permuted iteration space, and what runs before and after.
#include <gtest/gtest.h>

#include "ir/node_ops.h"
#include "schedule/schedule.h"

namespace vka {
namespace {

NodePtr leaf(Graph& g, DType t, Shape s) {
  return g.buffer(std::make_shared<BufferRef>(), t, View::contiguous(s));
}

NodePtr reduce(Graph& g, Op op, const NodePtr& x, std::vector<int> axes, bool keepdims = false) {
  return g.reduce(op, x, std::move(axes), keepdims, x->dtype());
}

TEST(ReduceSchedule, SumOfAProductIsOneKernelWithoutATemporary) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {1000}), b = leaf(g, DType::kFloat32, {1000});
  NodePtr s = reduce(g, Op::kSum, apply(g, Op::kMultiply, {a, b}), {0});
  Schedule plan = schedule({s});
  ASSERT_EQ(plan.kernels.size(), 1u) << plan.to_string();
  const ScheduledKernel& k = plan.kernels[0];
  EXPECT_EQ(k.spec.kind, KernelKind::kReduce);
  EXPECT_EQ(k.spec.reduce.op, Op::kSum);
  EXPECT_EQ(k.spec.inputs.size(), 2u);
  EXPECT_EQ(k.spec.tape.size(), 3u);  // load a, load b, multiply
  EXPECT_EQ(k.spec.tape[k.spec.results[0]].op, Op::kMultiply);
  EXPECT_EQ(k.params.reduce_m, 1);
  EXPECT_EQ(k.params.reduce_k, 1000);
  EXPECT_EQ(s->shape(), Shape{});
}

TEST(ReduceSchedule, MaxAbsDifferenceIsOneKernel) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat64, {30, 40}), b = leaf(g, DType::kFloat64, {30, 40});
  NodePtr d = apply(g, Op::kAbs, {apply(g, Op::kSubtract, {a, b})});
  Schedule plan = schedule({reduce(g, Op::kMax, d, {0, 1})});
  ASSERT_EQ(plan.kernels.size(), 1u) << plan.to_string();
  EXPECT_EQ(plan.kernels[0].spec.rank, 1);  // contiguous, every axis: one flat range
}

TEST(ReduceSchedule, VarianceIsTwoReductionsReadingTheInputDirectly) {
  Graph g;
  NodePtr x = leaf(g, DType::kFloat32, {8, 100});
  NodePtr m = g.reduce(Op::kMean, x, {1}, true, DType::kFloat32, 100);
  NodePtr d = apply(g, Op::kSubtract, {x, m});
  NodePtr v =
      g.reduce(Op::kMean, apply(g, Op::kMultiply, {d, d}), {1}, false, DType::kFloat32, 100);
  Schedule plan = schedule({v});
  ASSERT_EQ(plan.kernels.size(), 2u) << plan.to_string();
  EXPECT_EQ(plan.kernels[0].outputs[0], m);
  EXPECT_EQ(plan.kernels[1].outputs[0], v);
  // The second reads x and the means; (x - m)^2 never reaches memory.
  EXPECT_EQ(plan.kernels[1].inputs.size(), 2u);
  EXPECT_EQ(m->shape(), (Shape{8, 1}));
  EXPECT_EQ(v->shape(), (Shape{8}));
}

TEST(ReduceSchedule, ElementwiseWorkOnAResultRunsInTheNextKernel) {
  Graph g;
  NodePtr x = leaf(g, DType::kFloat32, {16, 32});
  NodePtr s = reduce(g, Op::kSum, x, {1});
  NodePtr y =
      apply(g, Op::kAdd,
            {apply(g, Op::kMultiply, {s, WeakScalar::of_float(2)}), WeakScalar::of_float(1)});
  Schedule plan = schedule({y});
  ASSERT_EQ(plan.kernels.size(), 2u) << plan.to_string();
  EXPECT_EQ(plan.kernels[0].spec.kind, KernelKind::kReduce);
  EXPECT_EQ(plan.kernels[1].spec.kind, KernelKind::kElementwise);
  EXPECT_EQ(plan.kernels[1].inputs[0], s);
}

TEST(ReduceSchedule, AReductionOverAnExtentOneAxisStillRunsBeforeItsReaders) {
  Graph g;
  NodePtr x = leaf(g, DType::kFloat32, {5, 1});
  NodePtr s = reduce(g, Op::kSum, x, {1});  // shape (5,), like the elementwise node below
  NodePtr y = apply(g, Op::kAdd, {s, leaf(g, DType::kFloat32, {5})});
  Schedule plan = schedule({y});
  ASSERT_EQ(plan.kernels.size(), 2u) << plan.to_string();
  EXPECT_EQ(plan.kernels[0].outputs[0], s);
}

TEST(ReduceSchedule, AValueTwoKernelsNeedIsWrittenOnce) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {64}), b = leaf(g, DType::kFloat32, {64});
  NodePtr y = apply(g, Op::kExp, {apply(g, Op::kMultiply, {a, b})});
  NodePtr s = reduce(g, Op::kSum, y, {0});
  NodePtr t = apply(g, Op::kAdd, {y, WeakScalar::of_float(1)});
  Schedule plan = schedule({s, t});
  ASSERT_EQ(plan.kernels.size(), 2u) << plan.to_string();
  EXPECT_EQ(plan.kernels[0].outputs.size(), 2u);  // y and t
  EXPECT_EQ(plan.kernels[1].inputs[0], y);        // the sum reads y
}

TEST(ReduceSchedule, KeptAxesComeFirstAndEachGroupCollapses) {
  Graph g;
  NodePtr x = leaf(g, DType::kFloat32, {6, 7, 8, 9});
  // Reducing axes 0 and 2 keeps 1 and 3: the iteration space is (7, 9 | 6, 8), strided.
  Schedule middle = schedule({reduce(g, Op::kSum, x, {0, 2})});
  const ScheduledKernel& k = middle.kernels[0];
  EXPECT_EQ(k.spec.reduce.kept, 2);
  EXPECT_EQ(k.params.shape, (Shape{7, 9, 6, 8}));
  EXPECT_EQ(k.params.inputs[0].strides, (std::vector<int64_t>{72, 1, 504, 9}));
  EXPECT_EQ(k.params.reduce_m, 63);
  EXPECT_EQ(k.params.reduce_k, 48);
  // Reducing the last two axes: both groups merge, and the layout stays contiguous.
  Schedule rows = schedule({reduce(g, Op::kSum, x, {2, 3})});
  EXPECT_EQ(rows.kernels[0].params.shape, (Shape{42, 72}));
  EXPECT_EQ(rows.kernels[0].spec.inputs[0].layout, Layout::kContiguous);
  // Column sums: the kept axis is the fast one.
  Schedule cols = schedule({reduce(g, Op::kSum, x, {0})});
  EXPECT_EQ(cols.kernels[0].params.shape, (Shape{504, 6}));
  EXPECT_EQ(cols.kernels[0].params.inputs[0].strides, (std::vector<int64_t>{1, 504}));
}

TEST(ReduceSchedule, TheSpecIsIndependentOfSizesAndTheDivisor) {
  Graph g;
  NodePtr a = leaf(g, DType::kFloat32, {100, 10}), b = leaf(g, DType::kFloat32, {300, 10});
  Schedule s1 = schedule({g.reduce(Op::kMean, a, {0}, false, DType::kFloat32, 100)});
  Schedule s2 = schedule({g.reduce(Op::kMean, b, {0}, false, DType::kFloat32, 300)});
  EXPECT_EQ(s1.kernels[0].spec, s2.kernels[0].spec);
  EXPECT_EQ(s1.kernels[0].spec.hash(), s2.kernels[0].spec.hash());
  EXPECT_GE(s1.kernels[0].spec.reduce.divisor_slot, 0);
}

}  // namespace
}  // namespace vka
