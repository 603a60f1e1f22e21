// held_values (runtime/held_values.h): which computed values an evaluation keeps beyond its
// targets, on graphs built by hand (no device).
#include "runtime/held_values.h"

#include <gtest/gtest.h>

#include "ir/node_ops.h"

namespace vka {
namespace {

// x * 0.5 + 1: two computations a step.
NodePtr step(Graph& g, const NodePtr& x) {
  return apply(
      g, Op::kAdd,
      {apply(g, Op::kMultiply, {x, WeakScalar::of_float(0.5)}), WeakScalar::of_float(1.0)});
}

TEST(HeldValues, KeepsOneElementValuesHeldOutsideUnderLongChains) {
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  NodePtr t = g.buffer(buf, DType::kFloat64, View{0, {}, {}});
  NodePtr shallow, deep;
  for (int i = 1; i <= 12; ++i) {
    t = step(g, t);
    if (i == 2) shallow = t;  // 4 computations deep
    if (i == 6) deep = t;     // 12 computations deep
  }
  const std::vector<NodePtr> roots = {t};
  const std::vector<NodePtr> held = held_values(topological_order(roots), roots);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0], deep);
  // The root itself is a target, not a held value.
  const std::vector<NodePtr> at_root = held_values(topological_order({deep}), {deep});
  EXPECT_TRUE(at_root.empty());
}

TEST(HeldValues, KeepsNoLargerValuesAndNothingOfShortGraphs) {
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  NodePtr t = g.buffer(buf, DType::kFloat64, View::contiguous({16}));
  NodePtr deep;
  for (int i = 1; i <= 12; ++i) {
    t = step(g, t);
    if (i == 6) deep = t;  // held outside, but 16 elements: recomputing it is the kernel's work
  }
  EXPECT_TRUE(held_values(topological_order({t}), {t}).empty());
  NodePtr s = g.buffer(buf, DType::kFloat64, View{0, {}, {}});
  NodePtr one = step(g, s);
  NodePtr two = step(g, one);
  EXPECT_TRUE(held_values(topological_order({two}), {two}).empty());
}

}  // namespace
}  // namespace vka
