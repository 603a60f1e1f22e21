// numpy.fft's n-dimensional transforms as one-dimensional ones, axis by axis in numpy's order
// (each step's scaling fuses into the next step's input kernel), and the sample frequencies.
#include <memory>
#include <string>
#include <vector>

#include "array/fft/fft.h"
#include "base/errors.h"

namespace vka {
namespace {

struct NdArgs {
  std::vector<int64_t> s;
  std::vector<int64_t> axes;
};

// numpy's _cook_nd_args: `s` defaults to the input's extents along `axes`, `axes` to the last
// len(s) axes (or all). For the inverse real transform the last length defaults to 2*(m-1).
NdArgs cook(const char* op, const Array& a, const FftShape& s, const FftAxes& axes,
            bool inverse_real) {
  NdArgs r;
  if (!s) {
    if (axes) {
      r.axes = *axes;
    } else {
      for (int d = 0; d < a.ndim(); ++d) r.axes.push_back(d);
    }
    for (int64_t ax : r.axes) r.s.push_back(a.shape()[normalize_axis(op, ax, a.ndim())]);
    if (inverse_real && !r.s.empty()) r.s.back() = 2 * (r.s.back() - 1);
  } else {
    r.s = *s;
    if (axes) {
      r.axes = *axes;
    } else {
      const int64_t k = static_cast<int64_t>(r.s.size());
      for (int64_t i = -k; i < 0; ++i) r.axes.push_back(i);
    }
  }
  if (r.s.size() != r.axes.size()) {
    throw ShapeError("Shape and axes have different lengths.");
  }
  for (int64_t ax : r.axes) normalize_axis(op, ax, a.ndim());
  return r;
}

using Transform1d = Array (*)(const Array&, std::optional<int64_t>, int64_t, const std::string&);

Array complex_nd(const char* op, Transform1d f, const Array& a, const FftShape& s,
                 const FftAxes& axes, const std::string& norm) {
  const NdArgs args = cook(op, a, s, axes, false);
  Array x = a;
  for (size_t i = args.axes.size(); i-- > 0;) x = f(x, args.s[i], args.axes[i], norm);
  return x;
}

}  // namespace

Array fftn(const Array& a, const FftShape& s, const FftAxes& axes, const std::string& norm) {
  return complex_nd("fftn", fft, a, s, axes, norm);
}

Array ifftn(const Array& a, const FftShape& s, const FftAxes& axes, const std::string& norm) {
  return complex_nd("ifftn", ifft, a, s, axes, norm);
}

Array rfftn(const Array& a, const FftShape& s, const FftAxes& axes, const std::string& norm) {
  const NdArgs args = cook("rfftn", a, s, axes, false);
  if (args.axes.empty()) throw ShapeError("[rfftn] at least one axis must be transformed");
  Array x = rfft(a, args.s.back(), args.axes.back(), norm);
  for (size_t i = 0; i + 1 < args.axes.size(); ++i) x = fft(x, args.s[i], args.axes[i], norm);
  return x;
}

Array irfftn(const Array& a, const FftShape& s, const FftAxes& axes, const std::string& norm) {
  const NdArgs args = cook("irfftn", a, s, axes, true);
  if (args.axes.empty()) throw ShapeError("[irfftn] at least one axis must be transformed");
  Array x = a;
  for (size_t i = 0; i + 1 < args.axes.size(); ++i) x = ifft(x, args.s[i], args.axes[i], norm);
  return irfft(x, args.s.back(), args.axes.back(), norm);
}

Array fftfreq(int64_t n, double d, std::shared_ptr<Context> context) {
  if (n < 1) throw ShapeError("[fftfreq] n must be positive, got " + std::to_string(n));
  // numpy: [0, 1, ..., N-1, -(n//2), ..., -1] / (d*n) with N = (n-1)//2 + 1; as n <= 2N,
  // k - n*(k//N) is that sequence.
  const int64_t half = (n - 1) / 2 + 1;
  Array k = arange(0, static_cast<double>(n), 1, DType::kInt64, context);
  Array ints = subtract(k, multiply(floor_divide(k, Arg(half)), Arg(n)));
  return multiply(ints, Arg(1.0 / (static_cast<double>(n) * d)));
}

Array rfftfreq(int64_t n, double d, std::shared_ptr<Context> context) {
  if (n < 1) throw ShapeError("[rfftfreq] n must be positive, got " + std::to_string(n));
  Array k = arange(0, static_cast<double>(n / 2 + 1), 1, DType::kInt64, context);
  return multiply(k, Arg(1.0 / (static_cast<double>(n) * d)));
}

}  // namespace vka
