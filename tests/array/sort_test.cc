// The radix sort against std::stable_sort on the host: every dtype class, ties, NaN, -0.0,
// rows along any axis, and the errors.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/sort.h"
#include "base/errors.h"
#include "runtime/profile.h"

namespace vka {
namespace {

// numpy's sort order: NaN after everything; -0.0 equal to 0.0.
template <typename T>
bool before(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return false;
    if (std::isnan(y)) return true;
  }
  return x < y;
}

// The stable argsort of each row of a (rows x n) row-major matrix.
template <typename T>
std::vector<int64_t> reference_argsort(const std::vector<T>& v, int64_t n) {
  std::vector<int64_t> out;
  for (size_t r = 0; r < v.size() / n; ++r) {
    std::vector<int64_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](int64_t i, int64_t j) { return before(v[r * n + i], v[r * n + j]); });
    out.insert(out.end(), idx.begin(), idx.end());
  }
  return out;
}

template <typename T>
void expect_sorts(const std::vector<T>& v, Shape shape) {
  Array a = Array::from_host(v.data(), shape, dtype_of_v<T>);
  const int64_t n = shape.back();
  const std::vector<int64_t> idx = reference_argsort(v, n);
  EXPECT_EQ(argsort(a).to_vector<int64_t>(), idx) << "size " << v.size();
  std::vector<T> sorted(v.size());
  for (size_t k = 0; k < v.size(); ++k) sorted[k] = v[k / n * n + idx[k]];
  std::vector<T> got = sort(a).to_vector<T>();
  ASSERT_EQ(got.size(), sorted.size());
  for (size_t k = 0; k < got.size(); ++k) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(sorted[k])) {
        EXPECT_TRUE(std::isnan(got[k])) << k;
        continue;
      }
      EXPECT_EQ(std::signbit(got[k]), std::signbit(sorted[k])) << k;  // stability of -0.0
    }
    EXPECT_EQ(got[k], sorted[k]) << k;
  }
}

template <typename T>
std::vector<T> random_ints(size_t n, int64_t lo, int64_t hi, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(d(g));
  return v;
}

TEST(SortTest, IntegersOfEveryWidthWithTies) {
  for (int64_t n : {1, 7, 1000, 4097}) {
    expect_sorts(random_ints<int8_t>(n, -128, 127, 1), {n});
    expect_sorts(random_ints<uint8_t>(n, 0, 5, 2), {n});
    expect_sorts(random_ints<int16_t>(n, -30000, 30000, 3), {n});
    expect_sorts(random_ints<uint16_t>(n, 0, 65535, 4), {n});
    expect_sorts(random_ints<int32_t>(n, -50, 50, 5), {n});
    expect_sorts(random_ints<uint32_t>(n, 0, 4000000000LL, 6), {n});
    expect_sorts(random_ints<int64_t>(n, std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max(), 7), {n});
    expect_sorts(random_ints<uint64_t>(n, 0, std::numeric_limits<int64_t>::max(), 8), {n});
  }
}

TEST(SortTest, FloatsPlaceNanInfAndNegativeZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN(),
              inf = std::numeric_limits<float>::infinity();
  expect_sorts(std::vector<float>{3, nan, -0.0f, inf, 0.0f, -inf, -0.0f, 1e-40f, -1e-40f, nan,
                                  -2.5f, 0.0f, -nan},
               {13});
  std::vector<double> d = random_ints<double>(5000, -20, 20, 9);
  for (size_t k = 0; k < d.size(); k += 7) d[k] = k % 3 ? -0.0 : std::nan("");
  expect_sorts(d, {5000});
  expect_sorts(d, {50, 100});  // rows: the row index is the most significant digit
  expect_sorts(d, {1000, 5});
}

// The names of the kernels `fn` dispatches.
template <typename F>
std::vector<std::string> kernels_of(F fn) {
  Profile prof;
  prof.start();
  fn();
  std::vector<std::string> names;
  for (const ProfileRecord& r : prof.records()) names.push_back(r.name);
  prof.stop();
  return names;
}

int64_t count_with(const std::vector<std::string>& names, const std::string& part) {
  return std::count_if(names.begin(), names.end(),
                       [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

// A sort of 32- and 64-bit values keys them in its first pass and writes them back in its last
// (an argsort's first pass writes the positions it moves): every combination of first and last
// pass, against std::stable_sort (expect_sorts checks argsort too).
TEST(SortTest, ValuesSortWithoutKeyPassesOfTheirOwn) {
  const float nan = std::numeric_limits<float>::quiet_NaN(),
              inf = std::numeric_limits<float>::infinity();
  std::vector<float> f = random_ints<float>(9001, -3000, 3000, 12);
  for (size_t k = 0; k < f.size(); k += 97) f[k] = k % 2 ? nan : (k % 3 ? inf : -inf);
  for (size_t k = 5; k < f.size(); k += 13) f[k] *= 1.0e-3f;
  expect_sorts(f, {9001});
  Array a = Array::from_host(f.data(), {9001}, DType::kFloat32);
  const std::vector<std::string> names = kernels_of([&] { sort(a).eval(); });
  EXPECT_EQ(count_with(names, "sort_keys"), 0);  // no pass of its own makes the keys
  EXPECT_EQ(count_with(names, "ew_"), 0);        // nor turns them back into values
  EXPECT_EQ(count_with(names, "scatter"), 4);
  // An argsort's first pass makes its keys and positions too.
  const std::vector<std::string> arg = kernels_of([&] { argsort(a).eval(); });
  EXPECT_EQ(count_with(arg, "sort_keys"), 0);
  EXPECT_EQ(count_with(arg, "scatter"), 4);
  // Digit 0 the same everywhere: the first pass is digit 1's, with counts of its own.
  std::vector<int32_t> i32 = random_ints<int32_t>(5000, -40000, 40000, 13);
  for (int32_t& x : i32) x *= 256;
  expect_sorts(i32, {5000});
  // More partitions than the offsets kernel scans in one chunk (2048; 1024-key tiles here).
  std::vector<int32_t> big = random_ints<int32_t>((1 << 21) + 12345, -2000000000, 2000000000, 18);
  Array b = Array::from_host(big.data(), {static_cast<int64_t>(big.size())}, DType::kInt32);
  std::vector<int32_t> want = big;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(sort(b).to_vector<int32_t>(), want);
  // One pass, first and last: only the lowest byte varies.
  expect_sorts(random_ints<int64_t>(4097, 1000, 1255, 14), {4097});
  expect_sorts(random_ints<uint64_t>(3, 0, 255, 15), {3});
  // Only the top byte varies: the last pass is digit 3's.
  std::vector<uint32_t> top = random_ints<uint32_t>(777, 0, 255, 16);
  for (uint32_t& x : top) x <<= 24;
  expect_sorts(top, {777});
  std::vector<double> d = random_ints<double>(6000, -1000000, 1000000, 17);
  for (double& x : d) x /= 7.0;
  d[17] = std::nan("");
  d[4000] = -std::numeric_limits<double>::infinity();
  expect_sorts(d, {6000});
  // One value (no digit varies) and values whose keys lose their bits (-0.0, a NaN with a
  // payload): the permutation's way, as before.
  expect_sorts(std::vector<uint32_t>(300, 7u), {300});
  expect_sorts(std::vector<float>{2.0f, -0.0f, 1.0f, 0.0f}, {4});
  std::vector<double> payload = {1.0, std::nan("5"), -2.0, 0.5};
  Array p = Array::from_host(payload.data(), {4}, DType::kFloat64);
  std::vector<double> got = sort(p).to_vector<double>();
  EXPECT_EQ((std::vector<double>{got[0], got[1], got[2]}), (std::vector<double>{-2.0, 0.5, 1.0}));
  uint64_t bits;
  std::memcpy(&bits, &got[3], 8);
  EXPECT_EQ(bits, [] {
    uint64_t b;
    const double x = std::nan("5");
    std::memcpy(&b, &x, 8);
    return b;
  }());
}

TEST(SortTest, AlongAnyAxisAndFlattened) {
  std::vector<int32_t> v = random_ints<int32_t>(60, -9, 9, 10);
  Array a = Array::from_host(v.data(), {3, 4, 5}, DType::kInt32);
  for (int64_t axis : {0, 1, 2, -1, -3}) {
    // Against sorting the moved axis as the last one.
    Array moved = ascontiguousarray(moveaxis(a, {axis}, {-1}));
    std::vector<int32_t> m = moved.to_vector<int32_t>();
    std::vector<int64_t> idx = reference_argsort(m, moved.shape().back());
    Array got = ascontiguousarray(moveaxis(argsort(a, axis), {axis}, {-1}));
    EXPECT_EQ(got.to_vector<int64_t>(), idx) << "axis " << axis;
  }
  std::vector<int32_t> flat = v;
  std::stable_sort(flat.begin(), flat.end());
  EXPECT_EQ(sort(a, std::nullopt).to_vector<int32_t>(), flat);
  EXPECT_EQ(sort(a, std::nullopt).shape(), (Shape{60}));
}

TEST(SortTest, ComplexIsLexicographicWithNumpysNanClasses) {
  using C = std::complex<float>;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<C> v = {{nan, 1}, {1, nan}, {2, 0}, {1, 2}, {nan, nan}, {1, 1}, {nan, 0},
                      {-1, 5}, {0, nan}, {1, 1}};
  Array a = Array::from_host(v.data(), {10}, DType::kComplex64);
  // numpy: R+Rj < R+nanj < nan+Rj < nan+nanj, each class in (real, imag) order.
  EXPECT_EQ(argsort(a).to_vector<int64_t>(),
            (std::vector<int64_t>{7, 5, 9, 3, 2, 8, 1, 6, 0, 4}));
}

TEST(SortTest, DeterministicAndEmpty) {
  std::vector<double> v = random_ints<double>(4097, -3, 3, 11);
  Array a = Array::from_host(v.data(), {4097}, DType::kFloat64);
  EXPECT_EQ(argsort(a).to_vector<int64_t>(), argsort(a).to_vector<int64_t>());
  Array e = zeros({0, 3}, DType::kFloat32);
  EXPECT_EQ(sort(e, 0).shape(), (Shape{0, 3}));
  EXPECT_EQ(argsort(e).dtype(), DType::kInt64);
}

TEST(SortTest, PartitionChecksKth) {
  std::vector<int64_t> v = {5, 1, 4, 2, 3};
  Array a = Array::from_host(v.data(), {5}, DType::kInt64);
  std::vector<int64_t> p = partition(a, {2}).to_vector<int64_t>();
  EXPECT_EQ(p[2], 3);
  EXPECT_TRUE(std::all_of(p.begin(), p.begin() + 2, [](int64_t x) { return x <= 3; }));
  EXPECT_EQ(argpartition(a, {-1}).to_vector<int64_t>()[4], 0);
  EXPECT_THROW(partition(a, {5}), ShapeError);
  EXPECT_THROW(argpartition(a, {-6}), ShapeError);
  EXPECT_THROW(sort(a, 1), AxisError);
  EXPECT_THROW(sort(Array::from_host(v.data(), {}, DType::kInt64)), AxisError);
}

TEST(SortTest, UniqueWithIndexInverseCounts) {
  const double nan = std::nan("");
  std::vector<double> v = {3, nan, 1, 3, -0.0, 0.0, nan, 1, 7};
  Array a = Array::from_host(v.data(), {3, 3}, DType::kFloat64);
  UniqueResult u = unique(a, true, true, true);
  std::vector<double> values = u.values.to_vector<double>();
  ASSERT_EQ(values.size(), 5u);
  EXPECT_EQ(std::vector<double>(values.begin(), values.end() - 1),
            (std::vector<double>{0, 1, 3, 7}));
  EXPECT_TRUE(std::isnan(values.back()));
  EXPECT_EQ(u.indices->to_vector<int64_t>(), (std::vector<int64_t>{4, 2, 0, 8, 1}));
  EXPECT_EQ(u.inverse->to_vector<int64_t>(), (std::vector<int64_t>{2, 4, 1, 2, 0, 0, 4, 1, 3}));
  EXPECT_EQ(u.counts->to_vector<int64_t>(), (std::vector<int64_t>{2, 2, 2, 1, 2}));
}

TEST(SortTest, BincountAndErrors) {
  std::vector<int32_t> x = {2, 0, 2, 5, 2};
  std::vector<double> w = {0.5, 1, 0.25, 2, 1e20};
  Array ax = Array::from_host(x.data(), {5}, DType::kInt32);
  Array aw = Array::from_host(w.data(), {5}, DType::kFloat64);
  EXPECT_EQ(bincount(ax).to_vector<int64_t>(), (std::vector<int64_t>{1, 0, 3, 0, 0, 1}));
  EXPECT_EQ(bincount(ax, std::nullopt, 8).size(), 8);
  // Summed in input order: (0.5 + 0.25) + 1e20.
  EXPECT_EQ(bincount(ax, aw).to_vector<double>(),
            (std::vector<double>{1, 0, (0.5 + 0.25) + 1e20, 0, 0, 2}));
  std::vector<int32_t> neg = {1, -3, 2};
  EXPECT_THROW(bincount(Array::from_host(neg.data(), {3}, DType::kInt32)), ShapeError);
  EXPECT_THROW(bincount(aw), DTypeError);
}

TEST(SortTest, HistogramAndIsin) {
  std::vector<double> v = {0, 1, 1, 2, 3, 10, 4};
  Array a = Array::from_host(v.data(), {7}, DType::kFloat64);
  auto [hist, edges] = histogram(a, 5);
  EXPECT_EQ(hist.to_vector<int64_t>(), (std::vector<int64_t>{3, 2, 1, 0, 1}));
  EXPECT_EQ(edges.to_vector<double>(), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  std::vector<double> e = {1, 2, 4};
  auto [h2, e2] = histogram(a, Array::from_host(e.data(), {3}, DType::kFloat64));
  EXPECT_EQ(h2.to_vector<int64_t>(), (std::vector<int64_t>{2, 3}));
  std::vector<int64_t> t = {4, 1, 9};
  Array in = isin(a, Array::from_host(t.data(), {3}, DType::kInt64));
  Array expected = Array::from_host(std::vector<uint8_t>{0, 1, 1, 0, 0, 0, 1}.data(), {7},
                                    DType::kBool);
  EXPECT_EQ(in.astype(DType::kInt64).to_vector<int64_t>(),
            expected.astype(DType::kInt64).to_vector<int64_t>());
}

}  // namespace
}  // namespace vka
