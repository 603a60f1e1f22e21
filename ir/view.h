// Strided views of a flat buffer: offset, shape and strides in elements (numpy's model).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/shape.h"

namespace vka {

// Element (i0, i1, ...) lives at buffer element offset + Σ i_k * strides[k]. Strides may be
// negative (reversed slices) or zero (broadcast dimensions).
struct View {
  int64_t offset = 0;
  Shape shape;
  std::vector<int64_t> strides;

  static View contiguous(const Shape& shape, int64_t offset = 0);

  int ndim() const { return static_cast<int>(shape.size()); }
  int64_t size() const { return vka::size(shape); }
  // C-contiguous: elements in row-major order with no gaps (extent-1 dims may have any
  // stride, as in numpy's flags). Empty views count as contiguous.
  bool is_contiguous() const;
  // Every element is the same buffer element (all strides of extent>1 dims are 0).
  bool is_scalar_broadcast() const;
  // Lowest and one-past-highest buffer element touched; {offset, offset} when empty.
  std::pair<int64_t, int64_t> extent() const;
  std::string to_string() const;

  bool operator==(const View& o) const {
    return offset == o.offset && shape == o.shape && strides == o.strides;
  }
  bool operator!=(const View& o) const { return !(*this == o); }
};

// numpy's broadcast_to as a view: new leading dims and extent-1 dims get stride 0.
// Throws ShapeError "[op] cannot broadcast shape (3,) to (2, 4)".
View broadcast_to(std::string_view op, const View& v, const Shape& shape);

// Permutes the axes: result.shape[i] = v.shape[axes[i]]. `axes` must be a permutation
// (negative axes allowed); otherwise ShapeError/IndexError naming the axes.
View permute(std::string_view op, const View& v, const std::vector<int64_t>& axes);
View transpose(const View& v);  // reverses the axes, numpy's .T

// Reshape without copying, when the new shape can be expressed with strides over the same
// elements (numpy's _attempt_nocopy_reshape); nullopt when a copy is needed. One -1 extent
// is inferred. Throws ShapeError when the sizes differ: "[reshape] cannot reshape array of
// size 6 into shape (4,)".
std::optional<View> reshape_view(const View& v, Shape shape);

// One axis of a basic slice, normalized as Python's slice.indices(length): step != 0.
struct SliceSpec {
  std::optional<int64_t> start, stop;
  int64_t step = 1;
};
struct SliceRange {
  int64_t start;  // first index taken (meaningful when count > 0)
  int64_t step;
  int64_t count;  // number of indices taken
};
// Python/numpy normalization of a slice against an axis of `length` (negative indices count
// from the end, out-of-range bounds clamp, negative steps walk backwards).
// Throws ShapeError "[slice] slice step cannot be zero".
SliceRange normalize_slice(const SliceSpec& s, int64_t length);

// Applies a slice to axis `axis` of the view.
View slice(const View& v, int axis, const SliceSpec& s);

// Integer indexing of one axis (removes the axis); IndexError numpy style:
// "[index] index 5 is out of bounds for axis 0 with size 3".
View index_axis(const View& v, int axis, int64_t index);

// Merges adjacent dimensions that are contiguous in every view at once (all views must have
// the same shape), to shrink the rank kernels index with. Returns the merged shape and
// rewrites `views` in place. Extent-1 dimensions are dropped.
Shape collapse_dims(std::vector<View*> views);
// collapse_dims on the first `split` dims and on the rest separately (a merge never crosses
// the split); *split_out is the number of dims the first group became.
Shape collapse_split(std::vector<View*> views, int split, int* split_out);

}  // namespace vka
