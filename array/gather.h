// Integer-array indexing (numpy's advanced indexing for reads), take and take_along_axis.
// A gather is a lazy node like any other: its indices are fused into the kernel that reads
// the array, and elementwise work on the result fuses after it. The array itself is read as
// a buffer (computed first when it is lazy). Index bounds are checked when the gather is made,
// as numpy raises at the call: one small kernel and a one-byte readback.
#pragma once
// Included by array/array.h after vka::Array; include array/array.h.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace vka {

// numpy's modes for out-of-range indices in take: raise IndexError, wrap around, or clip.
enum class IndexMode : uint8_t { kRaise, kWrap, kClip };

// x[..., i0, i1, ...]: `indices` (integer arrays, broadcast together; at most 3) address the
// axes `axes` of x. The broadcast index shape replaces the indexed axes at position `at` of
// x's other axes (numpy puts it where the indexed axes were when they are adjacent in the
// index, else first). `checked`: the caller already verified the bounds (host data).
Array gather(const Array& x, const std::vector<Array>& indices, const std::vector<int64_t>& axes,
             int64_t at, bool checked = false, std::string_view op = "index");

// numpy.take: along `axis`, or over the flattened array when nullopt.
Array take(const Array& x, const Array& indices, std::optional<int64_t> axis = std::nullopt,
           IndexMode mode = IndexMode::kRaise);
// numpy.take_along_axis: indices has x's rank; its other axes broadcast against x's.
Array take_along_axis(const Array& x, const Array& indices, int64_t axis);

// x[..., i0, i1, ...] = value, at once (numpy's assignment through index arrays): the same
// index rules as gather(); value broadcast to the indexed shape and converted to x's dtype;
// where indices repeat, the last assignment wins, as numpy's. `x` must be a writeable view
// (storage); other views see the change, and lazy expressions made earlier keep their values.
void scatter(const Array& x, const std::vector<Array>& indices, const std::vector<int64_t>& axes,
             int64_t at, const Array& value, bool checked = false, std::string_view op = "setitem");

// numpy.put: a.flat[indices] = values (values repeated or cut to the indices' size), modes
// raise, wrap, clip.
void put(const Array& a, const Array& indices, const Array& values,
         IndexMode mode = IndexMode::kRaise);

// numpy.searchsorted of `values` in the sorted 1-d array `a` (side "left" or "right"): int64
// insertion points of values' shape. Both are converted to their promoted dtype first.
Array searchsorted(const Array& a, const Array& values, bool right = false);

// Throws IndexError naming `op` when some element of `indices` lies outside [-n, n):
// "[take] index out of range for axis 0 with size 5 (indices must lie in [-5, 5))".
void check_index_bounds(const Array& indices, int64_t n, int64_t axis, std::string_view op);

}  // namespace vka
