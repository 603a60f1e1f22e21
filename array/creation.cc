// The creation functions of vka::Array that are lazy sources: full, zeros, ones, arange,
// linspace, eye.
#include <cmath>

#include "array/array.h"
#include "base/errors.h"
#include "runtime/device_support.h"

namespace vka {
namespace {

bool has_float64(const Context& context) {
  for (int d = 0; d < context.num_devices(); ++d) {
    if (!supports(context.device(d).caps(), info(DType::kFloat64).feature)) return false;
  }
  return true;
}

}  // namespace

Array full(const Shape& shape, Scalar value, std::shared_ptr<Context> context) {
  require_dtype(*context, value.dtype(), "full");
  return Array(default_graph().full(value, shape), std::move(context));
}

Array zeros(const Shape& shape, DType dtype, std::shared_ptr<Context> context) {
  return full(shape, Scalar::of_int(0, dtype), std::move(context));
}

Array ones(const Shape& shape, DType dtype, std::shared_ptr<Context> context) {
  return full(shape, Scalar::of_int(1, dtype), std::move(context));
}

Array arange(double start, double stop, double step, DType dtype,
             std::shared_ptr<Context> context) {
  if (step == 0) throw ShapeError("[arange] step must not be zero");
  const double span = std::ceil((stop - start) / step);
  const int64_t n = span > 0 ? static_cast<int64_t>(span) : 0;
  require_dtype(*context, dtype, "arange");
  std::vector<Scalar> params = {Scalar::of_double(start, dtype), Scalar::of_double(step, dtype)};
  return Array(default_graph().source(Op::kArange, dtype, {n}, params), std::move(context));
}

Array linspace(double start, double stop, int64_t num, bool endpoint, DType dtype,
               std::shared_ptr<Context> context) {
  if (num < 0) {
    throw ShapeError("[linspace] number of samples, " + std::to_string(num) +
                     ", must be non-negative");
  }
  require_dtype(*context, dtype, "linspace");
  // numpy computes every linspace in float64 and rounds once to the dtype. A float32 step and
  // product are off by many float32 ulps where the values cross zero (start + i * step
  // cancels), so on devices with float64 the narrow floats take numpy's route too: one fused
  // kernel, the float64 source converted as it is stored.
  if ((dtype == DType::kFloat32 || dtype == DType::kFloat16) && has_float64(*context)) {
    return linspace(start, stop, num, endpoint, DType::kFloat64, context).astype(dtype);
  }
  const DType c = linspace_compute_dtype(dtype);
  const int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  std::vector<Scalar> params = {Scalar::of_double(start, c), Scalar::of_double(step, c),
                                Scalar::of_double(stop, c),
                                Scalar::of_int(endpoint && num > 1 ? num - 1 : -1, DType::kInt64)};
  return Array(default_graph().source(Op::kLinspace, dtype, {num}, params), std::move(context));
}

Array eye(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype,
          std::shared_ptr<Context> context) {
  const int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0) {
    throw ShapeError("[eye] negative dimensions (" + std::to_string(n) + ", " +
                     std::to_string(cols) + ")");
  }
  require_dtype(*context, dtype, "eye");
  std::vector<Scalar> params = {Scalar::of_int(k, DType::kInt64),
                                Scalar::of_int(cols, DType::kInt64)};
  return Array(default_graph().source(Op::kEye, dtype, {n, cols}, params), std::move(context));
}

}  // namespace vka
