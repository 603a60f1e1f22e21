// vka::fft and friends against a hand DFT in long double: complex and real transforms, both
// directions, prime (Bluestein) and multi-pass lengths, other axes, several replicas, operands
// past a binding (in a context that binds 4 KiB), errors.
#include <cmath>
#include <complex>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/fft/fft.h"
#include "array/fft/plan.h"
#include "base/errors.h"

namespace vka {
namespace {

using cd = std::complex<double>;
using cld = std::complex<long double>;

// Rows of length n (row-major, `rows` of them): X_k = sum_j x_j e^{sign 2 pi i jk/n}.
std::vector<cd> dft(const std::vector<cd>& x, int64_t n, int sign) {
  std::vector<cd> out(x.size());
  const long double pi = std::acos(-1.0L);
  for (size_t r = 0; r < x.size() / n; ++r) {
    for (int64_t k = 0; k < n; ++k) {
      cld s = 0;
      for (int64_t j = 0; j < n; ++j) {
        const long double a = sign * 2 * pi * static_cast<long double>((j * k) % n) / n;
        s += cld(x[r * n + j]) * cld(std::cos(a), std::sin(a));
      }
      out[r * n + k] = cd(s);
    }
  }
  return out;
}

std::vector<cd> random_complex(size_t count, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cd> v(count);
  for (auto& z : v) z = cd(u(g), u(g));
  return v;
}

// |got - want| <= tol * max|want|, elementwise.
template <typename T>
void expect_close(const std::vector<T>& got, const std::vector<cd>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  double scale = 0;
  for (const cd& w : want) scale = std::max(scale, std::abs(w));
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_LE(std::abs(cd(got[i]) - want[i]), tol * scale) << "at " << i;
  }
}

// Downloads a complex array (to_vector covers the real dtypes).
template <typename T>
std::vector<T> host(const Array& a, int replica = 0) {
  std::vector<T> out(static_cast<size_t>(a.size()));
  a.read(out.data(), out.size() * sizeof(T), replica);
  return out;
}

Array upload(const std::vector<cd>& v, const Shape& shape) {
  return Array::from_host(v.data(), shape, DType::kComplex128);
}

TEST(Fft, ComplexDoubleRowsMatchTheDft) {
  for (int64_t n : {2, 3, 7, 16, 97, 1000}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto x = random_complex(3 * n, static_cast<unsigned>(n));
    Array y = fft(upload(x, {3, n}));
    EXPECT_EQ(y.dtype(), DType::kComplex128);
    expect_close(host<cd>(y), dft(x, n, -1), 1e-13);
  }
}

TEST(Fft, InverseIsScaledByOneOverN) {
  const int64_t n = 13;
  const auto x = random_complex(2 * n, 5);
  std::vector<cd> want = dft(x, n, +1);
  for (cd& w : want) w /= static_cast<double>(n);
  expect_close(host<cd>(ifft(upload(x, {2, n}))), want, 1e-14);
  // The forward input is read in place and left as it was.
  Array a = upload(x, {2, n});
  Array y = fft(a);
  y.eval();
  expect_close(host<cd>(a), x, 0);
}

TEST(Fft, SinglePrecisionAlongTheFirstAxis) {
  const int64_t n = 16, m = 5;
  const auto x = random_complex(n * m, 9);
  std::vector<std::complex<float>> xf(x.begin(), x.end());
  Array a = Array::from_host(xf.data(), {n, m}, DType::kComplex64);
  Array y = fft(a, std::nullopt, 0);
  EXPECT_EQ(y.dtype(), DType::kComplex64);
  ASSERT_EQ(y.shape(), (Shape{n, m}));
  // The reference: columns as rows.
  std::vector<cd> cols(n * m);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) cols[j * n + i] = cd(xf[i * m + j]);
  }
  const auto ref = dft(cols, n, -1);
  std::vector<cd> want(n * m);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) want[i * m + j] = ref[j * n + i];
  }
  expect_close(host<std::complex<float>>(y), want, 1e-6);
}

TEST(Fft, RealForwardAndBack) {
  for (int64_t n : {5, 8, 11, 1000}) {
    std::vector<double> x(2 * n);
    std::mt19937 g(static_cast<unsigned>(n));
    std::uniform_real_distribution<double> u(-1, 1);
    for (double& v : x) v = u(g);
    Array a = Array::from_host(x.data(), {2, n}, DType::kFloat64);
    Array y = rfft(a);
    const int64_t h = n / 2 + 1;
    ASSERT_EQ(y.shape(), (Shape{2, h}));
    const auto full = dft(std::vector<cd>(x.begin(), x.end()), n, -1);
    std::vector<cd> want;
    for (int r = 0; r < 2; ++r) want.insert(want.end(), full.begin() + r * n, full.begin() + r * n + h);
    expect_close(host<cd>(y), want, 1e-13);
    Array back = irfft(y, n);
    EXPECT_EQ(back.dtype(), DType::kFloat64);
    expect_close(back.to_vector<double>(), std::vector<cd>(x.begin(), x.end()), 1e-13);
  }
}

TEST(Fft, CropAndPad) {
  const auto x = random_complex(10, 3);
  Array a = upload(x, {10});
  std::vector<cd> head(x.begin(), x.begin() + 4);
  expect_close(host<cd>(fft(a, 4)), dft(head, 4, -1), 1e-14);
  std::vector<cd> padded = x;
  padded.resize(12);
  expect_close(host<cd>(fft(a, 12)), dft(padded, 12, -1), 1e-14);
}

TEST(Fft, EveryReplicaComputes) {
  ContextOptions o;
  o.devices = {0, 0};
  auto ctx = Context::create(o);
  const auto x = random_complex(7, 4);
  Array a = Array::from_host(x.data(), {7}, DType::kComplex128, ctx);
  Array y = fft(a);
  y.eval();
  for (int r = 0; r < 2; ++r) expect_close(host<cd>(y, r), dft(x, 7, -1), 1e-14);
}

// A context whose kernels bind at most 4 KiB of a buffer: VkFFT's operands past it go in
// chunks of rows through staging buffers, on every replica.
std::shared_ptr<Context> small_binding_context(std::vector<int> devices) {
  ContextOptions o;
  o.devices = std::move(devices);
  o.max_storage_buffer_range = 4096;
  auto ctx = Context::create(o);
  EXPECT_EQ(ctx->device(0).caps().max_storage_buffer_range, 4096u);
  return ctx;
}

TEST(Fft, RowsPastABindingRunInChunks) {
  auto ctx = small_binding_context({0, 0});
  const int64_t n = 64, rows = 40;  // 1040 bytes a row for VkFFT: 14 chunks of 3 rows
  const auto x = random_complex(rows * n, 21);
  Array a = Array::from_host(x.data(), {rows, n}, DType::kComplex128, ctx);
  Array y = fft(a);
  Array z = ifft(a);
  y.eval();
  z.eval();
  std::vector<cd> inv = dft(x, n, +1);
  for (cd& w : inv) w /= static_cast<double>(n);
  for (int r = 0; r < 2; ++r) {
    expect_close(host<cd>(y, r), dft(x, n, -1), 1e-14);
    expect_close(host<cd>(z, r), inv, 1e-14);
  }
}

TEST(Fft, RowsLongerThanABindingInFourStepsOrBluestein) {
  auto ctx = small_binding_context({0});
  // 1000 = 25 * 40 in four steps; 997, a prime, by a convolution of length 2048 = 32 * 64.
  for (int64_t n : {1000, 997}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto x = random_complex(2 * n, static_cast<unsigned>(n));
    Array a = Array::from_host(x.data(), {2, n}, DType::kComplex128, ctx);
    expect_close(host<cd>(fft(a)), dft(x, n, -1), 1e-13);
    std::vector<cd> inv = dft(x, n, +1);
    for (cd& w : inv) w /= static_cast<double>(n);
    expect_close(host<cd>(ifft(a)), inv, 1e-13);
  }
}

TEST(Fft, Errors) {
  Array a = upload(random_complex(4, 1), {4});
  EXPECT_THROW(fft(a, 0), ShapeError);
  EXPECT_THROW(fft(a, std::nullopt, 1), AxisError);
  EXPECT_THROW(fft(a, std::nullopt, -1, "sideways"), ShapeError);
  EXPECT_THROW(rfft(a), DTypeError);
  EXPECT_THROW(irfft(upload(random_complex(1, 1), {1})), ShapeError);  // n = 2*(1-1) = 0
  try {
    fft(a, 0);
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "Invalid number of FFT data points (0) specified.");
  }
}

TEST(Fft, PlansAreCachedAndBounded) {
  auto ctx = Context::default_context();
  const auto x = random_complex(64, 2);
  const int before = cached_fft_plans(ctx->device(0));
  fft(upload(x, {64})).eval();
  fft(upload(x, {64})).eval();  // the same plan
  EXPECT_LE(cached_fft_plans(ctx->device(0)), std::min(before + 1, kFftPlanCacheSize));
  for (int64_t n = 2; n < 2 + kFftPlanCacheSize + 4; ++n) {
    const auto y = random_complex(n, static_cast<unsigned>(n));
    Array a = upload(y, {n});
    expect_close(host<cd>(fft(a)), dft(y, n, -1), 1e-13);
  }
  EXPECT_EQ(cached_fft_plans(ctx->device(0)), kFftPlanCacheSize);
  // Evicted plans are destroyed once their work has completed (host<> above waited for it).
  EXPECT_EQ(retired_fft_plans(ctx->device(0)), 0);
  // An early length again: its plan was evicted, and is made anew.
  const auto z = random_complex(3, 1);
  expect_close(host<cd>(fft(upload(z, {3}))), dft(z, 3, -1), 1e-14);
}

TEST(Fft, EvictedPlansAreDestroyedWhileWorkGoesOn) {
  // Twice as many lengths as the cache holds, each transform queued behind the previous ones
  // (nothing waits in between), then every result checked: plans are evicted while earlier
  // transforms are in flight, and destroyed only once those have completed.
  auto ctx = Context::default_context();
  std::vector<Array> results;
  std::vector<std::vector<cd>> inputs;
  for (int64_t n = 5; n < 5 + 2 * kFftPlanCacheSize; ++n) {
    inputs.push_back(random_complex(n, static_cast<unsigned>(n + 100)));
    results.push_back(fft(upload(inputs.back(), {n})));
    results.back().eval();
  }
  for (size_t i = 0; i < results.size(); ++i) {
    const int64_t n = static_cast<int64_t>(inputs[i].size());
    expect_close(host<cd>(results[i]), dft(inputs[i], n, -1), 1e-13);
  }
  EXPECT_EQ(retired_fft_plans(ctx->device(0)), 0);
  // The device goes on working after the destructions.
  const auto y = random_complex(7, 3);
  expect_close(host<cd>(fft(upload(y, {7}))), dft(y, 7, -1), 1e-14);
}

}  // namespace
}  // namespace vka
