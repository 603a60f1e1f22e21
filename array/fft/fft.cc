// numpy.fft's one-dimensional transforms: the input moved so the transform axis is last,
// cropped or zero-padded and converted in one kernel into a buffer VkFFT reads, the transform
// recorded on every replica (in chunks of rows, or in four steps for rows longer than a
// binding: array/fft/transform.h), the result moved back as a view and scaled (by VkFFT where
// an inverse transform divides by n, else lazily).
#include "array/fft/fft.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "array/fft/plan.h"
#include "array/fft/transform.h"
#include "base/errors.h"
#include "runtime/device_support.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {
namespace {

enum class Norm { kBackward, kOrtho, kForward };

Norm parse_norm(const std::string& norm) {
  if (norm == "backward") return Norm::kBackward;
  if (norm == "ortho") return Norm::kOrtho;
  if (norm == "forward") return Norm::kForward;
  throw ShapeError("Invalid norm value " + norm +
                   "; should be \"backward\", \"ortho\" or \"forward\".");
}

// hfft and ihfft: the inverse of the other direction, with the norm's roles swapped.
std::string swap_norm(const std::string& norm) {
  switch (parse_norm(norm)) {
    case Norm::kBackward: return "forward";
    case Norm::kOrtho: return "ortho";
    case Norm::kForward: return "backward";
  }
  return norm;
}

// The factor numpy applies after a transform of length n.
double norm_factor(const std::string& norm, int64_t n, bool inverse) {
  switch (parse_norm(norm)) {
    case Norm::kBackward: return inverse ? 1.0 / static_cast<double>(n) : 1.0;
    case Norm::kOrtho: return 1.0 / std::sqrt(static_cast<double>(n));
    case Norm::kForward: return inverse ? 1.0 : 1.0 / static_cast<double>(n);
  }
  return 1.0;
}

// numpy 2: single precision stays single (float16 computes as float32), the rest is double.
DType complex_dtype(DType t) {
  switch (t) {
    case DType::kFloat16:
    case DType::kFloat32:
    case DType::kComplex64: return DType::kComplex64;
    default: return DType::kComplex128;
  }
}

void check_points(int64_t n) {
  if (n < 1) {
    throw ShapeError("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
  }
}

Array scaled(const Array& x, double factor) {
  return factor == 1.0 ? x : multiply(x, Arg(factor));
}

}  // namespace

std::shared_ptr<ReplicatedBuffer> prepared(const Array& a, int axis, int64_t m, DType dtype,
                                           bool writable, int64_t min_elements, Shape* shape) {
  const std::shared_ptr<Context>& ctx = a.context();
  Array x = axis == a.ndim() - 1 ? a : moveaxis(a, {axis}, {-1});
  const int64_t len = x.shape().back();
  if (len > m) x = x[{ellipsis, range(0, m)}];
  const int64_t kept = std::min(len, m);
  *shape = x.shape();
  shape->back() = m;
  NodePtr node = x.node();
  if (!writable && len == m && node->is_leaf() && node->dtype() == dtype &&
      node->view() == View::contiguous(node->shape()) && node->view().offset == 0) {
    return device_buffer(*node->buffer());
  }
  auto ref = allocate_for(ctx, dtype, {std::max(size(*shape), min_elements)});
  auto buf = device_buffer(*ref);
  if (kept < m) zero_fill(ctx, *buf);
  if (kept > 0) {
    View head = View::contiguous(*shape);
    head.shape.back() = kept;
    NodePtr dest = default_graph().buffer(ref, dtype, head);
    NodePtr value = node->dtype() == dtype ? node : default_graph().astype(node, dtype);
    realize(ctx, {value}, std::nullopt, {dest});
  }
  return buf;
}

Array transform(const char* op, const Array& a, int64_t n, int64_t axis_in, FftKind kind,
                bool inverse, DType in_dtype, double* scale) {
  const int axis = normalize_axis(op, axis_in, a.ndim());
  check_points(n);
  const std::shared_ptr<Context>& ctx = a.context();
  const DType complex = complex_dtype(in_dtype);
  require_dtype(*ctx, complex, op);
  const bool real_out = kind == FftKind::kReal && inverse;
  const bool real_in = kind == FftKind::kReal && !inverse;
  const int64_t half = n / 2 + 1;
  const int64_t in_len = kind == FftKind::kReal && inverse ? half : n;
  const int64_t out_len = kind == FftKind::kReal && !inverse ? half : n;
  const DType read_dtype = real_in ? real_dtype(complex) : complex;
  const DType out_dtype = real_out ? real_dtype(complex) : complex;
  Shape out_shape = a.shape();
  out_shape.erase(out_shape.begin() + axis);
  out_shape.push_back(out_len);
  const int64_t batch = size(out_shape) / out_len;
  // numpy's inverse real transforms read only the real part of the zero frequency (and of
  // the Nyquist frequency n/2 for even n); VkFFT's would use the imaginary parts too.
  Array src = a;
  if (real_out && is_complex(a.dtype()) && a.shape()[axis] > 0) {
    const int64_t len = a.shape()[axis];
    Shape ks(static_cast<size_t>(a.ndim() - axis), 1);
    ks[0] = len;
    Array k = reshape(arange(0, static_cast<double>(len), 1, DType::kInt64, ctx), ks);
    Array mask = equal(k, Arg(int64_t{0}));
    if (n % 2 == 0) mask = logical_or(mask, equal(k, Arg(n / 2)));
    src = where(mask, real(a), a);
  }
  Array out;
  if (batch == 0 || n == 1 || a.shape()[axis] == 0) {
    // Nothing to transform, zeros, or the transform of one point: the point itself.
    Array x = axis == a.ndim() - 1 ? src : moveaxis(src, {axis}, {-1});
    if (batch == 0 || x.shape().back() == 0) {
      out = zeros(out_shape, out_dtype, ctx);
    } else {
      Array first = x[{ellipsis, range(0, 1)}];
      out = real_out ? real(first.astype(complex)) : first.astype(complex);
    }
  } else {
    FftPlanKey key;
    key.kind = kind;
    key.double_precision = complex == DType::kComplex128;
    key.inverse = inverse;
    key.n = n;
    key.batch = batch;
    if (fft_row_bytes(key) > fft_binding_limit(*ctx)) {
      Array x = axis == a.ndim() - 1 ? src : moveaxis(src, {axis}, {-1});
      out = long_transform(op, x, n, kind, inverse, complex);
    } else {
      // VkFFT sizes the descriptor of a real operand as if its rows were padded to n/2+1
      // complex numbers: real operands get that much room. Chunked transforms stage their
      // rows, leaving the input as it is.
      const uint64_t limit = fft_binding_limit(*ctx);
      const bool chunked = static_cast<uint64_t>(batch) * fft_row_bytes(key) > limit;
      const int64_t real_room = kind == FftKind::kReal && !chunked ? batch * half * 2 : 0;
      if (scale && inverse && *scale == 1.0 / static_cast<double>(n)) {
        key.normalize = true;
        *scale = 1.0;
      }
      Shape in_shape;
      auto in = prepared(src, axis, in_len, read_dtype, !chunked && (inverse || real_in),
                         real_in ? real_room : 0, &in_shape);
      auto ref =
          allocate_for(ctx, out_dtype, {std::max(size(out_shape), real_out ? real_room : 0)});
      record_rows(ctx, key, *in, *device_buffer(*ref));
      out = Array(default_graph().buffer(ref, out_dtype, View::contiguous(out_shape)), ctx);
    }
  }
  return axis == a.ndim() - 1 ? out : moveaxis(out, {-1}, {axis});
}

namespace {

int64_t axis_length(const char* op, const Array& a, int64_t axis) {
  return a.shape()[normalize_axis(op, axis, a.ndim())];
}

void require_real(const char* op, const Array& a) {
  if (is_complex(a.dtype())) {
    throw DTypeError(std::string("[") + op + "] the input must be real, got " +
                     std::string(name(a.dtype())) + " (numpy 2 raises TypeError too)");
  }
}

}  // namespace

Array fft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const int64_t len = n.value_or(axis_length("fft", a, axis));
  parse_norm(norm);
  Array y = transform("fft", a, len, axis, FftKind::kComplex, false, a.dtype());
  return scaled(y, norm_factor(norm, len, false));
}

Array ifft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const int64_t len = n.value_or(axis_length("ifft", a, axis));
  parse_norm(norm);
  double factor = norm_factor(norm, len, true);
  Array y = transform("ifft", a, len, axis, FftKind::kComplex, true, a.dtype(), &factor);
  return scaled(y, factor);
}

Array rfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const int64_t len = n.value_or(axis_length("rfft", a, axis));
  parse_norm(norm);
  require_real("rfft", a);
  Array y = transform("rfft", a, len, axis, FftKind::kReal, false, a.dtype());
  return scaled(y, norm_factor(norm, len, false));
}

Array irfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const int64_t len = n.value_or(2 * (axis_length("irfft", a, axis) - 1));
  parse_norm(norm);
  double factor = norm_factor(norm, len, true);
  Array y = transform("irfft", a, len, axis, FftKind::kReal, true, a.dtype(), &factor);
  return scaled(y, factor);
}

Array hfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const int64_t len = n.value_or(2 * (axis_length("hfft", a, axis) - 1));
  const std::string swapped = swap_norm(norm);
  check_points(len);
  Array c = is_complex(a.dtype()) ? conj(a) : a;
  double factor = norm_factor(swapped, len, true);
  Array y = transform("hfft", c, len, axis, FftKind::kReal, true, a.dtype(), &factor);
  return scaled(y, factor);
}

Array ihfft(const Array& a, std::optional<int64_t> n, int64_t axis, const std::string& norm) {
  const int64_t len = n.value_or(axis_length("ihfft", a, axis));
  const std::string swapped = swap_norm(norm);
  require_real("ihfft", a);
  Array y = transform("ihfft", a, len, axis, FftKind::kReal, false, a.dtype());
  return conj(scaled(y, norm_factor(swapped, len, false)));
}

}  // namespace vka
