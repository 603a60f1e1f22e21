// vka::random's distributions on the device: the looping samplers' values independent of how a
// draw is split into launches, one counter block per element, parameters as numbers or arrays,
// numpy's errors naming the op, and the moments of a few draws.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "array/random/random.h"
#include "base/errors.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using random::Generator;
using random::SeedSequence;

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

TEST(Distributions, SamplerValuesDoNotDependOnTheLaunchSplit) {
  Generator a(SeedSequence({3})), b(SeedSequence({3}));
  const std::vector<double> lam = {0.5, 8.0, 30.0, 1e4};
  const Array lams = testing::upload(lam);
  std::vector<int64_t> whole = a.poisson(lams, Shape{2500, 4}).to_vector<int64_t>();
  random::set_max_sample_launch(777);
  std::vector<int64_t> split = b.poisson(lams, Shape{2500, 4}).to_vector<int64_t>();
  random::set_max_sample_launch(0);
  EXPECT_EQ(whole, split);
  EXPECT_EQ(a.counter(), 10000u);  // one block of the counter per element
  EXPECT_EQ(b.counter(), 10000u);
}

TEST(Distributions, ParametersBroadcastAsNumpys) {
  Generator g(SeedSequence({4}));
  const Array shape = testing::upload(std::vector<double>{0.5, 2.0, 9.0}, {3, 1});
  EXPECT_EQ(g.gamma(shape, 2.0, std::nullopt).shape(), (Shape{3, 1}));
  EXPECT_EQ(g.gamma(shape, testing::iota(5) + Arg(1.0), std::nullopt).shape(), (Shape{3, 5}));
  EXPECT_EQ(g.binomial(int64_t{10}, 0.5, Shape{2, 3}).shape(), (Shape{2, 3}));
  EXPECT_EQ(g.poisson(3.0, std::nullopt).shape(), Shape{});
  EXPECT_THROW(g.gamma(shape, 1.0, Shape{4}), ShapeError);  // (3, 1) does not fit (4,)
}

TEST(Distributions, ErrorsNameTheOpAndNumpysCheck) {
  Generator g(SeedSequence({5}));
  try {
    g.poisson(testing::upload(std::vector<double>{1.0, -2.0}), std::nullopt);
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "[poisson] lam < 0 or lam contains NaNs (lam[1] = -2.0)");
  }
  try {
    g.hypergeometric(int64_t{5}, int64_t{5}, int64_t{11}, std::nullopt);
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(),
                 "[hypergeometric] ngood + nbad < nsample (ngood = 5, nbad = 5, nsample = 11)");
  }
  try {
    g.gamma(2.0, -0.0, std::nullopt);  // numpy's sign-bit test of a non-negative parameter
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "[gamma] scale < 0 (scale = -0.0)");
  }
  EXPECT_THROW(g.standard_gamma(1.0, Shape{2}, DType::kInt32), DTypeError);
  EXPECT_THROW(g.binomial(testing::iota(3), 0.5, std::nullopt), DTypeError);  // float n
  EXPECT_EQ(g.counter(), 0u);  // refused draws use no blocks
}

TEST(Distributions, Moments) {
  Generator g(SeedSequence({6}));
  const int64_t n = 40000;
  // Means within 5 standard errors (a false failure below 1e-6 each).
  auto near = [n](const std::vector<double>& v, double m, double var) {
    return std::abs(mean(v) - m) < 5 * std::sqrt(var / static_cast<double>(n));
  };
  EXPECT_TRUE(near(g.standard_gamma(3.5, Shape{n}).to_vector<double>(), 3.5, 3.5));
  EXPECT_TRUE(near(g.beta(2.0, 6.0, Shape{n}).to_vector<double>(), 0.25, 12.0 / 64 / 9));
  EXPECT_TRUE(
      near(g.binomial(int64_t{200}, 0.3, Shape{n}).astype(DType::kFloat64).to_vector<double>(),
           60.0, 42.0));
  EXPECT_TRUE(near(g.hypergeometric(int64_t{50}, int64_t{150}, int64_t{40}, Shape{n})
                       .astype(DType::kFloat64)
                       .to_vector<double>(),
                   10.0, 40 * 0.25 * 0.75 * 160 / 199.0));
  std::vector<float> f = g.standard_gamma(0.25, Shape{n}, DType::kFloat32).to_vector<float>();
  EXPECT_TRUE(near(std::vector<double>(f.begin(), f.end()), 0.25, 0.25));
}

}  // namespace
}  // namespace vka
