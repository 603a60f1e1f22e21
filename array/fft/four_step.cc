// Transforms whose single row exceeds a binding, composed of shorter ones on the device: the
// four-step decomposition n = n1 * n2, or for a prime n Bluestein's convolution of
// power-of-two length. Real transforms go through complex ones of the full length.
#include <cmath>
#include <complex>
#include <memory>

#include "array/fft/transform.h"

namespace vka {
namespace {

constexpr double kPi = 3.14159265358979323846;

// `x` cropped or zero-padded to `m` along its last axis (a lazy value; needs length >= 1).
Array fitted(const Array& x, int64_t m) {
  const int64_t len = x.shape().back();
  if (len == m) return x;
  if (len > m) return x[{ellipsis, range(0, m)}];
  Array k = arange(0, static_cast<double>(m), 1, DType::kInt64, x.context());
  Array g = take(x, k, -1, IndexMode::kClip);
  return where(less(k, Arg(len)), g, Arg(int64_t{0}));
}

// exp(i * sign * pi * r / half_turn) for integers r in [0, 2 * half_turn), in `real`'s
// precision: r is moved to (-half_turn, half_turn] first, so the angle's rounding stays within
// an ulp of pi.
Array unit(const Array& r, int64_t half_turn, double sign, DType real) {
  Array s = where(greater(r, Arg(half_turn)), subtract(r, Arg(2 * half_turn)), r);
  Array theta = multiply(s.astype(real), Arg(sign * kPi / static_cast<double>(half_turn)));
  return add(cos(theta), multiply(sin(theta), Arg(std::complex<double>(0, 1))));
}

// The four-step twiddles w^(k1 * j2), w = exp(-+2 pi i / n), as an (n1, n2) lazy value.
Array twiddles(const std::shared_ptr<Context>& ctx, int64_t n1, int64_t n2, bool inverse,
               DType real) {
  Array k1 = reshape(arange(0, static_cast<double>(n1), 1, DType::kInt64, ctx), {n1, 1});
  Array j2 = arange(0, static_cast<double>(n2), 1, DType::kInt64, ctx);
  // w^(k1 j2) = exp(-+i pi (2 k1 j2) / n), with 2 k1 j2 < 2n exact in int64.
  return unit(multiply(multiply(k1, j2), Arg(int64_t{2})), n1 * n2, inverse ? 1.0 : -1.0,
              real);
}

// The largest divisor of n not above its square root (1 for a prime).
int64_t split(int64_t n) {
  int64_t best = 1;
  for (int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) best = d;
  }
  return best;
}

Array long_complex(const char* op, const Array& y, int64_t n, bool inverse);

// X = transpose of the n2-transforms of the twiddled n1-transforms down the columns of the
// (n1, n2) view: X[k1 + n1 k2] = sum_j2 w^(j2 k1) w_n2^(j2 k2) sum_j1 x[j1 n2 + j2] w_n1^(j1 k1).
Array four_step(const char* op, const Array& y, int64_t n, int64_t n1, bool inverse) {
  const int64_t n2 = n / n1;
  Shape s = y.shape();
  s.back() = n1;
  s.push_back(n2);
  const DType complex = y.dtype();
  Array a = transform(op, reshape(y, s), n1, -2, FftKind::kComplex, inverse, complex);
  Array t = multiply(a, twiddles(y.context(), n1, n2, inverse, real_dtype(complex)));
  Array b = transform(op, t, n2, -1, FftKind::kComplex, inverse, complex);
  return reshape(swapaxes(b, -1, -2), y.shape());
}

// Bluestein: jk = (j^2 + k^2 - (k-j)^2) / 2, so with b_m = w^(m^2 / 2) the transform is
// X_k = b_k sum_j (x_j b_j) conj(b_(k-j)), a convolution done with transforms of length
// m >= 2n - 1, a power of two.
Array bluestein(const char* op, const Array& y, int64_t n, bool inverse) {
  const std::shared_ptr<Context>& ctx = y.context();
  const DType complex = y.dtype();
  const DType real = real_dtype(complex);
  const double sign = inverse ? 1.0 : -1.0;
  // b at integer indices m: exp(i sign pi m^2 / n), m^2 taken modulo 2n exactly in int64.
  auto chirp = [&](const Array& m) {
    return unit(remainder(multiply(m, m), Arg(2 * n)), n, sign, real);
  };
  int64_t len = 1;
  while (len < 2 * n - 1) len *= 2;
  Array j = arange(0, static_cast<double>(n), 1, DType::kInt64, ctx);
  Array b = chirp(j);
  Array u = fitted(multiply(y, b), len);
  // conj(b) at k - j for k - j in (-n, n), wrapped modulo len.
  Array k = arange(0, static_cast<double>(len), 1, DType::kInt64, ctx);
  Array wrapped = where(less(k, Arg(n)), k, subtract(Arg(len), k));
  Array used = logical_or(less(k, Arg(n)), greater(k, Arg(len - n)));
  Array v = where(used, conj(chirp(wrapped)), Arg(int64_t{0}));
  Array fu = long_complex(op, u, len, false);
  Array fv = long_complex(op, v, len, false);
  Array conv = long_complex(op, multiply(fu, fv), len, true);
  return multiply(multiply(conv[{ellipsis, range(0, n)}], b),
                  Arg(1.0 / static_cast<double>(len)));
}

// The transform of complex rows `y` of length n; sub-transforms that fit a binding go to
// VkFFT (through transform), longer ones come back here.
Array long_complex(const char* op, const Array& y, int64_t n, bool inverse) {
  FftPlanKey key;
  key.double_precision = y.dtype() == DType::kComplex128;
  key.n = n;
  if (fft_row_bytes(key) <= fft_binding_limit(*y.context())) {
    return transform(op, y, n, -1, FftKind::kComplex, inverse, y.dtype());
  }
  const int64_t n1 = split(n);
  return n1 > 1 ? four_step(op, y, n, n1, inverse) : bluestein(op, y, n, inverse);
}

}  // namespace

Array long_transform(const char* op, const Array& x, int64_t n, FftKind kind, bool inverse,
                     DType complex) {
  if (kind == FftKind::kComplex) return long_complex(op, fitted(x, n).astype(complex), n, inverse);
  const int64_t half = n / 2 + 1;
  if (!inverse) {
    Array full = long_complex(op, fitted(x, n).astype(complex), n, false);
    return full[{ellipsis, range(0, half)}];
  }
  // The full spectrum: X[k] for k < n/2+1, conj(X[n-k]) above; what x lacks is zero.
  const int64_t len = x.shape().back();
  Array k = arange(0, static_cast<double>(n), 1, DType::kInt64, x.context());
  Array low = less(k, Arg(half));
  Array from = where(low, k, subtract(Arg(n), k));
  Array g = take(x.astype(complex), from, -1, IndexMode::kClip);
  Array spectrum = where(less(from, Arg(len)), where(low, g, conj(g)), Arg(int64_t{0}));
  return real(long_complex(op, spectrum, n, true));
}

}  // namespace vka
