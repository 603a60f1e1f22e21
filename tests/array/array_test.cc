// vka::Array end to end on the device: values against host arithmetic, laziness, kernel
// counts of the fusion cases, reuse of realized values, creation functions, xtensor interop.
#include "array/array.h"

#include <cmath>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "array/xtensor.h"
#include "base/errors.h"
#include "device/buffer.h"
#include "runtime/realize.h"

namespace vka {
namespace {

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2, 2);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

Array upload(const std::vector<float>& v) {
  return Array::from_host(v.data(), {static_cast<int64_t>(v.size())}, DType::kFloat32);
}

uint64_t kernels() { return realize_stats().kernels; }

TEST(ArrayTest, MulAddIsLazyThenOneKernel) {
  auto ha = random_floats(1000, 1), hx = random_floats(1000, 2), hb = random_floats(1000, 3);
  Array a = upload(ha), x = upload(hx), b = upload(hb);
  const uint64_t before = kernels();
  auto y = a * x + b;  // safe in `auto`: y owns its graph
  EXPECT_TRUE(y.is_lazy());
  EXPECT_EQ(kernels(), before);  // nothing ran
  auto out = y.to_vector<float>();
  EXPECT_EQ(kernels() - before, 1u);
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(out[i], std::fma(ha[i], hx[i], hb[i]) == out[i] ? out[i] : ha[i] * hx[i] + hb[i])
        << i;
  }
  EXPECT_FALSE(y.is_lazy());
}

TEST(ArrayTest, SixOpChainIsOneKernelAndAccurate) {
  auto ha = random_floats(4096, 4), hb = random_floats(4096, 5);
  Array a = upload(ha), b = upload(hb);
  const uint64_t before = kernels();
  Array y = sqrt(abs(2 * a + b) + 1) * exp(-b) - a;
  auto out = y.to_vector<float>();
  EXPECT_EQ(kernels() - before, 1u);
  for (size_t i = 0; i < out.size(); ++i) {
    double want = std::sqrt(std::abs(2.0 * ha[i] + hb[i]) + 1) * std::exp(-double(hb[i])) - ha[i];
    ASSERT_NEAR(out[i], want, 1e-5 * (1 + std::abs(want))) << i;
  }
}

TEST(ArrayTest, TwoOutputsEvaluatedTogetherShareOneKernel) {
  auto ha = random_floats(500, 6), hb = random_floats(500, 7);
  Array a = upload(ha), b = upload(hb);
  Array common = exp(a + b);
  Array y1 = common * 3, y2 = common - a;
  const uint64_t before = kernels();
  eval(y1, y2);
  EXPECT_EQ(kernels() - before, 1u);
  auto o1 = y1.to_vector<float>(), o2 = y2.to_vector<float>();
  for (size_t i = 0; i < 500; ++i) {
    float e = std::exp(ha[i] + hb[i]);
    ASSERT_NEAR(o1[i], e * 3, 1e-5f * std::abs(e * 3) + 1e-6f);
    ASSERT_NEAR(o2[i], e - ha[i], 1e-5f * std::abs(e) + 1e-6f);
  }
}

TEST(ArrayTest, ARealizedValueIsNotComputedAgain) {
  Array a = upload(random_floats(100, 8));
  Array y = sin(a) * 2;
  Array z = y + 1;  // built while y is still lazy
  y.eval();
  const uint64_t before = kernels();
  z.eval();  // reads y's buffer instead of recomputing sin(a) * 2
  EXPECT_EQ(kernels() - before, 1u);
  auto yv = y.to_vector<float>(), zv = z.to_vector<float>();
  for (size_t i = 0; i < 100; ++i) ASSERT_EQ(zv[i], yv[i] + 1);
}

// Sizes around the vector width: the whole-vector loop, the scalar tail, and both together.
TEST(ArrayTest, VectorLoopAndTailCoverEveryElement) {
  for (int n : {1, 3, 4, 5, 7, 8, 1001, 4099}) {
    std::vector<int32_t> h(n);
    std::iota(h.begin(), h.end(), -n / 2);
    Array a = Array::from_host(h.data(), {n}, DType::kInt32);
    auto out = (a * 3 - 1).to_vector<int32_t>();
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], h[i] * 3 - 1) << "n=" << n << " i=" << i;
  }
}

TEST(ArrayTest, WeakScalarsKeepTheArrayDtype) {
  std::vector<int8_t> h = {1, -2, 100, 127};
  Array a = Array::from_host(h.data(), {4}, DType::kInt8);
  Array b = a + 1;
  EXPECT_EQ(b.dtype(), DType::kInt8);
  EXPECT_EQ(b.to_vector<int8_t>(), (std::vector<int8_t>{2, -1, 101, -128}));  // wraps as numpy
  EXPECT_EQ((a * 2.0).dtype(), DType::kFloat64);  // int8 array * Python float → float64
  EXPECT_THROW(a + 300, OverflowError);           // NEP 50: out of bounds for int8
  Array f = upload({1.5f, -2.5f});
  EXPECT_EQ((f * 2.0).dtype(), DType::kFloat32);
}

TEST(ArrayTest, CreationFunctionsRunOnTheDevice) {
  EXPECT_EQ(zeros({3}, DType::kInt32).to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 0}));
  EXPECT_EQ(ones({2, 2}, DType::kFloat64).to_vector<double>(), (std::vector<double>(4, 1.0)));
  EXPECT_EQ(full({2}, Scalar::of_double(-0.5, DType::kFloat32)).to_vector<float>(),
            (std::vector<float>{-0.5f, -0.5f}));
  EXPECT_EQ(arange(2, 11, 3, DType::kInt64).to_vector<int64_t>(), (std::vector<int64_t>{2, 5, 8}));
  EXPECT_EQ(linspace(0, 1, 5).to_vector<double>(), (std::vector<double>{0, 0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(linspace(0, 1, 4, false).to_vector<double>(),
            (std::vector<double>{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(eye(2, 3, 1, DType::kFloat32).to_vector<float>(),
            (std::vector<float>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(zeros({0, 4}).size(), 0);
  EXPECT_TRUE(zeros({0, 4}).to_vector<double>().empty());
}

TEST(ArrayTest, InPlaceOperatorsFollowSameKind) {
  Array a = upload({1, 2, 3});
  Array alias = a;  // copies share the value, as Python names do
  a += upload({10, 20, 30});
  EXPECT_EQ(alias.to_vector<float>(), (std::vector<float>{11, 22, 33}));
  std::vector<int32_t> hi = {1, 2};
  Array i = Array::from_host(hi.data(), {2}, DType::kInt32);
  EXPECT_THROW(i /= i, DTypeError);       // float64 result cannot go back into int32
  EXPECT_EQ(i.to_vector<int32_t>(), hi);  // and nothing changed
}

TEST(ArrayTest, WritesOneReplicaOrAll) {
  ContextOptions o;
  o.devices = {0, 0};
  auto ctx = Context::create(o);
  std::vector<float> v = {1, 2, 3};
  Array a = Array::from_host(v.data(), {3}, DType::kFloat32, ctx);
  Array y = a * 2;
  EXPECT_EQ(y.to_vector<float>(1), (std::vector<float>{2, 4, 6}));  // computed on every replica
  std::vector<float> w = {7, 8, 9};
  y.write(w.data(), 12, 1);
  EXPECT_EQ(y.to_vector<float>(0), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(y.to_vector<float>(1), w);
  EXPECT_THROW(y.to_vector<float>(2), IndexError);
}

TEST(ArrayTest, XtensorRoundTrip) {
  xt::xarray<double> x = {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}};
  Array a = asarray(x);
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  xt::xarray<double> back = (a * a - 1).to_xtensor<double>();
  xt::xarray<double> want = x * x - 1;
  EXPECT_EQ(back, want);
}

TEST(ArrayTest, DeadArraysFreeTheirBuffers) {
  std::weak_ptr<ReplicatedBuffer> watch;
  Array keep = upload({1, 2});
  {
    Array tmp = upload({3, 4});
    watch = device_buffer(*tmp.node()->buffer());
    Array y = keep + tmp;
    y.eval();  // y no longer needs tmp
    tmp = Array();
    EXPECT_TRUE(watch.expired());
    EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{4, 6}));
  }
}

TEST(ArrayTest, ErrorsNameTheOpAndValues) {
  Array a = upload({1, 2, 3});
  Array b = upload({1, 2});
  try {
    a + b;
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[add]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(3,)"), std::string::npos) << e.what();
  }
  auto other = Context::create();
  std::vector<float> v = {1, 2, 3};
  Array c = Array::from_host(v.data(), {3}, DType::kFloat32, other);
  try {
    a* c;
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[multiply] operands live on different contexts"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace vka

namespace vka {
namespace {

// A device without float64 (the context leaves shaderFloat64 off, as a smaller GPU would).
TEST(ArrayDeviceFeatureTest, MissingFeatureIsATypeErrorNamingTheDevice) {
  ContextOptions o;
  o.disable_features = {"float64"};
  auto ctx = Context::create(o);
  EXPECT_FALSE(ctx->device(0).caps().shader_float64);
  std::vector<double> d = {1.0};
  try {
    Array::from_host(d.data(), {1}, DType::kFloat64, ctx);
    FAIL();
  } catch (const DTypeError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("[asarray] float64 needs shaderFloat64, which device '"), std::string::npos)
        << m;
  }
  std::vector<int32_t> i = {1, 2};
  Array a = Array::from_host(i.data(), {2}, DType::kInt32, ctx);
  EXPECT_THROW(a / 2, DTypeError);  // int32 / int → float64, which this device lacks
  EXPECT_EQ((a * 3).to_vector<int32_t>(), (std::vector<int32_t>{3, 6}));
  ContextOptions bad;
  bad.disable_features = {"float128"};
  EXPECT_THROW(Context::create(bad), DeviceError);
}

}  // namespace
}  // namespace vka
