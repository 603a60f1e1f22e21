// numpy's reductions as reduction nodes (Graph::reduce) plus the elementwise work around
// them: dtype conversion, where= masks, initial=, NaN handling, mean's divisor.
#include "array/reduce.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "array/functions.h"
#include "array/views.h"
#include "base/errors.h"
#include "runtime/realize.h"

namespace vka {
namespace {

std::string prefix(std::string_view op) { return "[" + std::string(op) + "] "; }

bool is_inexact(DType t) { return is_floating(t) || is_complex(t); }

// Elements each result reduces (the product of the reduced extents).
int64_t reduced_count(const Array& a, const std::vector<int>& axes) {
  int64_t n = 1;
  for (int d : axes) n *= a.shape()[d];
  return n;
}

Array reduce_node(Op op, const Array& x, const std::vector<int>& axes, bool keepdims, DType out,
                  double divisor = 1) {
  check_accepts(op, x.dtype());
  return Array(default_graph().reduce(op, x.node(), axes, keepdims, out, divisor), x.context());
}

// The dtype a float16 result accumulates in (numpy adds float16 in float32).
DType accumulation(DType t) { return t == DType::kFloat16 ? DType::kFloat32 : t; }

// `where`: the mask broadcast to a's shape (ShapeError naming both otherwise).
Array mask_of(std::string_view op, const Array& a, const Array& where) {
  if (where.dtype() != DType::kBool) {
    throw DTypeError(prefix(op) + "where= must be a bool array, got " +
                     std::string(name(where.dtype())));
  }
  if (broadcast_shapes(op, a.shape(), where.shape()) != a.shape()) {
    throw ShapeError(prefix(op) + "where= of shape " + to_string(where.shape()) +
                     " does not broadcast to the input's shape " + to_string(a.shape()));
  }
  return where;
}

// a with the elements where= leaves out replaced by `fill`.
Array masked_fill(std::string_view op, const Array& a, const ReduceOptions& o, const Arg& fill) {
  if (!o.where) return a;
  return vka::where(mask_of(op, a, *o.where), a, fill).astype(a.dtype());
}

void require_nonempty(std::string_view op, std::string_view numpy_op, const Array& a,
                      const std::vector<int>& axes, const ReduceOptions& o) {
  if (reduced_count(a, axes) == 0 && !o.initial) {
    throw ShapeError(prefix(op) + "zero-size array to reduction operation " +
                     std::string(numpy_op) + " which has no identity (input shape " +
                     to_string(a.shape()) + ")");
  }
}

Array with_initial(Op combine, const Array& r, const ReduceOptions& o) {
  if (!o.initial) return r;
  return apply(combine, {r, Arg(*o.initial)}).astype(r.dtype());
}

// sum and prod: the accumulation dtype, where= filled with the identity, initial= folded.
Array sum_like(std::string_view op, Op reduce, Op combine, const Array& a, const Axes& axis,
               const ReduceOptions& o, int identity) {
  const std::vector<int> axes = reduction_axes(op, axis, a.ndim());
  const DType out = o.dtype.value_or(sum_dtype(a.dtype()));
  Array x = masked_fill(op, a.astype(accumulation(out)), o, Arg(identity));
  return with_initial(combine, reduce_node(reduce, x, axes, o.keepdims, out), o);
}

// max and min: same dtype; where= needs initial= (numpy's rule), whose value fills the rest.
Array extreme(std::string_view op, std::string_view numpy_op, Op reduce, Op combine, const Array& a,
              const Axes& axis, const ReduceOptions& o) {
  const std::vector<int> axes = reduction_axes(op, axis, a.ndim());
  check_accepts(reduce, a.dtype());
  require_nonempty(op, numpy_op, a, axes, o);
  if (o.where && !o.initial) {
    throw ShapeError(prefix(op) + "reduction operation " + std::string(numpy_op) +
                     " does not have an identity, so to use a where mask one has to specify "
                     "'initial'");
  }
  if (o.dtype && *o.dtype != a.dtype()) {
    throw DTypeError(prefix(op) + "dtype= must be the input's dtype " +
                     std::string(name(a.dtype())) + ", got " + std::string(name(*o.dtype)));
  }
  Array x = o.where ? masked_fill(op, a, o, Arg(*o.initial)) : a;
  return with_initial(combine, reduce_node(reduce, x, axes, o.keepdims, a.dtype()), o);
}

// The dtype mean/var compute in and return: integers in float64; complex var is real.
DType mean_dtype(std::string_view op, DType t, const ReduceOptions& o) {
  if (o.initial) throw DTypeError(prefix(op) + "got an unexpected keyword argument 'initial'");
  if (o.dtype) {
    if (!is_inexact(*o.dtype)) {
      throw DTypeError(prefix(op) + "dtype= must be a float or complex dtype, got " +
                       std::string(name(*o.dtype)));
    }
    return *o.dtype;
  }
  return is_inexact(t) ? t : DType::kFloat64;
}

Array not_nan(const Array& a) { return logical_not(isnan(a)); }

// Elements counted per result: where= (and, for the nan forms, non-NaN) elements, as the
// accumulation dtype, keepdims so it broadcasts against the input.
Array counts(const Array& ok, const std::vector<int>& axes, DType t) {
  return reduce_node(Op::kSum, ok.astype(t), axes, true, t);
}

Array squeeze_axes(const Array& r, const std::vector<int>& axes, bool keepdims) {
  if (keepdims) return r;
  std::vector<int64_t> ax(axes.begin(), axes.end());
  return squeeze(r, ax);
}

// Shared by var and nanvar: `ok` marks the elements that count (null: all).
Array variance(std::string_view op, const Array& a, const Axes& axis, double ddof,
               const ReduceOptions& o, bool skip_nan) {
  const std::vector<int> axes = reduction_axes(op, axis, a.ndim());
  const DType t = mean_dtype(op, a.dtype(), o), acc = accumulation(t);
  const DType rt = real_dtype(t), real_acc = accumulation(rt);
  Array x = a.astype(acc);
  std::optional<Array> ok;
  if (o.where) ok = broadcast_to(mask_of(op, a, *o.where), a.shape());
  if (skip_nan && is_inexact(a.dtype())) ok = ok ? logical_and(*ok, not_nan(x)) : not_nan(x);
  Array sq;
  if (!ok) {
    const double n = static_cast<double>(reduced_count(a, axes));
    Array m = reduce_node(Op::kMean, x, axes, true, acc, n);
    Array d = x - m;
    sq = is_complex(acc) ? real(d) * real(d) + imag(d) * imag(d) : d * d;
    return reduce_node(Op::kMean, sq, axes, o.keepdims, rt, std::max(n - ddof, 0.0));
  }
  Array xs = vka::where(*ok, x, Arg(0)).astype(acc);
  Array n = counts(*ok, axes, real_acc);
  Array m = reduce_node(Op::kSum, xs, axes, true, acc) / n;
  Array d = vka::where(*ok, x - m, Arg(0)).astype(acc);
  sq = is_complex(acc) ? real(d) * real(d) + imag(d) * imag(d) : d * d;
  Array s = reduce_node(Op::kSum, sq, axes, true, real_acc);
  Array v = (s / maximum(n - Arg(ddof), Arg(0))).astype(rt);
  return squeeze_axes(v, axes, o.keepdims);
}

// The axes argmax/argmin reduce, after numpy's checks (an empty reduction has no extreme).
std::vector<int> arg_axes(std::string_view op, std::string_view numpy_op, Op reduce, const Array& a,
                          std::optional<int64_t> axis) {
  if (!accepts(reduce, a.dtype())) {  // named as the caller's op (nanargmax, not argmax)
    throw DTypeError(prefix(op) + "not supported for dtype " + std::string(name(a.dtype())) +
                     " yet (numpy accepts it; vkarray does not)");
  }
  std::vector<int> axes;
  if (axis) {
    axes = {normalize_axis(op, *axis, a.ndim())};
  } else {
    for (int d = 0; d < a.ndim(); ++d) axes.push_back(d);
  }
  if (reduced_count(a, axes) == 0) {
    throw ShapeError(prefix(op) + "attempt to get " + std::string(numpy_op) +
                     " of an empty sequence (input shape " + to_string(a.shape()) + ")");
  }
  return axes;
}

Array arg_extreme(std::string_view op, std::string_view numpy_op, Op reduce, const Array& a,
                  std::optional<int64_t> axis, bool keepdims) {
  return reduce_node(reduce, a, arg_axes(op, numpy_op, reduce, a, axis), keepdims, DType::kInt64);
}

// nanargmax/nanargmin as numpy computes them: NaN replaced by -inf / +inf (ties with real
// infinities go to the first), and an all-NaN slice an error, which reads one byte back.
Array nan_arg(std::string_view op, std::string_view numpy_op, Op reduce, const Array& a,
              std::optional<int64_t> axis, bool keepdims, double fill) {
  const std::vector<int> axes = arg_axes(op, numpy_op, reduce, a, axis);
  if (!is_inexact(a.dtype())) return reduce_node(reduce, a, axes, keepdims, DType::kInt64);
  Array nan = isnan(a);
  Array r = reduce_node(reduce, vka::where(nan, Arg(fill), a).astype(a.dtype()), axes, keepdims,
                        DType::kInt64);
  uint8_t bad = 0;
  vka::any(reduce_node(Op::kAll, nan, axes, false, DType::kBool)).read(&bad, 1);
  if (bad) throw ShapeError(prefix(op) + "All-NaN slice encountered");
  return r;
}

}  // namespace

DType sum_dtype(DType t) {
  if (is_bool(t) || (is_signed_integer(t) && itemsize(t) < 8)) return DType::kInt64;
  if (is_unsigned_integer(t) && itemsize(t) < 8) return DType::kUInt64;
  return t;
}

std::vector<int> reduction_axes(std::string_view op, const Axes& axis, int ndim) {
  std::vector<int> out;
  if (axis.is_all()) {
    for (int d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int64_t a : axis.list()) out.push_back(normalize_axis(op, a, ndim));
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) {
    throw ShapeError(prefix(op) + "duplicate value in 'axis'");
  }
  return out;
}

Array sum(const Array& a, const Axes& axis, const ReduceOptions& o) {
  return sum_like("sum", Op::kSum, Op::kAdd, a, axis, o, 0);
}

Array prod(const Array& a, const Axes& axis, const ReduceOptions& o) {
  return sum_like("prod", Op::kProd, Op::kMultiply, a, axis, o, 1);
}

Array nansum(const Array& a, const Axes& axis, const ReduceOptions& o) {
  if (!is_inexact(a.dtype())) return sum(a, axis, o);
  return sum_like("nansum", Op::kSum, Op::kAdd, vka::where(isnan(a), Arg(0), a).astype(a.dtype()),
                  axis, o, 0);
}

Array nanprod(const Array& a, const Axes& axis, const ReduceOptions& o) {
  if (!is_inexact(a.dtype())) return prod(a, axis, o);
  return sum_like("nanprod", Op::kProd, Op::kMultiply,
                  vka::where(isnan(a), Arg(1), a).astype(a.dtype()), axis, o, 1);
}

Array max(const Array& a, const Axes& axis, const ReduceOptions& o) {
  return extreme("max", "maximum", Op::kMax, Op::kMaximum, a, axis, o);
}

Array min(const Array& a, const Axes& axis, const ReduceOptions& o) {
  return extreme("min", "minimum", Op::kMin, Op::kMinimum, a, axis, o);
}

Array nanmax(const Array& a, const Axes& axis, const ReduceOptions& o) {
  return extreme("nanmax", "fmax", Op::kNanMax, Op::kFmax, a, axis, o);
}

Array nanmin(const Array& a, const Axes& axis, const ReduceOptions& o) {
  return extreme("nanmin", "fmin", Op::kNanMin, Op::kFmin, a, axis, o);
}

Array ptp(const Array& a, const Axes& axis, const ReduceOptions& o) {
  if (is_bool(a.dtype())) {
    throw DTypeError("[ptp] numpy boolean subtract, the `-` operator, is not supported");
  }
  Array hi = max(a, axis, o);  // first: an empty reduction's error names maximum, as numpy's
  return subtract(hi, min(a, axis, o));
}

Array mean(const Array& a, const Axes& axis, const ReduceOptions& o) {
  const std::vector<int> axes = reduction_axes("mean", axis, a.ndim());
  const DType t = mean_dtype("mean", a.dtype(), o), acc = accumulation(t);
  if (!o.where) {
    const double n = static_cast<double>(reduced_count(a, axes));
    return reduce_node(Op::kMean, a.astype(acc), axes, o.keepdims, t, n);
  }
  Array ok = broadcast_to(mask_of("mean", a, *o.where), a.shape());
  Array s = reduce_node(Op::kSum, vka::where(ok, a.astype(acc), Arg(0)).astype(acc), axes,
                        o.keepdims, acc);
  return (s / reduce_node(Op::kSum, ok.astype(real_dtype(acc)), axes, o.keepdims, real_dtype(acc)))
      .astype(t);
}

Array nanmean(const Array& a, const Axes& axis, const ReduceOptions& o) {
  if (!is_inexact(a.dtype())) return mean(a, axis, o);
  const std::vector<int> axes = reduction_axes("nanmean", axis, a.ndim());
  const DType t = mean_dtype("nanmean", a.dtype(), o), acc = accumulation(t);
  Array ok = not_nan(a);
  if (o.where) ok = logical_and(ok, mask_of("nanmean", a, *o.where));
  Array s = reduce_node(Op::kSum, vka::where(ok, a.astype(acc), Arg(0)).astype(acc), axes,
                        o.keepdims, acc);
  return (s / reduce_node(Op::kSum, ok.astype(real_dtype(acc)), axes, o.keepdims, real_dtype(acc)))
      .astype(t);
}

Array var(const Array& a, const Axes& axis, double ddof, const ReduceOptions& o) {
  return variance("var", a, axis, ddof, o, false);
}

Array stddev(const Array& a, const Axes& axis, double ddof, const ReduceOptions& o) {
  return sqrt(variance("std", a, axis, ddof, o, false));
}

Array nanvar(const Array& a, const Axes& axis, double ddof, const ReduceOptions& o) {
  return variance("nanvar", a, axis, ddof, o, true);
}

Array nanstd(const Array& a, const Axes& axis, double ddof, const ReduceOptions& o) {
  return sqrt(variance("nanstd", a, axis, ddof, o, true));
}

Array any(const Array& a, const Axes& axis, const ReduceOptions& o) {
  const std::vector<int> axes = reduction_axes("any", axis, a.ndim());
  Array x = is_bool(a.dtype()) ? a : not_equal(a, Arg(0));
  if (o.where) x = logical_and(x, mask_of("any", a, *o.where));
  return reduce_node(Op::kAny, x, axes, o.keepdims, DType::kBool);
}

Array all(const Array& a, const Axes& axis, const ReduceOptions& o) {
  const std::vector<int> axes = reduction_axes("all", axis, a.ndim());
  Array x = is_bool(a.dtype()) ? a : not_equal(a, Arg(0));
  if (o.where) x = logical_or(x, logical_not(mask_of("all", a, *o.where)));
  return reduce_node(Op::kAll, x, axes, o.keepdims, DType::kBool);
}

Array count_nonzero(const Array& a, const Axes& axis, bool keepdims) {
  const std::vector<int> axes = reduction_axes("count_nonzero", axis, a.ndim());
  Array x = is_bool(a.dtype()) ? a : not_equal(a, Arg(0));
  return reduce_node(Op::kSum, x.astype(DType::kInt64), axes, keepdims, DType::kInt64);
}

Array argmax(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return arg_extreme("argmax", "argmax", Op::kArgmax, a, axis, keepdims);
}

Array argmin(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return arg_extreme("argmin", "argmin", Op::kArgmin, a, axis, keepdims);
}

Array nanargmax(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return nan_arg("nanargmax", "argmax", Op::kArgmax, a, axis, keepdims, -INFINITY);
}

Array nanargmin(const Array& a, std::optional<int64_t> axis, bool keepdims) {
  return nan_arg("nanargmin", "argmin", Op::kArgmin, a, axis, keepdims, INFINITY);
}

Array vdot(const Array& a, const Array& b) {
  if (a.size() != b.size()) {
    throw ShapeError("[vdot] vectors have different lengths: " + std::to_string(a.size()) +
                     " and " + std::to_string(b.size()));
  }
  Array x = reshape(a, {-1}), y = reshape(b, {-1});
  Array p = is_complex(x.dtype()) ? conj(x) * y : x * y;
  return sum(p, {}, {false, p.dtype()});
}

Array vecdot(const Array& a, const Array& b, int64_t axis) {
  const Shape shape = broadcast_shapes("vecdot", a.shape(), b.shape());
  const int ax = normalize_axis("vecdot", axis, static_cast<int>(shape.size()));
  if (a.shape()[a.ndim() - (shape.size() - ax)] != b.shape()[b.ndim() - (shape.size() - ax)]) {
    throw ShapeError("[vecdot] the operands' axis " + std::to_string(axis) + " differ: shapes " +
                     to_string(a.shape()) + " and " + to_string(b.shape()));
  }
  Array p = is_complex(a.dtype()) ? conj(a) * b : a * b;
  return sum(p, ax, {false, p.dtype()});
}

Array inner(const Array& a, const Array& b) {
  if (a.ndim() > 1 || b.ndim() > 1) {
    // N-d operands: sums over the last axes, a matrix product (array/matmul.h).
    if (a.ndim() == 0 || b.ndim() == 0) return a * b;
    if (a.shape().back() != b.shape().back()) {
      throw ShapeError("[inner] shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                       " not aligned: " + std::to_string(a.shape().back()) + " (dim " +
                       std::to_string(a.ndim() - 1) + ") != " + std::to_string(b.shape().back()) +
                       " (dim " + std::to_string(b.ndim() - 1) + ")");
    }
    return tensordot(a, b, {-1}, {-1});
  }
  if (a.ndim() == 1 && b.ndim() == 1 && a.shape()[0] != b.shape()[0]) {
    throw ShapeError("[inner] shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                     " not aligned: " + std::to_string(a.shape()[0]) +
                     " (dim 0) != " + std::to_string(b.shape()[0]) + " (dim 0)");
  }
  Array p = a * b;
  if (p.ndim() == 0) return p;
  return sum(p, {}, {false, p.dtype()});
}

}  // namespace vka
