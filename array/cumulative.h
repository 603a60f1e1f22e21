// Scans and differences: numpy's cumsum, cumprod, their nan- and cumulative_ (numpy 2)
// variants, running maxima and minima (np.maximum.accumulate / np.minimum.accumulate), diff
// and ediff1d. Scans are lazy library nodes (array/library_node.h) run on library kernels
// (kernels/lib/cumulative.h): chunk totals, then each chunk scanned from them, for long rows;
// one invocation per line for short rows and outer axes; results are bit-identical from run to
// run. diff and ediff1d are lazy elementwise expressions of slices. Included by array/array.h after
// vka::Array; include array/array.h.
#pragma once

#include <cstdint>
#include <optional>

namespace vka {

// numpy.cumsum / cumprod: along `axis` (the flattened array when nullopt, as numpy's
// axis=None). The result dtype is `dtype` when given; otherwise bool and integers narrower
// than 64 bits accumulate in int64 (signed, bool) or uint64 (unsigned), others keep theirs.
// Integers wrap around as numpy's do. AxisError for an axis out of range.
Array cumsum(const Array& a, std::optional<int64_t> axis = std::nullopt,
             std::optional<DType> dtype = std::nullopt);
Array cumprod(const Array& a, std::optional<int64_t> axis = std::nullopt,
              std::optional<DType> dtype = std::nullopt);
// numpy.nancumsum / nancumprod: NaN counts as 0 (sum) or 1 (product).
Array nancumsum(const Array& a, std::optional<int64_t> axis = std::nullopt,
                std::optional<DType> dtype = std::nullopt);
Array nancumprod(const Array& a, std::optional<int64_t> axis = std::nullopt,
                 std::optional<DType> dtype = std::nullopt);
// numpy 2's cumulative_sum / cumulative_prod: a 0-d array counts as 1-d; axis may be left out
// only for 1-d input (ShapeError otherwise); include_initial puts the identity (0 or 1) first.
Array cumulative_sum(const Array& a, std::optional<int64_t> axis = std::nullopt,
                     std::optional<DType> dtype = std::nullopt, bool include_initial = false);
Array cumulative_prod(const Array& a, std::optional<int64_t> axis = std::nullopt,
                      std::optional<DType> dtype = std::nullopt, bool include_initial = false);
// np.maximum.accumulate / np.minimum.accumulate along `axis`: the running maximum or minimum,
// in a's dtype; NaN propagates (once seen, every later result is NaN). DTypeError for 0-d
// input (numpy: "cannot accumulate on a scalar") and for complex input (not supported yet).
Array cummax(const Array& a, int64_t axis = 0);
Array cummin(const Array& a, int64_t axis = 0);

// numpy.diff: the n-th discrete difference along `axis` (a[1:] - a[:-1], n times; bool uses
// not_equal), after joining `prepend` and `append` along the axis (0-d values are broadcast
// to extent 1 there; others must match a's other extents; the dtype is their result_type).
// n = 0 returns `a`. ShapeError for n < 0 or 0-d input, AxisError for an axis out of range.
Array diff(const Array& a, int64_t n = 1, int64_t axis = -1,
           const std::optional<Array>& prepend = std::nullopt,
           const std::optional<Array>& append = std::nullopt);
// numpy.ediff1d: differences of the flattened array, with to_begin / to_end (flattened, cast
// to a's dtype; DTypeError unless that cast is same_kind) joined at the ends.
Array ediff1d(const Array& a, const std::optional<Array>& to_end = std::nullopt,
              const std::optional<Array>& to_begin = std::nullopt);

}  // namespace vka
