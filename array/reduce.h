// Reductions of vka::Array with numpy's names, dtypes and errors. Each is lazy: the reduction
// becomes one generated kernel that also computes the elementwise expression feeding it
// (sum(a * b) reads a and b once and writes one number), and elementwise work on its result
// fuses into the next kernel. Results are deterministic (kernels/gen/reduce.h).
//
//   Array s = sum(a);                    // every axis
//   Array r = sum(a, 1);                 // row sums of a 2-d array
//   Array c = mean(a, {0, 2}, {true});   // keepdims
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "array/array.h"

namespace vka {

// numpy's axis argument: every axis (None), one axis, or several; negative counts from the end.
class Axes {
 public:
  Axes() = default;
  Axes(std::nullopt_t) {}                                    // NOLINT: axis=None
  Axes(int axis) : list_(std::vector<int64_t>{axis}) {}      // NOLINT
  Axes(int64_t axis) : list_(std::vector<int64_t>{axis}) {}  // NOLINT
  Axes(std::initializer_list<int64_t> axes) : list_(std::vector<int64_t>(axes)) {}
  Axes(std::vector<int64_t> axes) : list_(std::move(axes)) {}  // NOLINT
  bool is_all() const { return !list_.has_value(); }
  const std::vector<int64_t>& list() const { return *list_; }

 private:
  std::optional<std::vector<int64_t>> list_;
};

// The rest of numpy's reduction keywords. `dtype`: the result's dtype (and the accumulation
// dtype, except that float16 accumulates in float32 as numpy does). `initial`: folded into
// every result (sum, prod, min, max and their nan forms); required by min/max of empty
// reductions. `where`: a bool array broadcast to the input; only its true elements count.
struct ReduceOptions {
  bool keepdims = false;
  std::optional<DType> dtype;
  std::optional<WeakScalar> initial;
  std::optional<Array> where;
};

Array sum(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array prod(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array nansum(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array nanprod(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
// max/min: NaN propagates; nanmax/nanmin ignore NaN (an all-NaN result is NaN). Empty
// reductions raise ValueError unless `initial` is given. Complex: not supported yet.
Array max(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array min(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array nanmax(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array nanmin(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
// max - min (numpy's ptp).
Array ptp(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
// Means: integers and bool average in float64; `initial` is not accepted (numpy's neither).
Array mean(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array nanmean(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
// Variance and standard deviation (divisor count - ddof); complex input gives a real result.
Array var(const Array& a, const Axes& axis = {}, double ddof = 0, const ReduceOptions& o = {});
Array stddev(const Array& a, const Axes& axis = {}, double ddof = 0, const ReduceOptions& o = {});
Array nanvar(const Array& a, const Axes& axis = {}, double ddof = 0, const ReduceOptions& o = {});
Array nanstd(const Array& a, const Axes& axis = {}, double ddof = 0, const ReduceOptions& o = {});
// Truth reductions: any element nonzero / every element nonzero (NaN is true, as numpy).
Array any(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
Array all(const Array& a, const Axes& axis = {}, const ReduceOptions& o = {});
// Nonzero elements per result, int64.
Array count_nonzero(const Array& a, const Axes& axis = {}, bool keepdims = false);

// Index of the first maximum / minimum along `axis` (of the flattened array when none), int64.
// NaN counts as the extreme (numpy); the nan forms skip NaN and raise ValueError for an
// all-NaN slice. Empty reductions raise ValueError.
Array argmax(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Array argmin(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Array nanargmax(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);
Array nanargmin(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false);

// Dot products of vectors, each one fused reduction: vdot conjugates its first argument and
// flattens both; vecdot(a, b, axis) is sum(conj(a) * b, axis) over broadcast operands; inner
// of 1-d arrays is sum(a * b); of N-d arrays, tensordot over both last axes (a matmul).
Array vdot(const Array& a, const Array& b);
Array vecdot(const Array& a, const Array& b, int64_t axis = -1);
Array inner(const Array& a, const Array& b);

// The accumulation dtype numpy gives sum and prod by default: bool and signed integers below
// 64 bits → int64, unsigned → uint64, others unchanged.
DType sum_dtype(DType t);

// numpy's reduction axis normalization: sorted, each in range (AxisError), no duplicates
// (ValueError "duplicate value in 'axis'").
std::vector<int> reduction_axes(std::string_view op, const Axes& axis, int ndim);

}  // namespace vka
