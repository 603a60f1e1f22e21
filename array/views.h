// numpy's shape and view functions on vka::Array. Each returns a view of the array's storage
// (no copy, no device work) where numpy returns a view, and a new value array where numpy
// copies (reshape of a non-contiguous view, flatten, copy).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/dtype.h"
#include "ir/shape.h"

namespace vka {

// reshape: one extent may be -1 (inferred); a view when the strides allow, else a copy.
// ShapeError "[reshape] cannot reshape array of size 6 into shape (4,)".
Array reshape(const Array& a, Shape shape);
Array ravel(const Array& a);    // 1-d: a view when C-contiguous, else a copy
Array flatten(const Array& a);  // 1-d copy, always
// transpose: reversed axes, or the permutation `axes`.
Array transpose(const Array& a, std::optional<std::vector<int64_t>> axes = std::nullopt);
Array permute_dims(const Array& a, const std::vector<int64_t>& axes);
Array matrix_transpose(const Array& a);  // swaps the last two axes (.mT); needs ndim >= 2
Array swapaxes(const Array& a, int64_t axis1, int64_t axis2);
Array moveaxis(const Array& a, std::vector<int64_t> source, std::vector<int64_t> destination);
// A read-only view with broadcast (stride 0) axes.
Array broadcast_to(const Array& a, const Shape& shape);
std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);
Array expand_dims(const Array& a, std::vector<int64_t> axes);
Array squeeze(const Array& a, std::optional<std::vector<int64_t>> axes = std::nullopt);
Array flip(const Array& a, std::optional<std::vector<int64_t>> axes = std::nullopt);
// A read-only view of the diagonal (numpy's diagonal), as the last axis.
Array diagonal(const Array& a, int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1);
// C-contiguous: the array itself when it already is, else a copy.
Array ascontiguousarray(const Array& a);
// A new value array with the same elements (lazy: computed when needed, from the values
// at the time of the call).
Array copy(const Array& a);
// `a`'s elements in C order as dtype `t`, computed, in a buffer from its element 0 (1-d): a's
// own buffer where it already is one (a computed value, or storage read in place), else a new
// one written by one kernel. For library kernels that read a buffer whole.
Array flat_buffer(const Array& a, DType t);

// Reinterpreting an array's bytes (array/reinterpret.cc). numpy's rules, with numpy's
// messages (ShapeError), plus the device's: a view addresses whole elements of its dtype, so
// its byte offset into the buffer and its byte strides must be multiples of the itemsize.

// numpy's a.view(dtype): the same bytes as `dtype` elements. A 0-d array keeps its itemsize;
// another itemsize needs a contiguous last axis whose byte length it divides.
Array view_dtype(const Array& a, DType dtype);
// numpy's a.dtype = dtype: `a` itself (every copy of it) becomes that view.
void set_dtype(Array& a, DType dtype);
// numpy's a.shape = shape: `a` itself becomes a view with that shape (one extent may be -1).
// ShapeError when the sizes differ; false, `a` unchanged, when its strides allow no view
// (numpy's AttributeError: only a copy, reshape(), can have that shape).
bool set_shape(Array& a, Shape shape);
// numpy's a.getfield(dtype, offset): each element's bytes from `offset` on, as `dtype`
// (complex128's getfield(float64, 8) is its imaginary part), a view with a's shape.
Array view_field(const Array& a, DType dtype, int64_t offset);
// numpy's ndarray(shape, dtype, buffer=a, offset, strides): a view of the bytes of the
// C-contiguous array `a`, from byte `offset`, with byte strides (default: C order).
Array view_bytes(const Array& a, DType dtype, const Shape& shape, int64_t offset,
                 std::optional<std::vector<int64_t>> strides);

}  // namespace vka
