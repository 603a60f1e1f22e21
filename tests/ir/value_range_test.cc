// Host-side bounds of integer expressions (ir/value_range.h) against values worked out by hand:
// aranges, their slices and index arithmetic, and the cases that must stay unknown.
#include "ir/value_range.h"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "ir/node_ops.h"

namespace vka {
namespace {

NodePtr arange(Graph& g, int64_t start, int64_t step, int64_t n, DType t = DType::kInt64) {
  return g.source(Op::kArange, t, {n}, {Scalar::of_int(start, t), Scalar::of_int(step, t)});
}

NodePtr plus(Graph& g, const NodePtr& x, int64_t c) {
  return apply(g, Op::kAdd, {x, WeakScalar::of_int(c)});
}

void expect_range(const NodePtr& n, int64_t lo, int64_t hi) {
  std::optional<ValueRange> r = value_range(*n);
  ASSERT_TRUE(r.has_value()) << n->to_string();
  EXPECT_EQ(r->lo, lo) << n->to_string();
  EXPECT_EQ(r->hi, hi) << n->to_string();
}

TEST(ValueRange, ArangeAndItsArithmetic) {
  Graph g;
  NodePtr i = arange(g, 0, 1, 10);  // 0..9
  expect_range(i, 0, 9);
  expect_range(arange(g, 20, -3, 5), 8, 20);  // 20, 17, 14, 11, 8
  expect_range(plus(g, i, 1), 1, 10);
  expect_range(apply(g, Op::kMultiply, {i, WeakScalar::of_int(-2)}), -18, 0);
  expect_range(apply(g, Op::kNegative, {i}), -9, 0);
  expect_range(apply(g, Op::kSubtract, {i, arange(g, 5, 0, 10)}), -5, 4);
  expect_range(apply(g, Op::kMaximum, {i, WeakScalar::of_int(3)}), 3, 9);
  expect_range(apply(g, Op::kMinimum, {i, WeakScalar::of_int(3)}), 0, 3);
  expect_range(g.astype(i, DType::kInt32), 0, 9);
}

TEST(ValueRange, UnknownWhereAValueCouldWrapOrIsNotAnInteger) {
  Graph g;
  NodePtr i32 = arange(g, 0, 1, 10, DType::kInt32);
  EXPECT_FALSE(value_range(*apply(g, Op::kMultiply, {i32, WeakScalar::of_int(1 << 30)})));
  EXPECT_FALSE(value_range(*g.astype(arange(g, 0, 1, 300), DType::kInt8)));
  EXPECT_FALSE(value_range(*g.astype(i32, DType::kFloat64)));
  EXPECT_FALSE(value_range(*apply(g, Op::kFloorDivide, {i32, WeakScalar::of_int(2)})));
  // A leaf of a buffer nothing is known about.
  auto buf = std::make_shared<BufferRef>();
  EXPECT_FALSE(value_range(*g.buffer(buf, DType::kInt64, View::contiguous({4}))));
}

TEST(ValueRange, LeavesOfAComputedArangeKnowTheirSlice) {
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  note_values(*arange(g, 0, 1, 100), *buf);  // the buffer holds 0..99
  // idx[10:20], idx[::-1][:5] (99..95), idx[3:8][:, None] broadcast over 4 columns.
  expect_range(g.buffer(buf, DType::kInt64, View{10, {10}, {1}}), 10, 19);
  expect_range(g.buffer(buf, DType::kInt64, View{99, {5}, {-1}}), 95, 99);
  NodePtr column = g.buffer(buf, DType::kInt64, View{3, {5, 4}, {1, 0}});
  expect_range(column, 3, 7);
  // i[:, None] + idx[1:4][None, :]: every element of the sum lies in [3 + 1, 7 + 3].
  NodePtr row = g.buffer(buf, DType::kInt64, View{1, {5, 3}, {0, 1}});
  expect_range(apply(g, Op::kAdd, {g.buffer(buf, DType::kInt64, View{3, {5, 3}, {1, 0}}), row}), 4,
               10);
  // A slice shifted stays exact: idx[10:20] + 5 is 15..24.
  expect_range(plus(g, g.buffer(buf, DType::kInt64, View{10, {10}, {1}}), 5), 15, 24);
  // Another dtype's view of the same bytes, or a leaf made after a write, knows nothing.
  EXPECT_FALSE(value_range(*g.buffer(buf, DType::kInt32, View{0, {4}, {1}})));
  buf->bump_version();
  EXPECT_FALSE(value_range(*g.buffer(buf, DType::kInt64, View{10, {10}, {1}})));
}

TEST(ValueRange, ABufferOfAnIntervalKnowsOnlyTheInterval) {
  Graph g;
  auto buf = std::make_shared<BufferRef>();
  // A 2-d sum of aranges is no arange: its buffer records [lo, hi] for every element.
  auto src = std::make_shared<BufferRef>();
  note_values(*arange(g, 0, 1, 4), *src);
  NodePtr sum = apply(g, Op::kAdd,
                      {g.buffer(src, DType::kInt64, View{0, {3, 4}, {1, 0}}),
                       g.buffer(src, DType::kInt64, View{0, {3, 4}, {0, 1}})});
  note_values(*sum, *buf);  // values in [0, 2 + 3]
  expect_range(g.buffer(buf, DType::kInt64, View{4, {4}, {1}}), 0, 5);
}

// Seeded random expressions over aranges and constants of 12 elements, evaluated by hand in
// 128 bits: every value lies within the bounds, and an affine form gives each value exactly.
TEST(ValueRange, RandomExpressionsStayWithinTheirBounds) {
  constexpr int64_t kN = 12;
  std::mt19937 rng(7);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 300; ++trial) {
    Graph g;
    const DType t = pick(0, 1) ? DType::kInt64 : DType::kInt32;
    using Vals = std::vector<__int128>;
    std::vector<std::pair<NodePtr, Vals>> pool;
    for (int k = 0; k < 3; ++k) {
      const int64_t start = pick(-50, 50), step = pick(-9, 9);
      Vals v;
      for (int64_t p = 0; p < kN; ++p) v.push_back(start + step * p);
      pool.push_back({arange(g, start, step, kN, t), v});
    }
    for (int step = 0; step < 4; ++step) {
      auto [x, xv] = pool[pick(0, pool.size() - 1)];
      auto [y, yv] = pool[pick(0, pool.size() - 1)];
      const int64_t c = pick(-1000, 1000);
      const int op = static_cast<int>(pick(0, 6));
      NodePtr n;
      Vals v(kN);
      for (int64_t p = 0; p < kN; ++p) {
        switch (op) {
          case 0:
            v[p] = xv[p] + yv[p];
            break;
          case 1:
            v[p] = xv[p] - yv[p];
            break;
          case 2:
            v[p] = xv[p] * yv[p];
            break;
          case 3:
            v[p] = xv[p] + c;
            break;
          case 4:
            v[p] = xv[p] * c;
            break;
          case 5:
            v[p] = std::max(xv[p], yv[p]);
            break;
          default:
            v[p] = -xv[p];
            break;
        }
      }
      switch (op) {
        case 0:
          n = apply(g, Op::kAdd, {x, y});
          break;
        case 1:
          n = apply(g, Op::kSubtract, {x, y});
          break;
        case 2:
          n = apply(g, Op::kMultiply, {x, y});
          break;
        case 3:
          n = apply(g, Op::kAdd, {x, WeakScalar::of_int(c)});
          break;
        case 4:
          n = apply(g, Op::kMultiply, {x, WeakScalar::of_int(c)});
          break;
        case 5:
          n = apply(g, Op::kMaximum, {x, y});
          break;
        default:
          n = apply(g, Op::kNegative, {x});
          break;
      }
      std::optional<ValueRange> r = value_range(*n);
      if (r) {
        for (int64_t p = 0; p < kN; ++p) {
          ASSERT_GE(v[p], r->lo) << n->to_string();
          ASSERT_LE(v[p], r->hi) << n->to_string();
          if (r->affine) ASSERT_EQ(v[p], __int128(r->a) + __int128(r->b) * p) << n->to_string();
        }
      }
      pool.push_back({n, v});
    }
  }
}

}  // namespace
}  // namespace vka
