// Gathers: index conversion, bounds checks, and the gather node.
#include <algorithm>

#include "array/array.h"  // includes gather.h after vka::Array
#include "array/reduce.h"
#include "array/write.h"
#include "base/errors.h"
#include "ir/value_range.h"
#include "kernels/lib/scan.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {
namespace {

void require_integer(const Array& i, std::string_view op) {
  if (!is_integer(i.dtype())) {
    throw IndexError("[" + std::string(op) + "] arrays used as indices must be of integer (or "
                     "boolean) type, got " + std::string(name(i.dtype())));
  }
}

// The broadcast shape of index arrays (IndexError with numpy's "shape mismatch" otherwise).
Shape index_shape(const std::vector<Array>& indices, std::string_view op) {
  std::vector<Shape> shapes;
  for (const Array& i : indices) {
    require_integer(i, op);
    shapes.push_back(i.shape());
  }
  try {
    return broadcast_shapes(op, shapes);
  } catch (const ShapeError&) {
    std::string list;
    for (const Shape& s : shapes) list += " " + to_string(s);
    throw IndexError("[" + std::string(op) + "] shape mismatch: indexing arrays could not be "
                     "broadcast together with shapes" + list);
  }
}

// `i` with `trailing` extent-1 axes appended (a view): its axes then sit in front of the
// array's axes after the gather position.
Array placed(const Array& i, int64_t trailing) {
  if (trailing == 0) return i;
  Shape s = i.shape();
  s.insert(s.end(), trailing, 1);
  return reshape(i, s);
}

// numpy's wrap and clip modes on `idx` for an axis of `n`: true when they leave nothing to check.
bool apply_mode(Array& idx, int64_t n, IndexMode mode) {
  if (mode == IndexMode::kWrap && n > 0) {
    idx = remainder(idx, Arg(n));
    return true;
  }
  if (mode == IndexMode::kClip) {
    idx = minimum(maximum(idx, Arg(0)), Arg(n - 1));
    return true;
  }
  return false;
}

}  // namespace

void check_index_bounds(const Array& indices, int64_t n, int64_t axis, std::string_view op) {
  if (indices.size() == 0) return;
  // Bounds known on the host (an arange shifted, scaled or sliced) need no kernel and no wait.
  std::optional<ValueRange> known = value_range(*indices.node());
  if (known && known->lo >= -n && known->hi < n) return;
  const std::shared_ptr<Context>& ctx = indices.context();
  Array bad = logical_or(less(indices, Arg(-n)), greater_equal(indices, Arg(n)));
  // One byte, zeroed, seen by the kernel as a broadcast of the index shape: a bool written
  // through a broadcast view is an "any" (kernels/gen/elementwise.cc).
  auto flag = allocate_for(ctx, DType::kBool, {1});
  const uint8_t zero = 0;
  device_buffer(*flag)->write(&zero, 0, 1, std::nullopt);
  NodePtr dest = default_graph().buffer(
      flag, DType::kBool, View{0, bad.shape(), std::vector<int64_t>(bad.ndim(), 0)});
  realize(ctx, {bad.node()}, std::nullopt, {dest});
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    uint8_t hit = 0;
    device_buffer(*flag)->read(&hit, 0, 1, r);
    if (hit) {
      throw IndexError("[" + std::string(op) + "] index out of range for axis " +
                       std::to_string(axis) + " with size " + std::to_string(n) +
                       " (indices must lie in [" + std::to_string(-n) + ", " + std::to_string(n) +
                       "))");
    }
  }
}

Array gather(const Array& x, const std::vector<Array>& indices, const std::vector<int64_t>& axes,
             int64_t at, bool checked, std::string_view op) {
  if (indices.empty() || indices.size() > 3 || indices.size() != axes.size()) {
    throw IndexError("[" + std::string(op) + "] vkarray gathers with 1 to 3 index arrays, got " +
                     std::to_string(indices.size()));
  }
  const Shape ishape = index_shape(indices, op);
  // Trailing extent-1 axes place the index axes in front of x's axes after `at`.
  const int64_t trailing = at == Graph::kAlong ? 0 : x.ndim() - static_cast<int64_t>(axes.size()) - at;
  std::vector<NodePtr> nodes;
  for (size_t k = 0; k < indices.size(); ++k) {
    const Array& i = indices[k];
    if (i.context() != x.context()) {
      throw ShapeError("[" + std::string(op) + "] index array lives on a different context");
    }
    const int64_t n = x.shape()[normalize_axis(op, axes[k], x.ndim())];
    if (n == 0 && i.size() > 0) {
      throw IndexError("[" + std::string(op) + "] cannot do a non-empty take from an empty axis");
    }
    if (!checked) check_index_bounds(i, n, axes[k], op);
    nodes.push_back(placed(i, trailing).node());
  }
  // The array is read as a buffer: a storage leaf as it is, anything else once computed.
  NodePtr base = x.is_lazy() ? Array(x).eval().node() : x.node();
  return Array(default_graph().gather(base, std::move(nodes), axes, at, ishape), x.context());
}

void scatter(const Array& x, const std::vector<Array>& indices, const std::vector<int64_t>& axes,
             int64_t at, const Array& value, bool checked, std::string_view op) {
  if (!x.is_writeable()) {
    throw ShapeError("[" + std::string(op) + "] assignment destination is read-only");
  }
  if (indices.empty() || indices.size() != axes.size()) {
    throw IndexError("[" + std::string(op) + "] scatter needs one index array per axis");
  }
  const std::shared_ptr<Context>& ctx = x.context();
  const Shape ishape = index_shape(indices, op);
  // The result shape of x[index] (numpy's placement), and the element address of each of its
  // elements in x's buffer: offset + Σ other axes' index * stride + Σ index arrays * stride.
  const NodePtr base = x.storage();
  const View& v = base->view();
  std::vector<int> rest;
  for (int d = 0; d < x.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) rest.push_back(d);
  }
  Shape shape;
  for (int r = 0; r < at; ++r) shape.push_back(v.shape[rest[r]]);
  shape.insert(shape.end(), ishape.begin(), ishape.end());
  for (size_t r = at; r < rest.size(); ++r) shape.push_back(v.shape[rest[r]]);
  const int nd = static_cast<int>(shape.size());
  if (!can_broadcast_to(value.shape(), shape)) {
    throw ShapeError("[" + std::string(op) + "] shape mismatch: value array of shape " +
                     to_string(value.shape()) + " could not be broadcast to indexing result of "
                     "shape " + to_string(shape));
  }
  Graph& g = default_graph();
  Array addr(g.full(Scalar::of_int(v.offset, DType::kInt64), {}), ctx);
  for (size_t r = 0; r < rest.size(); ++r) {
    const int pos = static_cast<int>(r) < at ? static_cast<int>(r)
                                               : static_cast<int>(r + ishape.size());
    Shape s(nd - pos, 1);  // this axis, then trailing extent-1 axes: broadcasts into place
    s[0] = v.shape[rest[r]];
    addr = addr + Array(g.source(Op::kArange, DType::kInt64, s,
                                 {Scalar::of_int(0, DType::kInt64),
                                  Scalar::of_int(v.strides[rest[r]], DType::kInt64)}),
                        ctx);
  }
  const int64_t trailing = static_cast<int64_t>(rest.size()) - at;
  for (size_t k = 0; k < indices.size(); ++k) {
    const int64_t n = v.shape[normalize_axis(op, axes[k], x.ndim())];
    if (!checked) check_index_bounds(indices[k], n, axes[k], op);
    Array i = placed(indices[k].astype(DType::kInt64), trailing);
    addr = addr + where(less(i, Arg(0)), i + n, i) * Arg(v.strides[axes[k]]);
  }
  if (addr.shape() != shape) addr = Array(g.convert(addr.node(), DType::kInt64, shape), ctx);
  Array vals(g.convert(value.node(), x.dtype(), shape), ctx);
  eval(addr, vals);  // one kernel, before anything is written
  const int64_t count = size(shape);
  if (count == 0) return;
  auto [lo, hi] = v.extent();
  if (hi - lo >= (int64_t{1} << 31) || count >= (int64_t{1} << 31)) {
    throw ShapeError("[" + std::string(op) + "] scatters over 2^31 elements or more are not "
                     "supported yet");
  }
  NodePtr a = addr.node(), w = vals.node();
  VKA_ASSERT(a->is_leaf() && w->is_leaf() && a->view().is_contiguous() && w->view().is_contiguous());
  auto claims = device_buffer(*allocate_for(ctx, DType::kInt32, {hi - lo}));
  zero_fill(ctx, *claims);
  pin_readers(ctx, *base->buffer(), nullptr, &v);
  const std::vector<Scalar> lo_slot = {Scalar::of_int(lo, DType::kInt64)};
  const uint64_t groups = (count + kScanThreads - 1) / kScanThreads;
  // Views of a leaf start at its offset: the kernels take whole buffers, so the leaves must
  // start at element 0 (fresh results do).
  VKA_ASSERT(a->view().offset == 0 && w->view().offset == 0);
  dispatch_library(ctx, scatter_claim_spec(), {device_buffer(*a->buffer()), claims}, count, groups,
                   lo_slot);
  dispatch_library(ctx, scatter_write_spec(x.dtype()),
                   {device_buffer(*a->buffer()), device_buffer(*w->buffer()), claims,
                    device_buffer(*base->buffer())},
                   count, groups, lo_slot);
  base->buffer()->bump_version();
}

void put(const Array& a, const Array& indices, const Array& values, IndexMode mode) {
  require_integer(indices, "put");
  const NodePtr& node = a.node();
  if (node->is_leaf() && !node->view().is_contiguous()) {
    // A strided view flattens to a copy, which the scatter would write instead: put into a
    // contiguous copy and write it back through the view (numpy's put writes through views).
    Array dense = ascontiguousarray(a);
    dense.storage();
    put(dense, indices, values, mode);
    a.set({ellipsis}, dense);
    return;
  }
  Array flat = reshape(a, {-1});
  const int64_t n = flat.size();
  Array idx = reshape(indices, {-1});
  const bool checked = apply_mode(idx, n, mode);
  // numpy repeats the values to the indices' size (or uses the first ones).
  Array vals = reshape(values, {-1});
  const int64_t m = idx.size();
  if (m == 0) return;
  if (vals.size() == 0) return;  // numpy puts nothing
  if (vals.size() != m) {
    Array pos(default_graph().source(Op::kArange, DType::kInt64, {m},
                                     {Scalar::of_int(0, DType::kInt64),
                                      Scalar::of_int(1, DType::kInt64)}),
              a.context());
    vals = gather(vals, {remainder(pos, Arg(vals.size()))}, {0}, 0, /*checked=*/true, "put");
  }
  scatter(flat, {idx}, {0}, 0, vals, checked, "put");
}

namespace {

// numpy's sort order of complex values (npysort's CFLOAT_LT): by real part, then imaginary
// part, NaNs last: [R + Rj, R + nanj, nan + Rj, nan + nanj].
Array complex_sort_less(const Array& a, const Array& b) {
  const Array ar = real(a), ai = imag(a), br = real(b), bi = imag(b);
  const Array a_imag_ok = logical_not(isnan(ai)), b_imag_nan = isnan(bi);
  const Array by_imag = logical_or(less(ai, bi), logical_and(b_imag_nan, a_imag_ok));
  const Array same_real = logical_or(equal(ar, br), logical_and(isnan(ar), isnan(br)));
  return where(less(ar, br), logical_or(a_imag_ok, b_imag_nan),
               where(greater(ar, br), logical_and(b_imag_nan, a_imag_ok),
                     where(same_real, by_imag, isnan(br))));
}

// searchsorted of complex values, which the library kernel's binary search does not order:
// the count of a's elements sorting before each value, a broadcast comparison fused into one
// sum (O(n m) work, no n x m array stored).
Array searchsorted_complex(const Array& a, const Array& values, bool right) {
  Shape s = values.shape();
  s.push_back(1);
  const Array v = reshape(values, s);
  const Array before = right ? logical_not(complex_sort_less(v, a)) : complex_sort_less(a, v);
  return sum(before, Axes(-1));
}

}  // namespace

Array searchsorted(const Array& a, const Array& values, bool right) {
  if (a.ndim() != 1) {
    throw ShapeError("[searchsorted] the sorted array must be 1-d, got shape " +
                     to_string(a.shape()));
  }
  if (a.context() != values.context()) {
    throw ShapeError("[searchsorted] the arrays live on different contexts");
  }
  const DType t = result_type(a.dtype(), values.dtype());
  if (is_complex(t)) return searchsorted_complex(a.astype(t), values.astype(t), right);
  const std::shared_ptr<Context>& ctx = a.context();
  // Both as fresh contiguous buffers of one dtype (one kernel).
  Array sa(default_graph().convert(a.node(), t, a.shape()), ctx);
  Array sv(default_graph().convert(values.node(), t, values.shape()), ctx);
  eval(sa, sv);
  auto out = allocate_for(ctx, DType::kInt64, {std::max<int64_t>(values.size(), 1)});
  const int64_t n = values.size();
  if (n > 0) {
    dispatch_library(ctx, searchsorted_spec(t),
                     {device_buffer(*sa.node()->buffer()), device_buffer(*sv.node()->buffer()),
                      device_buffer(*out)},
                     n, std::min<int64_t>((n + kScanThreads - 1) / kScanThreads, 65535),
                     {Scalar::of_int(right ? 1 : 0, DType::kInt64),
                      Scalar::of_int(a.size(), DType::kInt64)});
  }
  return Array(default_graph().buffer(out, DType::kInt64, View::contiguous(values.shape())), ctx);
}

Array take(const Array& x, const Array& indices, std::optional<int64_t> axis, IndexMode mode) {
  require_integer(indices, "take");
  Array src = axis ? x : reshape(x, {-1});
  const int a = normalize_axis("take", axis.value_or(0), src.ndim());
  const int64_t n = src.shape()[a];
  Array idx = indices;
  const bool checked = apply_mode(idx, n, mode);
  return gather(src, {idx}, {a}, a, checked, "take");
}

Array take_along_axis(const Array& x, const Array& indices, int64_t axis) {
  require_integer(indices, "take_along_axis");
  if (indices.ndim() != x.ndim()) {
    throw ShapeError("[take_along_axis] `indices` and `arr` must have the same number of "
                     "dimensions, got " + std::to_string(indices.ndim()) + " and " +
                     std::to_string(x.ndim()));
  }
  const int a = normalize_axis("take_along_axis", axis, x.ndim());
  Shape xs = x.shape(), is = indices.shape();
  xs[a] = 1;
  is[a] = 1;
  broadcast_shapes("take_along_axis", xs, is);  // ShapeError when the other axes disagree
  return gather(x, {indices}, {a}, Graph::kAlong, false, "take_along_axis");
}

}  // namespace vka
