// diff and ediff1d: lazy differences of slices (one fused kernel per order), with the
// prepended and appended values joined first.
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "ir/promotion.h"

namespace vka {
namespace {

// `parts` joined along `axis` into a new array of `dtype` (one kernel per non-empty part; the
// parts agree on every other extent).
Array join(const std::vector<Array>& parts, int axis, DType dtype) {
  Shape shape = parts[0].shape();
  shape[axis] = 0;
  for (const Array& p : parts) shape[axis] += p.shape()[axis];
  Array out = zeros(shape, dtype, parts[0].context());
  int64_t at = 0;
  for (const Array& p : parts) {
    const int64_t n = p.shape()[axis];
    if (n == 0) continue;
    Index index(static_cast<size_t>(axis), all());
    index.push_back(range(at, at + n));
    out.set(index, Arg(p));
    at += n;
  }
  return out;
}

// diff's prepend/append value as a block of a's shape with `extent` along `axis`: 0-d values
// are broadcast (numpy's rule), others must match a's other extents.
Array edge(const Array& v, const Array& a, int axis, std::string_view which) {
  if (v.context() != a.context()) {
    throw ShapeError("[diff] " + std::string(which) + " lives on a different context");
  }
  if (v.ndim() == 0) {
    Shape shape = a.shape();
    shape[axis] = 1;
    return broadcast_to(v, shape);
  }
  bool ok = v.ndim() == a.ndim();
  for (int d = 0; ok && d < a.ndim(); ++d) ok = d == axis || v.shape()[d] == a.shape()[d];
  if (!ok) {
    throw ShapeError("[diff] all the input array dimensions except for the concatenation axis "
                     "must match exactly: array of shape " + to_string(a.shape()) + ", " +
                     std::string(which) + " of shape " + to_string(v.shape()) +
                     ", axis " + std::to_string(axis));
  }
  return v;
}

}  // namespace

Array diff(const Array& a, int64_t n, int64_t axis, const std::optional<Array>& prepend,
           const std::optional<Array>& append) {
  if (n == 0) return a;
  if (n < 0) {
    throw ShapeError("[diff] order must be non-negative but got " + std::to_string(n));
  }
  if (a.ndim() == 0) {
    throw ShapeError("[diff] diff requires input that is at least one dimensional");
  }
  const int ax = normalize_axis("diff", axis, a.ndim());
  Array x = a;
  if (prepend || append) {
    std::vector<Array> parts;
    DType t = a.dtype();
    if (prepend) {
      parts.push_back(edge(*prepend, a, ax, "prepend"));
      t = result_type(t, prepend->dtype());
    }
    parts.push_back(a);
    if (append) {
      parts.push_back(edge(*append, a, ax, "append"));
      t = result_type(t, append->dtype());
    }
    x = join(parts, ax, t);
  }
  Index upper(static_cast<size_t>(ax), all()), lower = upper;
  upper.push_back(range(1, std::nullopt));
  lower.push_back(range(std::nullopt, -1));
  for (int64_t k = 0; k < n; ++k) {
    x = x.dtype() == DType::kBool ? not_equal(x[upper], x[lower]) : subtract(x[upper], x[lower]);
  }
  return x;
}

Array ediff1d(const Array& a, const std::optional<Array>& to_end,
              const std::optional<Array>& to_begin) {
  Array flat = reshape(a, {-1});
  Array d = subtract(flat[{range(1, std::nullopt)}], flat[{range(std::nullopt, -1)}]);
  if (!to_end && !to_begin) return d;
  std::vector<Array> parts;
  for (const auto* v : {&to_begin, &to_end}) {
    if (*v && !can_cast((*v)->dtype(), a.dtype(), Casting::kSameKind)) {
      throw DTypeError("[ediff1d] dtype of " +
                       std::string(v == &to_end ? "to_end" : "to_begin") + " (" +
                       std::string(name((*v)->dtype())) + ") must be compatible with input ary (" +
                       std::string(name(a.dtype())) + ") under the same_kind rule");
    }
  }
  if (to_begin) parts.push_back(reshape(*to_begin, {-1}));
  parts.push_back(d);
  if (to_end) parts.push_back(reshape(*to_end, {-1}));
  return join(parts, 0, a.dtype());
}

}  // namespace vka
