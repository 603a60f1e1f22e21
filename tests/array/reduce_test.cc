// Reductions of vka::Array on the default device, against arithmetic done by hand: values
// over every axis set, numpy's dtypes, ties, empty inputs, kernel counts, determinism.
#include "array/reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "array/functions.h"
#include "array/views.h"
#include "base/errors.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::iota;
using testing::kernels;

TEST(Reduce, SumsOverEveryAxisSetOfAnArange) {
  Array x = iota(24, {2, 3, 4});  // x[i][j][k] = 12 i + 4 j + k
  EXPECT_EQ(sum(x).to_vector<double>(), std::vector<double>{276});
  EXPECT_EQ(sum(x, 0).to_vector<double>(),
            (std::vector<double>{12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34}));
  EXPECT_EQ(sum(x, {0, 2}).to_vector<double>(), (std::vector<double>{60, 92, 124}));
  EXPECT_EQ(sum(x, -1).to_vector<double>(), (std::vector<double>{6, 22, 38, 54, 70, 86}));
  Array k = sum(x, {1}, {true});
  EXPECT_EQ(k.shape(), (Shape{2, 1, 4}));
  EXPECT_EQ(k.to_vector<double>(), (std::vector<double>{12, 15, 18, 21, 48, 51, 54, 57}));
  EXPECT_EQ(mean(x, {0, 1}).to_vector<double>(), (std::vector<double>{10, 11, 12, 13}));
  EXPECT_EQ(max(x, 1).to_vector<double>(), (std::vector<double>{8, 9, 10, 11, 20, 21, 22, 23}));
  EXPECT_EQ(argmin(x, 2).to_vector<int64_t>(), (std::vector<int64_t>(6, 0)));
}

TEST(Reduce, DtypesFollowNumpy) {
  std::vector<int8_t> v(300, 100);
  Array a = Array::from_host(v.data(), {300}, DType::kInt8);
  Array s = sum(a);
  EXPECT_EQ(s.dtype(), DType::kInt64);
  EXPECT_EQ(s.to_vector<int64_t>()[0], 30000);
  EXPECT_EQ(mean(a).dtype(), DType::kFloat64);
  EXPECT_EQ(max(a).dtype(), DType::kInt8);
  EXPECT_EQ(argmax(a).dtype(), DType::kInt64);
  EXPECT_EQ(any(a).dtype(), DType::kBool);
  // dtype=int8 wraps as numpy: 300 * 100 mod 256 = 48 as int8.
  EXPECT_EQ(sum(a, {}, {false, DType::kInt8}).to_vector<int8_t>()[0], static_cast<int8_t>(48));
}

TEST(Reduce, ArgReductionsTakeTheFirstOfTiesAndNaN) {
  std::vector<float> v = {1, 5, 2, 5, 5, -1, NAN, 3, NAN};
  Array a = Array::from_host(v.data(), {9}, DType::kFloat32);
  Array head = a[{range(0, 6)}];
  EXPECT_EQ(argmax(head).to_vector<int64_t>()[0], 1);
  EXPECT_EQ(argmin(head).to_vector<int64_t>()[0], 5);
  EXPECT_EQ(argmax(a).to_vector<int64_t>()[0], 6);  // NaN is the maximum, the first one wins
  EXPECT_EQ(nanargmax(a).to_vector<int64_t>()[0], 1);
  EXPECT_TRUE(std::isnan(max(a).to_vector<float>()[0]));
  EXPECT_EQ(nanmax(a).to_vector<float>()[0], 5.0f);
}

TEST(Reduce, EmptyReductionsGiveIdentitiesOrNumpysErrors) {
  Array e = zeros({0, 3}, DType::kFloat32);
  EXPECT_EQ(sum(e, 0).to_vector<float>(), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(prod(e, 0).to_vector<float>(), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(sum(e, 1).shape(), (Shape{0}));
  EXPECT_THROW(max(e, 0), ShapeError);
  EXPECT_THROW(argmax(e, 0), ShapeError);
  EXPECT_NO_THROW(max(e, 1));
  try {
    max(e, 0);
  } catch (const ShapeError& err) {
    EXPECT_NE(std::string(err.what()).find("[max] zero-size array"), std::string::npos);
  }
  EXPECT_THROW(sum(e, 2), AxisError);
  EXPECT_THROW(sum(e, {0, -2}), ShapeError);
}

TEST(Reduce, FusedReductionsAreOneKernelAndLeaveNoTemporary) {
  std::vector<double> v(1000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 17) - 8;
  Array a = Array::from_host(v.data(), {1000}, DType::kFloat64);
  Array b = a * 0.5;
  b.eval();
  uint64_t before = kernels();
  Array s = sum(a * b);
  s.eval();
  EXPECT_EQ(kernels() - before, 1u);
  double want = 0;
  for (double x : v) want += x * x * 0.5;
  EXPECT_EQ(s.to_vector<double>()[0], want);
  before = kernels();
  max(abs(a - b)).eval();
  EXPECT_EQ(kernels() - before, 1u);
  // mean((x - m)**2) with m computed: one more kernel.
  Array m = mean(a);
  m.eval();
  before = kernels();
  mean(square(a - m)).eval();
  EXPECT_EQ(kernels() - before, 1u);
}

TEST(Reduce, RepeatedRunsAreBitIdentical) {
  std::mt19937 gen(3);
  std::normal_distribution<float> dist;
  std::vector<float> v(300007);
  for (float& x : v) x = dist(gen) * 1000;
  Array a = Array::from_host(v.data(), {300007}, DType::kFloat32);
  std::vector<float> first = sum(a * a).to_vector<float>();
  std::vector<float> cols = sum(reshape(a[{range(0, 300000)}], {1000, 300}), 0).to_vector<float>();
  for (int run = 0; run < 3; ++run) {
    std::vector<float> again = sum(a * a + 0.0f).to_vector<float>();
    EXPECT_EQ(std::memcmp(first.data(), again.data(), sizeof(float)), 0);
    std::vector<float> cols2 =
        sum(reshape(a[{range(0, 300000)}], {1000, 300}) + 0.0f, 0).to_vector<float>();
    EXPECT_EQ(std::memcmp(cols.data(), cols2.data(), cols.size() * sizeof(float)), 0);
  }
}

TEST(Reduce, VarianceAndStandardDeviation) {
  std::vector<double> v = {2, 4, 4, 4, 5, 5, 7, 9};
  Array a = Array::from_host(v.data(), {8}, DType::kFloat64);
  EXPECT_EQ(var(a).to_vector<double>()[0], 4.0);
  EXPECT_EQ(stddev(a).to_vector<double>()[0], 2.0);
  EXPECT_NEAR(var(a, {}, 1).to_vector<double>()[0], 32.0 / 7.0, 1e-15);
}

TEST(Reduce, DotProducts) {
  std::vector<double> x = {1, 2, 3}, y = {4, -5, 6};
  Array a = Array::from_host(x.data(), {3}, DType::kFloat64);
  Array b = Array::from_host(y.data(), {3}, DType::kFloat64);
  EXPECT_EQ(vdot(a, b).to_vector<double>()[0], 12.0);
  EXPECT_EQ(inner(a, b).to_vector<double>()[0], 12.0);
  EXPECT_EQ(vecdot(a, b).to_vector<double>()[0], 12.0);
  EXPECT_THROW(vdot(a, b[{range(0, 2)}]), ShapeError);
}

}  // namespace
}  // namespace vka
