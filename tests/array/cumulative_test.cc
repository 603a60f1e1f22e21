// Scans (cumsum, cumprod, cummax, cummin and their variants), diff and ediff1d on the device,
// against sequential scans worked out on the host.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "array/array.h"
#include "base/errors.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

// Sizes around the block boundaries (4096 float32, 2048 int64/float64 per block) and a
// two-level one.
const std::vector<int64_t> kSizes = {0, 1, 7, 1000, 1025, 4097, 1000003};

using testing::random_floats;
using testing::random_ints;
using testing::upload;

TEST(CumulativeTest, Int64SumIsExactAndWraps) {
  for (int64_t n : kSizes) {
    // Large values: the running sum wraps around 2^64 many times, as numpy's does.
    std::vector<int64_t> v = random_ints(n, -(int64_t{1} << 62), int64_t{1} << 62, 7);
    std::vector<int64_t> want(v.size());
    uint64_t acc = 0;
    for (size_t i = 0; i < v.size(); ++i) want[i] = static_cast<int64_t>(acc += uint64_t(v[i]));
    Array y = cumsum(upload(v));
    EXPECT_EQ(y.dtype(), DType::kInt64);
    EXPECT_EQ(y.shape(), (Shape{n}));
    EXPECT_EQ(y.to_vector<int64_t>(), want) << "n=" << n;
  }
}

TEST(CumulativeTest, Float32SumWithinTheSequentialBound) {
  for (int64_t n : kSizes) {
    std::vector<float> v = random_floats(n, 11);
    std::vector<float> y = cumsum(upload(v)).to_vector<float>();
    ASSERT_EQ(y.size(), v.size());
    // |error of a sequential float32 sum of i+1 terms| <= (i+1) eps sum |x_j| (Higham 4.3).
    const double eps = std::numeric_limits<float>::epsilon();
    double exact = 0, abs_sum = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      exact += v[i];
      abs_sum += std::fabs(v[i]);
      ASSERT_LE(std::fabs(y[i] - exact), double(i + 1) * eps * abs_sum) << "n=" << n << " i=" << i;
    }
  }
}

TEST(CumulativeTest, RepeatedRunsAreBitIdentical) {
  std::vector<float> v = random_floats(1000003, 3);
  Array a = upload(v);
  std::vector<float> first = cumsum(a).to_vector<float>();
  for (int k = 0; k < 2; ++k) {
    std::vector<float> again = cumsum(a).to_vector<float>();
    EXPECT_EQ(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)), 0);
  }
}

TEST(CumulativeTest, ProductDtypesAndWrap) {
  std::vector<int32_t> v = {3, -7, 100000, 100000, 100000, 2, 0, 5};
  Array y = cumprod(upload(v));
  EXPECT_EQ(y.dtype(), DType::kInt64);
  std::vector<int64_t> want(v.size());
  uint64_t acc = 1;
  for (size_t i = 0; i < v.size(); ++i) {
    want[i] = static_cast<int64_t>(acc *= static_cast<uint64_t>(int64_t{v[i]}));
  }
  EXPECT_EQ(y.to_vector<int64_t>(), want);
  // dtype= overrides: int32 accumulation wraps at 32 bits.
  std::vector<int32_t> want32(v.size());
  uint32_t acc32 = 1;
  for (size_t i = 0; i < v.size(); ++i) want32[i] = static_cast<int32_t>(acc32 *= uint32_t(v[i]));
  EXPECT_EQ(cumprod(upload(v), std::nullopt, DType::kInt32).to_vector<int32_t>(), want32);
  // Unsigned inputs accumulate in uint64; bool in int64.
  EXPECT_EQ(cumsum(upload(std::vector<uint8_t>{200, 200})).dtype(), DType::kUInt64);
  Array flags = upload(std::vector<int8_t>{1, 0, 1}) != 0;
  EXPECT_EQ(cumsum(flags).to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 2}));
  // dtype=bool: logical or (sum) and logical and (product), as numpy's add/multiply on bool.
  Array any = cumsum(flags, std::nullopt, DType::kBool);
  EXPECT_EQ(any.dtype(), DType::kBool);
  EXPECT_EQ(any.astype(DType::kInt8).to_vector<int8_t>(), (std::vector<int8_t>{1, 1, 1}));
  EXPECT_EQ(cumprod(flags, std::nullopt, DType::kBool).astype(DType::kInt8).to_vector<int8_t>(),
            (std::vector<int8_t>{1, 0, 0}));
}

TEST(CumulativeTest, RunningMaximumPropagatesNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> v = {1, 3, 2, nan, 5, 0};
  std::vector<float> mx = cummax(upload(v)).to_vector<float>();
  EXPECT_EQ(mx[0], 1);
  EXPECT_EQ(mx[1], 3);
  EXPECT_EQ(mx[2], 3);
  for (int i = 3; i < 6; ++i) EXPECT_TRUE(std::isnan(mx[i])) << i;
  std::vector<int64_t> w = random_ints(5000, -1000000, 1000000, 5);
  std::vector<int64_t> lo = cummin(upload(w)).to_vector<int64_t>();
  int64_t m = w[0];
  for (size_t i = 0; i < w.size(); ++i) {
    m = std::min(m, w[i]);
    ASSERT_EQ(lo[i], m) << i;
  }
}

// Every axis of 2-d and 3-d arrays (both kernel plans), and a strided view.
TEST(CumulativeTest, EveryAxis) {
  for (Shape shape : {Shape{3, 5000}, Shape{5000, 3}, Shape{30, 5000}, Shape{100, 7},
                      Shape{4, 300, 5}, Shape{7, 1, 9}}) {
    const int64_t n = size(shape);
    std::vector<int64_t> v = random_ints(n, -50, 50, 9);
    Array a = upload(v, shape);
    for (int ax = 0; ax < static_cast<int>(shape.size()); ++ax) {
      std::vector<int64_t> got = cumsum(a, ax).to_vector<int64_t>();
      int64_t inner = 1;
      for (size_t d = ax + 1; d < shape.size(); ++d) inner *= shape[d];
      const int64_t len = shape[ax];
      for (int64_t i = 0; i < n; ++i) {
        const int64_t k = i / inner % len;
        const int64_t prev = k == 0 ? 0 : got[i - inner];  // checked at the previous k
        ASSERT_EQ(got[i], prev + v[i]) << to_string(shape) << " axis " << ax << " i " << i;
      }
    }
  }
  Array base = testing::iota(60, {6, 10});
  Array view = base[{range(1, std::nullopt, 2), range(std::nullopt, std::nullopt, -3)}];
  // rows 1, 3, 5; columns 9, 6, 3, 0
  std::vector<double> got = cumsum(view, int64_t{1}).to_vector<double>();
  EXPECT_EQ(got, (std::vector<double>{19, 35, 48, 58, 39, 75, 108, 138, 59, 115, 168, 218}));
  EXPECT_EQ(cumsum(view, int64_t{-2}).to_vector<double>(),
            (std::vector<double>{19, 16, 13, 10, 58, 52, 46, 40, 117, 108, 99, 90}));
}

// Rows of more blocks than a GPU's worth of workgroups (kernels/lib/cumulative.h): chunks of
// two blocks, a row's last chunk holding one, the totals of earlier chunks folded into later
// ones, in one row and across rows.
TEST(CumulativeTest, ChunksOfSeveralBlocks) {
  // 2048 int64 per block: 4101 blocks, chunks of 2.
  const int64_t n = 2048 * 4100 + 777;
  std::vector<int32_t> v(static_cast<size_t>(n));
  std::mt19937 gen(21);
  for (int32_t& x : v) x = static_cast<int32_t>(gen() % 2001) - 1000;
  std::vector<int64_t> got = cumsum(upload(v)).to_vector<int64_t>();
  int64_t acc = 0;
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], acc += v[i]) << "i=" << i;
  // Three rows of 1401 blocks (chunks of 2), scanned along axis 1; a running maximum with a
  // NaN in the middle of the second row's third chunk.
  const int64_t len = 2048 * 1400 + 5;
  std::vector<double> w(static_cast<size_t>(3 * len));
  for (double& x : w) x = static_cast<double>(gen() % 1000003);
  w[len + 5 * 2048 + 17] = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> mx = cummax(upload(w, {3, len}), 1).to_vector<double>();
  for (int64_t r = 0; r < 3; ++r) {
    double m = w[r * len];
    bool nan = false;
    for (int64_t i = 0; i < len; ++i) {
      const double x = w[r * len + i];
      nan = nan || std::isnan(x);
      m = std::max(m, x);
      if (nan) {
        ASSERT_TRUE(std::isnan(mx[r * len + i])) << "row " << r << " i " << i;
      } else {
        ASSERT_EQ(mx[r * len + i], m) << "row " << r << " i " << i;
      }
    }
  }
}

TEST(CumulativeTest, MultiLevelComplex) {
  // 1024 complex128 per block: a row of 1025 blocks, one chunk each.
  const int64_t n = 1024 * 1024 + 3;
  std::vector<double> v(static_cast<size_t>(2 * n));
  for (int64_t i = 0; i < n; ++i) {
    v[2 * i] = static_cast<double>(i % 7);
    v[2 * i + 1] = -static_cast<double>(i % 3);
  }
  Array a = Array::from_host(v.data(), {n}, DType::kComplex128);
  std::vector<double> got(static_cast<size_t>(2 * n));
  cumsum(a).read(got.data(), got.size() * sizeof(double));
  double re = 0, im = 0;
  for (int64_t i = 0; i < n; ++i) {
    re += v[2 * i];
    im += v[2 * i + 1];
    ASSERT_EQ(got[2 * i], re) << i;  // small integers: exact in float64
    ASSERT_EQ(got[2 * i + 1], im) << i;
  }
}

TEST(CumulativeTest, NanVariantsAndCumulativeSum) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Array a = upload(std::vector<double>{1, nan, 2, nan, 3});
  EXPECT_EQ(nancumsum(a).to_vector<double>(), (std::vector<double>{1, 1, 3, 3, 6}));
  EXPECT_EQ(nancumprod(a).to_vector<double>(), (std::vector<double>{1, 1, 2, 2, 6}));
  Array b = testing::iota(6, {2, 3});
  Array s = cumulative_sum(b, int64_t{1}, std::nullopt, /*include_initial=*/true);
  EXPECT_EQ(s.shape(), (Shape{2, 4}));
  EXPECT_EQ(s.to_vector<double>(), (std::vector<double>{0, 0, 1, 3, 0, 3, 7, 12}));
  EXPECT_THROW(cumulative_sum(b), ShapeError);
  EXPECT_EQ(cumulative_prod(testing::iota(4) + 1).to_vector<double>(),
            (std::vector<double>{1, 2, 6, 24}));
}

TEST(CumulativeTest, Errors) {
  Array b = testing::iota(6, {2, 3});
  EXPECT_THROW(cumsum(b, int64_t{2}), AxisError);
  EXPECT_THROW(cummax(b, -3), AxisError);
  EXPECT_THROW(cummax(testing::iota(1).astype(DType::kComplex64)), DTypeError);
  EXPECT_THROW(cummax(reshape(testing::iota(1), {})), DTypeError);
  EXPECT_THROW(diff(b, -1), ShapeError);
  EXPECT_THROW(diff(reshape(testing::iota(1), {})), ShapeError);
  EXPECT_THROW(ediff1d(b, testing::iota(1).astype(DType::kComplex64)), DTypeError);
}

TEST(CumulativeTest, DiffAndEdiff1d) {
  Array a = upload(std::vector<int64_t>{1, 4, 9, 16, 25, 36}, {2, 3});
  EXPECT_EQ(diff(a).to_vector<int64_t>(), (std::vector<int64_t>{3, 5, 9, 11}));
  EXPECT_EQ(diff(a, 1, 0).to_vector<int64_t>(), (std::vector<int64_t>{15, 21, 27}));
  EXPECT_EQ(diff(a, 2).to_vector<int64_t>(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(diff(a, 5).shape(), (Shape{2, 0}));
  Array p = upload(std::vector<int64_t>{0});
  Array d = diff(a, 1, -1, reshape(p, {}), upload(std::vector<int64_t>{0, 0}, {2, 1}));
  EXPECT_EQ(d.to_vector<int64_t>(), (std::vector<int64_t>{1, 3, 5, -9, 16, 9, 11, -36}));
  Array flags = upload(std::vector<int8_t>{0, 1, 1, 0}) != 0;
  EXPECT_EQ(diff(flags).dtype(), DType::kBool);
  EXPECT_EQ(ediff1d(a).to_vector<int64_t>(), (std::vector<int64_t>{3, 5, 7, 9, 11}));
  Array e = ediff1d(a, upload(std::vector<int64_t>{7, 8}), reshape(p, {}));
  EXPECT_EQ(e.to_vector<int64_t>(), (std::vector<int64_t>{0, 3, 5, 7, 9, 11, 7, 8}));
}

}  // namespace
}  // namespace vka
