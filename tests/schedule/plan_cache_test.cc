// Plan keys and the plan cache: equal words exactly when schedule() would treat two graphs
// alike, and a reused plan that names the new graph's nodes and matches scheduling it afresh.
#include "schedule/plan_cache.h"

#include <gtest/gtest.h>

#include "ir/node_ops.h"

namespace vka {
namespace {

std::shared_ptr<BufferRef> fresh() { return std::make_shared<BufferRef>(); }
NodePtr leaf(Graph& g, const std::shared_ptr<BufferRef>& b, Shape s, int64_t offset = 0) {
  return g.buffer(b, DType::kFloat64, View::contiguous(s, offset));
}
WeakScalar f(double v) { return WeakScalar::of_float(v); }

// (a * c0 + b) * sqrt(a) - c1: one kernel.
NodePtr formula(Graph& g, NodePtr a, NodePtr b, double c0 = 2, double c1 = 1) {
  NodePtr t = apply(g, Op::kAdd, {apply(g, Op::kMultiply, {a, f(c0)}), b});
  return apply(g, Op::kSubtract, {apply(g, Op::kMultiply, {t, apply(g, Op::kSqrt, {a})}), f(c1)});
}

PlanKey key_of(const std::vector<NodePtr>& roots,
               const std::unordered_map<const Node*, NodePtr>& dests = {}) {
  return plan_key(roots, topological_order(roots), dests);
}

TEST(PlanKey, SameStructureOverOtherBuffersHasTheSameWords) {
  Graph g;
  PlanKey k1 = key_of({formula(g, leaf(g, fresh(), {100}), leaf(g, fresh(), {100}))});
  PlanKey k2 = key_of({formula(g, leaf(g, fresh(), {100}), leaf(g, fresh(), {100}))});
  EXPECT_EQ(k1.words, k2.words);
  EXPECT_EQ(k1.hash, k2.hash);
}

TEST(PlanKey, WhatScheduleReadsChangesTheWords) {
  Graph g;
  auto a = fresh(), b = fresh();
  const PlanKey base = key_of({formula(g, leaf(g, a, {100}), leaf(g, b, {100}))});
  // A shape, one buffer under both leaves, a view past int32 positions (64-bit indices).
  EXPECT_NE(base.words, key_of({formula(g, leaf(g, a, {101}), leaf(g, b, {101}))}).words);
  EXPECT_NE(base.words, key_of({formula(g, leaf(g, a, {100}), leaf(g, a, {100}, 100))}).words);
  EXPECT_NE(key_of({formula(g, leaf(g, a, {100}), leaf(g, b, {100}, 100))}).words,
            key_of({formula(g, leaf(g, a, {100}), leaf(g, a, {100}, 100))}).words);
  EXPECT_NE(base.words,
            key_of({formula(g, leaf(g, a, {100}), leaf(g, b, {100}, int64_t{1} << 31))}).words);
  // Where the result goes.
  NodePtr r = formula(g, leaf(g, a, {100}), leaf(g, b, {100}));
  EXPECT_NE(key_of({r}).words, key_of({r}, {{r.get(), leaf(g, fresh(), {100})}}).words);
  EXPECT_NE(key_of({r}, {{r.get(), leaf(g, a, {100})}}).words,
            key_of({r}, {{r.get(), leaf(g, fresh(), {100})}}).words);
}

TEST(PlanKey, OffsetsAndConstantValuesAreFreeValues) {
  Graph g;
  auto a = fresh(), b = fresh();
  const PlanKey base = key_of({formula(g, leaf(g, a, {100}), leaf(g, b, {100}))});
  const PlanKey other = key_of({formula(g, leaf(g, a, {100}, 7), leaf(g, b, {100}), 3, 4)});
  EXPECT_EQ(base.words, other.words);
  EXPECT_EQ(other.offsets[0], 7);
}

TEST(PlanCache, ReusedPlanNamesTheNewNodesAndMatchesAFreshSchedule) {
  Graph g;
  Limits lim;
  lim.max_tape = 6;  // several kernels: the reused plan keeps the splits
  PlanCache cache;
  NodePtr r1 = formula(g, leaf(g, fresh(), {64}), leaf(g, fresh(), {64}));
  PlanKey k1 = key_of({r1});
  EXPECT_FALSE(cache.find(k1));
  Schedule s1 = schedule({r1}, lim);
  ASSERT_GE(s1.kernels.size(), 2u) << s1.to_string();
  cache.add(k1, s1);

  NodePtr r2 = formula(g, leaf(g, fresh(), {64}), leaf(g, fresh(), {64}));
  PlanKey k2 = key_of({r2});
  std::optional<Schedule> reused = cache.find(k2);
  ASSERT_TRUE(reused);
  EXPECT_EQ(cache.hits(), 1u);
  Schedule fresh_plan = schedule({r2}, lim);
  ASSERT_EQ(reused->kernels.size(), fresh_plan.kernels.size());
  for (size_t i = 0; i < fresh_plan.kernels.size(); ++i) {
    const ScheduledKernel& a = reused->kernels[i];
    const ScheduledKernel& b = fresh_plan.kernels[i];
    EXPECT_TRUE(a.spec == b.spec) << i;
    EXPECT_EQ(a.params.shape, b.params.shape);
    EXPECT_EQ(a.params.inputs, b.params.inputs);
    EXPECT_EQ(a.params.slots, b.params.slots);
    EXPECT_EQ(a.inputs, b.inputs) << "kernel " << i << " reads the new graph's nodes";
    EXPECT_EQ(a.outputs, b.outputs);
  }
  EXPECT_EQ(reused->kernels.back().outputs[0], r2);
}

TEST(PlanCache, ReusedPlanTakesTheNewOffsetsConstantsAndDestinations) {
  Graph g;
  PlanCache cache;
  auto a = fresh(), b = fresh(), out = fresh();
  NodePtr r1 = formula(g, leaf(g, a, {50}, 3), leaf(g, b, {50}, 10), 2, 1);
  std::unordered_map<const Node*, NodePtr> d1{{r1.get(), leaf(g, out, {50}, 20)}};
  PlanKey k1 = key_of({r1}, d1);
  cache.add(k1, schedule({r1}, Limits(), d1));

  NodePtr r2 = formula(g, leaf(g, a, {50}, 5), leaf(g, b, {50}, 0), -6, 0.5);
  std::unordered_map<const Node*, NodePtr> d2{{r2.get(), leaf(g, out, {50}, 40)}};
  PlanKey k2 = key_of({r2}, d2);
  std::optional<Schedule> reused = cache.find(k2);
  ASSERT_TRUE(reused);
  Schedule want = schedule({r2}, Limits(), d2);
  ASSERT_EQ(reused->kernels.size(), 1u);
  ASSERT_EQ(want.kernels.size(), 1u);
  EXPECT_EQ(reused->kernels[0].params.inputs, want.kernels[0].params.inputs);
  EXPECT_EQ(reused->kernels[0].params.outputs, want.kernels[0].params.outputs);
  EXPECT_EQ(reused->kernels[0].params.slots, want.kernels[0].params.slots);
  EXPECT_EQ(reused->kernels[0].params.outputs[0].offset, 40);
}

TEST(PlanCache, FreeValuesNoArgumentShowsMustMatch) {
  // The second root is a leaf no kernel reads: its offset is checked, not rewritten.
  Graph g;
  PlanCache cache;
  auto a = fresh(), b = fresh();
  NodePtr r1 = formula(g, leaf(g, a, {50}), leaf(g, b, {50}));
  NodePtr v1 = leaf(g, fresh(), {50}, 3);
  cache.add(key_of({r1, v1}), schedule({r1, v1}));
  NodePtr r2 = formula(g, leaf(g, a, {50}), leaf(g, b, {50}));
  auto c = fresh();
  EXPECT_TRUE(cache.find(key_of({r2, leaf(g, c, {50}, 3)})));
  EXPECT_FALSE(cache.find(key_of({r2, leaf(g, c, {50}, 4)})));
}

TEST(PlanCache, KeepsTheMostRecentStructures) {
  Graph g;
  PlanCache cache;
  auto key_for = [&](int n) {
    return key_of({formula(g, leaf(g, fresh(), {n}), leaf(g, fresh(), {n}))});
  };
  auto plan_for = [&](int n) {
    return schedule({formula(g, leaf(g, fresh(), {n}), leaf(g, fresh(), {n}))});
  };
  const int extra = 3;
  for (int n = 1; n <= static_cast<int>(PlanCache::kCapacity) + extra; ++n) {
    PlanKey k = key_for(n);
    // The plan was made over other nodes of the same structure: naming nodes outside the key,
    // it is not kept.
    cache.add(k, plan_for(n));
    EXPECT_FALSE(cache.find(k)) << n;
  }
  for (int n = 1; n <= static_cast<int>(PlanCache::kCapacity) + extra; ++n) {
    NodePtr r = formula(g, leaf(g, fresh(), {n}), leaf(g, fresh(), {n}));
    cache.add(key_of({r}), schedule({r}));
  }
  for (int n = 1; n <= extra; ++n) EXPECT_FALSE(cache.find(key_for(n))) << "evicted " << n;
  for (int n = extra + 1; n <= static_cast<int>(PlanCache::kCapacity) + extra; ++n) {
    EXPECT_TRUE(cache.find(key_for(n))) << "kept " << n;
  }
}

}  // namespace
}  // namespace vka
