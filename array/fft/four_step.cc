// Transforms whose single row exceeds a binding, composed of shorter ones on the device: the
// four-step decomposition n = n1 * n2, or for a prime n Bluestein's convolution of
// power-of-two length. Real transforms go through complex ones of the full length.
#include <cmath>
#include <complex>
#include <memory>
#include <vector>

#include "array/fft/transform.h"
#include "runtime/realize.h"

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

// exp(i sign pi r(i) / half_turn) for i < size(shape), with integers r(i) in [0, 2 half_turn),
// as `complex` numbers uploaded from the host: computed in double there (r moved to
// (-half_turn, half_turn] first, so the angle's rounding stays within an ulp of pi) and
// rounded once. The device's sine and cosine are far slower on lavapipe, and single
// precision there would add its own error.
template <typename R>
Array unit_table(const std::shared_ptr<Context>& ctx, const Shape& shape, const R& r,
                 int64_t half_turn, double sign, DType complex) {
  const int64_t count = size(shape);
  const double step = sign * kPi / static_cast<double>(half_turn);
  auto value = [&](int64_t i) {
    int64_t v = r(i);
    if (v > half_turn) v -= 2 * half_turn;
    return std::polar(1.0, step * static_cast<double>(v));
  };
  if (complex == DType::kComplex128) {
    std::vector<std::complex<double>> host(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) host[static_cast<size_t>(i)] = value(i);
    return Array::from_host(host.data(), shape, complex, ctx);
  }
  std::vector<std::complex<float>> host(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    host[static_cast<size_t>(i)] = std::complex<float>(value(i));
  }
  return Array::from_host(host.data(), shape, complex, ctx);
}

// The largest divisor of n not above its square root (1 for a prime).
int64_t split(int64_t n) {
  int64_t best = 1;
  for (int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) best = d;
  }
  return best;
}

// The four-step twiddles w^(k1 j2), w = exp(-+2 pi i / n), k1 = kh b + kl < n1 = h * b,
// j2 < n2, as an (h, b, n2) lazy product of two tables, w^(kh b j2) (h, 1, n2) and w^(kl j2)
// (1, b, n2): (h + b) n2 numbers to upload rather than n, and a multiply whose every operand
// runs along j2 (on lavapipe, four times faster than one whose innermost axis is short).
Array twiddles(const std::shared_ptr<Context>& ctx, int64_t h, int64_t b, int64_t n2, bool inverse,
               DType complex) {
  const int64_t n = h * b * n2;
  const double sign = inverse ? 1.0 : -1.0;
  // w^m = exp(-+i pi (2m) / n); m = k * j2 < n, so 2m is exact in int64.
  Array coarse = unit_table(
      ctx, {h, 1, n2}, [&](int64_t i) { return 2 * (i / n2) * b * (i % n2); }, n, sign, complex);
  Array fine = unit_table(
      ctx, {1, b, n2}, [&](int64_t i) { return 2 * (i / n2) * (i % n2); }, n, sign, complex);
  return multiply(coarse, fine);
}

Array long_complex(const char* op, const Array& y, int64_t n, bool inverse);

// X = transpose of the n2-transforms of the twiddled n1-transforms down the columns of the
// (n1, n2) view: X[k1 + n1 k2] = sum_j2 w^(j2 k1) w_n2^(j2 k2) sum_j1 x[j1 n2 + j2] w_n1^(j1 k1).
// The column transforms read the (n1, n2) matrices in place (VkFFT's strided transforms), the
// twiddle multiply is one contiguous pass, and only the result's transpose moves data across
// rows (lazily, into whatever reads it): on lavapipe a transposing pass costs about four
// contiguous ones.
Array four_step(const char* op, const Array& y, int64_t n, int64_t n1, bool inverse) {
  const std::shared_ptr<Context>& ctx = y.context();
  const int64_t n2 = n / n1;
  Shape lead = y.shape();
  lead.pop_back();
  Shape matrix = lead, pieces = lead;
  matrix.insert(matrix.end(), {n1, n2});
  const DType complex = y.dtype();
  Shape shape;
  // The rows of y are the (n1, n2) matrices, byte for byte (a reshape first would copy a
  // value array).
  auto in = prepared(y, y.ndim() - 1, n, complex, false, 0, &shape);
  auto ref = allocate_for(ctx, complex, matrix);
  FftPlanKey key;
  key.double_precision = complex == DType::kComplex128;
  key.inverse = inverse;
  key.n = n1;
  record_columns(ctx, key, size(lead), n2, *in, *device_buffer(*ref));
  // The result seen as (h, b, n2) pieces at once: a reshape of the value would copy it.
  const int64_t fine = split(n1);
  pieces.insert(pieces.end(), {n1 / fine, fine, n2});
  Array a(default_graph().buffer(ref, complex, View::contiguous(pieces)), ctx);
  Array w = twiddles(ctx, n1 / fine, fine, n2, inverse, complex);
  Array t = reshape(multiply(a, w), matrix);
  Array b = transform(op, t, n2, -1, FftKind::kComplex, inverse, complex);
  return reshape(swapaxes(b, -1, -2), y.shape());
}

// Bluestein: jk = (j^2 + k^2 - (k-j)^2) / 2, so with b_m = w^(m^2 / 2) the transform is
// X_k = b_k sum_j (x_j b_j) conj(b_(k-j)), a convolution done with transforms of length
// m >= 2n - 1, a power of two.
Array bluestein(const char* op, const Array& y, int64_t n, bool inverse) {
  const std::shared_ptr<Context>& ctx = y.context();
  // b_m = exp(i sign pi m^2 / n), m^2 taken modulo 2n exactly.
  auto square = [&](int64_t m) {
    return static_cast<int64_t>(static_cast<__int128>(m) * m % (2 * n));
  };
  Array b = unit_table(ctx, {n}, square, n, inverse ? 1.0 : -1.0, y.dtype());
  int64_t len = 1;
  while (len < 2 * n - 1) len *= 2;
  Array u = fitted(multiply(y, b), len);
  // conj(b) at k - j for k - j in (-n, n), wrapped modulo len (b_-m = b_m).
  Array k = arange(0, static_cast<double>(len), 1, DType::kInt64, ctx);
  Array wrapped = where(less(k, Arg(n)), k, subtract(Arg(len), k));
  Array used = logical_or(less(k, Arg(n)), greater(k, Arg(len - n)));
  Array v = where(used, conj(take(b, wrapped, 0, IndexMode::kClip)), Arg(int64_t{0}));
  Array fu = long_complex(op, u, len, false);
  Array fv = long_complex(op, v, len, false);
  Array conv = long_complex(op, multiply(fu, fv), len, true);
  return multiply(multiply(conv[{ellipsis, range(0, n)}], b), Arg(1.0 / static_cast<double>(len)));
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

// `x` as `complex`, without a copy when it already is.
Array as_complex(const Array& x, DType complex) {
  return x.dtype() == complex ? x : x.astype(complex);
}

}  // namespace

Array long_transform(const char* op, const Array& x, int64_t n, FftKind kind, bool inverse,
                     DType complex) {
  if (kind == FftKind::kComplex)
    return long_complex(op, as_complex(fitted(x, n), complex), n, inverse);
  const int64_t half = n / 2 + 1;
  if (!inverse) {
    Array full = long_complex(op, as_complex(fitted(x, n), complex), n, false);
    return full[{ellipsis, range(0, half)}];
  }
  // The full spectrum: X[k] for k < n/2+1, conj(X[n-k]) above; what x lacks is zero.
  const int64_t len = x.shape().back();
  Array k = arange(0, static_cast<double>(n), 1, DType::kInt64, x.context());
  Array low = less(k, Arg(half));
  Array from = where(low, k, subtract(Arg(n), k));
  Array g = take(as_complex(x, complex), from, -1, IndexMode::kClip);
  Array spectrum = where(less(from, Arg(len)), where(low, g, conj(g)), Arg(int64_t{0}));
  return real(long_complex(op, spectrum, n, true));
}

}  // namespace vka
