// sort, argsort, partition, argpartition and isin: rows along the last axis (moveaxis +
// ascontiguousarray), one radix-sort permutation, and a gather.
#include "array/sort.h"

#include <string>

#include "array/library_node.h"
#include "array/reduce.h"
#include "array/sort_radix.h"
#include "base/errors.h"

namespace vka {
namespace {

// `flat` (rows of the last axis, C order) as `shape` with the last axis moved to `ax`. A view
// of a computed buffer makes it storage, which the library node copies out: a result already
// in place is returned as it is.
Array in_place_of(const Array& flat, const Shape& shape, int ax) {
  if (flat.shape() == shape && ax == static_cast<int>(shape.size()) - 1) return flat;
  return moveaxis(reshape(flat, shape), {-1}, {ax});
}

// The sorted values (or int64 indices along the axis) of `src` along `ax`, computed now.
Array sorted_now(const Array& src, int ax, bool indices, std::string_view op) {
  // Along the last axis the rows are read where they are: a moved axis is a view, and a view
  // of a value other arrays hold would copy it first (Array::storage).
  Array rows = ax == src.ndim() - 1 ? src : ascontiguousarray(moveaxis(src, {ax}, {-1}));
  const Shape shape = rows.shape();
  const int64_t rowlen = shape.back();
  if (rows.size() == 0) {
    Array empty(
        default_graph().full(Scalar::of_int(0, indices ? DType::kInt64 : src.dtype()), shape),
        src.context());
    return moveaxis(empty, {-1}, {ax});
  }
  const bool one_row = rows.size() == rowlen;
  if (!indices && one_row) {
    // One row: the values sort as keys alone, half the traffic of a permutation and a gather.
    if (std::optional<Array> values = sort_values(rows, op)) return in_place_of(*values, shape, ax);
  }
  Array perm = sort_permutation(rows, rowlen, op);
  // The permutation's positions are flat: along each row, their remainder by its length.
  Array out = indices ? (one_row ? perm.astype(DType::kInt64)
                                 : remainder(perm.astype(DType::kInt64), Arg(rowlen)))
                      : gather(reshape(rows, {-1}), {perm}, {0}, 0, /*checked=*/true, op);
  return in_place_of(out, shape, ax);
}

// The sorted values (or int64 indices along the axis) of `a` along `axis`, as a library node:
// lazy, like its input.
Array sorted_along(const Array& a, std::optional<int64_t> axis, bool indices, std::string_view op) {
  // The flattened array for axis None, reshaped when the node runs (reshaping a lazy array
  // would compute it now).
  const Shape shape = axis ? a.shape() : Shape{a.size()};
  const int ax = normalize_axis(op, axis.value_or(0), static_cast<int>(shape.size()));
  const std::string what(op);
  if (a.size() >= (int64_t{1} << 31)) {
    throw ShapeError("[" + what + "] sorting 2^31 elements or more is not supported yet (got " +
                     std::to_string(a.size()) + ")");
  }
  return library_node(what, {a}, indices ? DType::kInt64 : a.dtype(), shape,
                      [ax, indices, what, shape](const std::vector<Array>& in) {
                        return sorted_now(in[0].shape() == shape ? in[0] : reshape(in[0], shape),
                                          ax, indices, what);
                      });
}

void check_kth(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis,
               std::string_view op) {
  const int64_t n = axis ? a.shape()[normalize_axis(op, *axis, a.ndim())] : a.size();
  for (int64_t k : kth) {
    if (k < -n || k >= n) {
      throw ShapeError("[" + std::string(op) + "] kth(=" + std::to_string(k) + ") out of bounds (" +
                       std::to_string(n) + ")");
    }
  }
}

}  // namespace

Array sort(const Array& a, std::optional<int64_t> axis) {
  return sorted_along(a, axis, false, "sort");
}

Array argsort(const Array& a, std::optional<int64_t> axis) {
  return sorted_along(a, axis, true, "argsort");
}

Array partition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis) {
  check_kth(a, kth, axis, "partition");
  return sorted_along(a, axis, false, "partition");
}

Array argpartition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis) {
  check_kth(a, kth, axis, "argpartition");
  return sorted_along(a, axis, true, "argpartition");
}

Array isin(const Array& element, const Array& test_elements, bool invert) {
  if (element.context() != test_elements.context()) {
    throw ShapeError("[isin] the arrays live on different contexts");
  }
  const int64_t m = test_elements.size();
  if (m == 0) {
    return Array(default_graph().full(Scalar::of_bool(invert), element.shape()), element.context());
  }
  if (is_complex(element.dtype()) || is_complex(test_elements.dtype())) {
    // searchsorted has no complex order: compare every pair instead. The comparison fuses
    // into the reduction, so the n x m matrix is never stored, but the work is O(n m).
    Shape s = element.shape();
    s.push_back(1);
    Array hit = any(equal(reshape(element, s), reshape(test_elements, {-1})), Axes(-1));
    return invert ? logical_not(hit) : hit;
  }
  Array sorted = sort(test_elements, std::nullopt);
  Array pos = searchsorted(sorted, element);
  Array candidate = gather(sorted, {minimum(pos, Arg(m - 1))}, {0}, 0, /*checked=*/true, "isin");
  return invert ? not_equal(candidate, element) : equal(candidate, element);
}

Array in1d(const Array& ar1, const Array& ar2, bool invert) {
  return isin(reshape(ar1, {-1}), ar2, invert);
}

}  // namespace vka
