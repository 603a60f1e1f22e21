// Gathers and compaction on the device, against positions worked out on the host.
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "array/array.h"
#include "base/errors.h"
#include "runtime/realize.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::iota;
using testing::kernels;

Array ints(std::vector<int64_t> v, Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(v.size())};
  return Array::from_host(v.data(), shape, DType::kInt64);
}

TEST(GatherTest, TakeAlongAxesAndNegativeIndices) {
  Array a = iota(12, {3, 4});  // [[0 1 2 3] [4 5 6 7] [8 9 10 11]]
  EXPECT_EQ(take(a, ints({2, -1, 0}), int64_t{1}).to_vector<double>(),
            (std::vector<double>{2, 3, 0, 6, 7, 4, 10, 11, 8}));
  EXPECT_EQ(take(a, ints({11, -12})).to_vector<double>(), (std::vector<double>{11, 0}));
  Array rows = take(a, ints({2, 0}, {1, 2}), int64_t{0});
  EXPECT_EQ(rows.shape(), (Shape{1, 2, 4}));
  EXPECT_EQ(rows.to_vector<double>(), (std::vector<double>{8, 9, 10, 11, 0, 1, 2, 3}));
  // take_along_axis: per row, columns {3, 0}, {1, 1}, {2, 3}.
  Array along = take_along_axis(a, ints({3, 0, 1, 1, 2, 3}, {3, 2}), 1);
  EXPECT_EQ(along.to_vector<double>(), (std::vector<double>{3, 0, 5, 5, 10, 11}));
}

TEST(GatherTest, IndicesFuseAndBoundsAreChecked) {
  Array a = iota(10);
  Array i = ints({1, 2, 3});
  const uint64_t k0 = kernels();
  Array y = gather(a, {i * 2 + 1}, {0}, 0, /*checked=*/true) * 10;
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{30, 50, 70}));
  EXPECT_EQ(kernels() - k0, 1u);  // index arithmetic, gather and scaling: one kernel
  EXPECT_THROW(take(a, ints({0, 10})), IndexError);
  EXPECT_THROW(take(a, ints({-11})), IndexError);
  EXPECT_EQ(take(a, ints({0, 10, -30}), std::nullopt, IndexMode::kClip).to_vector<double>(),
            (std::vector<double>{0, 9, 0}));
  EXPECT_EQ(take(a, ints({12, -1}), std::nullopt, IndexMode::kWrap).to_vector<double>(),
            (std::vector<double>{2, 9}));
}

TEST(GatherTest, NonzeroAcrossScanLevels) {
  // 2^20 + 5 flags: three levels of block sums.
  const int64_t n = (int64_t{1} << 20) + 5;
  std::mt19937 rng(3);
  std::vector<uint8_t> flags(static_cast<size_t>(n));
  std::vector<int64_t> want;
  for (int64_t k = 0; k < n; ++k) {
    flags[k] = (rng() % 7) == 0;
    if (flags[k]) want.push_back(k);
  }
  Array f = Array::from_host(flags.data(), {n}, DType::kBool);
  Array got = flatnonzero(f);
  EXPECT_EQ(got.shape(), (Shape{static_cast<int64_t>(want.size())}));
  EXPECT_EQ(got.to_vector<int64_t>(), want);
}

TEST(GatherTest, MasksCompressAndNonzeroCoordinates) {
  Array a = iota(12, {3, 4});
  Array m = greater(a, Arg(4.5)) * less(a, Arg(9.5));  // 5..9
  EXPECT_EQ(masked(a, m).to_vector<double>(), (std::vector<double>{5, 6, 7, 8, 9}));
  std::vector<Array> rc = nonzero(m);
  EXPECT_EQ(rc[0].to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 1, 2, 2}));
  EXPECT_EQ(rc[1].to_vector<int64_t>(), (std::vector<int64_t>{1, 2, 3, 0, 1}));
  std::vector<uint8_t> c = {1, 0, 1};
  Array cond = Array::from_host(c.data(), {3}, DType::kBool);
  EXPECT_EQ(compress(cond, a, int64_t{1}).to_vector<double>(),
            (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(flatnonzero(zeros({0})).size(), 0);
  EXPECT_THROW(masked(a, greater(iota(4), Arg(1.0))), IndexError);  // (4,) vs (3, 4)
}

// numpy: a mask dimension of 0 fits any extent and selects nothing; others must match.
TEST(GatherTest, EmptyMaskDimensionsSelectNothing) {
  Array a = iota(12, {3, 4});
  EXPECT_EQ(masked(a, zeros({0}, DType::kBool)).shape(), (Shape{0, 4}));
  EXPECT_EQ(masked(a, zeros({0, 4}, DType::kBool)).shape(), (Shape{0}));
  EXPECT_EQ(masked(a, zeros({3, 0}, DType::kBool)).shape(), (Shape{0}));
  EXPECT_EQ(masked(a, zeros({0, 0}, DType::kBool)).shape(), (Shape{0}));
  EXPECT_EQ(masked(a, zeros({0}, DType::kBool)).dtype(), a.dtype());
  EXPECT_THROW(masked(a, zeros({0, 5}, DType::kBool)), IndexError);  // 5 vs 4
  EXPECT_THROW(masked(a, zeros({2, 0}, DType::kBool)), IndexError);  // 2 vs 3
}

TEST(ScatterTest, LastAssignmentWinsAndViewsSeeIt) {
  Array a = iota(12, {3, 4});
  Array row = a[{1}];
  Array before = a * 1;  // lazy: keeps the old values
  // a[[1, 2, 1], [0, 3, 0]] = [10, 20, 30]: element (1, 0) is written twice; 30 wins.
  std::vector<double> v = {10, 20, 30};
  scatter(a, {ints({1, 2, 1}), ints({0, 3, 0})}, {0, 1}, 0,
          Array::from_host(v.data(), {3}, DType::kFloat64));
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 1, 2, 3, 30, 5, 6, 7, 8, 9, 10, 20}));
  EXPECT_EQ(row.to_vector<double>(), (std::vector<double>{30, 5, 6, 7}));
  EXPECT_EQ(before.to_vector<double>()[4], 4);
  std::vector<double> w = {-1};
  put(a, ints({0, 11, -1}), Array::from_host(w.data(), {1}, DType::kFloat64));
  EXPECT_EQ(a.to_vector<double>().front(), -1);
  EXPECT_EQ(a.to_vector<double>().back(), -1);
  EXPECT_THROW(put(a, ints({12}), Array::from_host(w.data(), {1}, DType::kFloat64)), IndexError);
}

}  // namespace
}  // namespace vka
