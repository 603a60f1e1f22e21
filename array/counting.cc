// bincount and histogram: counts come from one pass of integer atomics (kernels/lib/
// counting.h); weighted sums add each bin's weights in input order (a stable sort by bin, the
// runs' bounds from the counts, then one ordered sum per bin: kernels/lib/sort.h segment_sum),
// so results are deterministic and equal numpy's.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "array/reduce.h"
#include "array/sort.h"
#include "array/sort_radix.h"
#include "array/views.h"
#include "base/errors.h"
#include "kernels/lib/counting.h"
#include "kernels/lib/sort.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {
namespace {

// Two elements of a 1-d array, read back: (x[i], x[j]).
template <typename T>
std::pair<T, T> read_two(const Array& x, int64_t i, int64_t j) {
  const int64_t at[2] = {i, j};
  Array idx = Array::from_host(at, {2}, DType::kInt64, x.context());
  std::vector<T> v = gather(x, {idx}, {0}, 0, /*checked=*/true).to_vector<T>();
  return {v[0], v[1]};
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// out[k] = sum of sorted_weights[bounds[k] .. bounds[k + 1]), k < m (kernels/lib/sort.cc: in
// input order up to 4096 elements, as numpy adds; longer segments in 256 blocks and a tree).
Array segment_sums(const Array& sorted_weights, const Array& bounds, int64_t m) {
  const std::shared_ptr<Context>& ctx = sorted_weights.context();
  // float64 values already in a buffer of their own (sort_by_key's) are read where they are.
  const Array w = flat_buffer(sorted_weights, DType::kFloat64);
  const Array b = flat_buffer(bounds, DType::kInt64);
  auto out = allocate_for(ctx, DType::kFloat64, {std::max<int64_t>(m, 1)});
  dispatch_library(
      ctx, segment_sum_spec(),
      {device_buffer(*w.node()->buffer()), device_buffer(*b.node()->buffer()), device_buffer(*out)},
      m, sort_groups(m, 1));  // one workgroup per segment
  return Array(default_graph().buffer(out, DType::kFloat64, View::contiguous({m})), ctx);
}

// numpy's pairwise summation (the order of ndarray.sum for contiguous data).
template <typename T>
T pairwise_sum(const T* v, int64_t n) {
  if (n < 8) {
    T s = 0;
    for (int64_t i = 0; i < n; ++i) s += v[i];
    return s;
  }
  if (n <= 128) {
    T r[8];
    for (int k = 0; k < 8; ++k) r[k] = v[k];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int k = 0; k < 8; ++k) r[k] += v[i + k];
    }
    T s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += v[i];
    return s;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(v, n2) + pairwise_sum(v + n2, n - n2);
}

// numpy's density: hist / diff(edges) / hist.sum(), on the host (bins are few).
template <typename T>
Array density_of(const Array& hist, const Array& edges) {
  std::vector<T> h = hist.to_vector<T>();
  // np.diff runs in the edges' dtype before numpy converts it to float.
  Array d = subtract(edges[Index{range(1, std::nullopt)}], edges[Index{range(std::nullopt, -1)}]);
  std::vector<double> db = d.astype(DType::kFloat64).to_vector<double>();
  const double total = static_cast<double>(pairwise_sum(h.data(), static_cast<int64_t>(h.size())));
  std::vector<double> out(h.size());
  for (size_t k = 0; k < h.size(); ++k) out[k] = static_cast<double>(h[k]) / db[k] / total;
  return Array::from_host(out.data(), {static_cast<int64_t>(out.size())}, DType::kFloat64,
                          hist.context());
}

// The counts of `data` (int64 or int32, computed, contiguous from element 0 of its buffer,
// every value in [0, length)) in `length` bins, or with `weights` (as many) the sums of each
// bin's weights in input order (float64).
Array count_into_bins(const Array& data, int64_t length, const std::optional<Array>& weights,
                      std::string_view op) {
  const std::shared_ptr<Context>& ctx = data.context();
  const int64_t n = data.size();
  if (n >= (int64_t{1} << 32) - 1) {
    throw ShapeError("[" + std::string(op) +
                     "] counting 2^32 - 1 values or more is not supported yet (got " +
                     std::to_string(n) + ")");
  }
  // Weighted: one more bin, never hit, so that the exclusive sums of the counts are the
  // length + 1 bounds of the bins' runs in the values sorted by bin.
  const int64_t bins = weights ? length + 1 : length;
  auto counts = allocate_for(ctx, DType::kUInt32, {bins});
  zero_fill(ctx, *device_buffer(*counts));
  dispatch_library(ctx, bincount_spec(data.dtype()),
                   {device_buffer(*data.node()->buffer()), device_buffer(*counts)}, n,
                   sort_groups(n, int64_t{kBincountThreads} * 64),
                   {Scalar::of_int(bins, DType::kInt64)});
  Array c = Array(default_graph().buffer(counts, DType::kUInt32, View::contiguous({bins})), ctx)
                .astype(DType::kInt64);
  if (!weights) return c;
  Array bounds = cumsum(c) - c;
  // The stable order by bin (32-bit keys where the bins allow: half the sort's traffic), the
  // weights in that order (moved with the keys through the sort's passes where the device
  // runs the 8-bit form, else gathered through the sorting permutation), and each bin's run
  // summed in input order.
  Array keys = data.dtype() == DType::kInt64 && length - 1 <= int64_t{UINT32_MAX}
                   ? data.astype(DType::kUInt32)
                   : data;
  const Array w = weights->dtype() == DType::kFloat64 ? *weights : weights->astype(DType::kFloat64);
  std::optional<Array> sw = sort_by_key(keys, w, op);
  if (!sw) {
    Array perm = sort_permutation(keys, n, op);
    sw = gather(ascontiguousarray(w), {perm}, {0}, 0, /*checked=*/true, op);
  }
  return segment_sums(*sw, bounds, length);
}

// Shared tail of both histogram forms: `bin` holds each element's bin in [0, nbins], nbins
// for elements outside the edges.
std::pair<Array, Array> finish(const Array& bin, int64_t nbins, const Array& edges,
                               bool density, const std::optional<Array>& weights) {
  // Bins are known to lie in [0, nbins]: counted from int32 (half the traffic), with no read of
  // their range.
  Array counts = zeros({nbins + 1}, DType::kInt64, bin.context());
  if (bin.size() > 0) {
    counts = count_into_bins(flat_buffer(bin, DType::kInt32), nbins + 1,
                             weights ? std::optional<Array>(reshape(*weights, {-1})) : std::nullopt,
                             "histogram");
  }
  Array hist = counts[Index{range(0, nbins)}];
  if (weights) hist = hist.astype(weights->dtype());
  if (!density) return {hist, edges};
  switch (hist.dtype()) {
    case DType::kInt64: return {density_of<int64_t>(hist, edges), edges};
    case DType::kFloat32: return {density_of<float>(hist, edges), edges};
    default: return {density_of<double>(hist.astype(DType::kFloat64), edges), edges};
  }
}

void check_histogram_input(const Array& a, const std::optional<Array>& weights) {
  if (is_complex(a.dtype())) {
    throw DTypeError("[histogram] complex arrays are not supported yet");
  }
  if (weights && weights->shape() != a.shape()) {
    throw ShapeError("[histogram] weights should have the same shape as a (got " +
                     to_string(weights->shape()) + " and " + to_string(a.shape()) + ")");
  }
  if (weights && is_complex(weights->dtype())) {
    throw DTypeError("[histogram] complex weights are not supported yet");
  }
}

// The element's bin for sorted edges e[0..nbins] in the promoted dtype: numpy's
// searchsorted(edges, x, 'right') - 1, the last edge inside the last bin, nbins outside.
Array bin_of(const Array& x, const Array& edges, int64_t nbins) {
  Array e0 = edges[Index{0}], elast = edges[Index{nbins}];
  Array idx = searchsorted(edges, x, /*right=*/true) - Arg(1);
  idx = where(equal(x, elast), Arg(nbins - 1), idx);
  Array keep = logical_and(greater_equal(x, e0), less_equal(x, elast));
  return where(keep, idx, Arg(nbins));
}

// bin_of for the `nbins` equal bins of [first, last] (edges e), as numpy computes it: an
// estimate from the value's offset, then one step down or up where the value falls outside
// its estimated bin's edges. Equal to bin_of while the estimate is off by at most one bin,
// which the float64 estimate is; no binary search.
Array uniform_bin_of(const Array& x, const Array& edges, int64_t nbins, double first,
                     double last) {
  Array e0 = edges[Index{0}], elast = edges[Index{nbins}];
  Array keep = logical_and(greater_equal(x, e0), less_equal(x, elast));
  const double norm = static_cast<double>(nbins) / (last - first);
  Array f = (x.astype(DType::kFloat64) - Arg(first)) * Arg(norm);
  f = where(keep, f, Arg(0.0));  // NaN and values outside: any bin, replaced below
  Array idx = minimum(maximum(f, Arg(0.0)), Arg(static_cast<double>(nbins - 1)))
                  .astype(DType::kInt64);
  auto edge = [&](const Array& i) { return gather(edges, {i}, {0}, 0, /*checked=*/true); };
  idx = maximum(idx - less(x, edge(idx)).astype(DType::kInt64), Arg(int64_t{0}));
  Array up = logical_and(greater_equal(x, edge(idx + Arg(int64_t{1}))),
                         not_equal(idx, Arg(nbins - 1)));
  idx = idx + up.astype(DType::kInt64);
  return where(keep, idx, Arg(nbins));
}

}  // namespace

Array bincount(const Array& x, const std::optional<Array>& weights, int64_t minlength) {
  const std::shared_ptr<Context>& ctx = x.context();
  if (!is_integer(x.dtype()) && !is_bool(x.dtype())) {
    throw DTypeError("[bincount] cannot cast array data from " + std::string(name(x.dtype())) +
                     " to int64 according to the rule 'safe'");
  }
  if (x.dtype() == DType::kUInt64) {
    throw DTypeError("[bincount] cannot cast array data from uint64 to int64 according to the "
                     "rule 'safe'");
  }
  if (x.ndim() != 1) {
    throw ShapeError(std::string("[bincount] object ") +
                     (x.ndim() == 0 ? "of too small depth" : "too deep") +
                     " for desired array (the input must be 1-d, got shape " +
                     to_string(x.shape()) + ")");
  }
  if (minlength < 0) {
    throw ShapeError("[bincount] 'minlength' must not be negative, got " +
                     std::to_string(minlength));
  }
  if (weights && weights->shape() != x.shape()) {
    throw ShapeError("[bincount] the weights and list don't have the same length (" +
                     to_string(weights->shape()) + " and " + to_string(x.shape()) + ")");
  }
  if (weights && is_complex(weights->dtype())) {
    throw DTypeError("[bincount] cannot cast complex weights to float64");
  }
  const int64_t length = minlength;
  if (x.size() == 0) return zeros({length}, DType::kInt64, ctx);  // int64 with weights too
  // The values computed once, from element 0 of a buffer; the bins from their extremes (one
  // read); then every value counted with atomics.
  const Array data = flat_buffer(x, DType::kInt64);
  Array lo = min(data), hi = max(data);
  eval(lo, hi);
  const int64_t ends[2] = {lo.to_vector<int64_t>()[0], hi.to_vector<int64_t>()[0]};
  if (ends[0] < 0) {
    throw ShapeError("[bincount] 'list' argument must have no negative elements, got " +
                     std::to_string(ends[0]));
  }
  return count_into_bins(data, std::max(length, ends[1] + 1), weights, "bincount");
}

std::pair<Array, Array> histogram(const Array& a, int64_t bins,
                                  std::optional<std::pair<double, double>> range, bool density,
                                  const std::optional<Array>& weights) {
  check_histogram_input(a, weights);
  if (bins < 1) {
    throw ShapeError("[histogram] `bins` must be positive, when an integer (got " +
                     std::to_string(bins) + ")");
  }
  const std::shared_ptr<Context>& ctx = a.context();
  // numpy computes the edges in float64 and stores them in a's float dtype (float64 for
  // integers and bool).
  const DType edge_t = is_floating(a.dtype()) ? a.dtype() : DType::kFloat64;
  Array x = reshape(a, {-1}).astype(edge_t);
  double first = 0, last = 1;
  if (range) {
    std::tie(first, last) = *range;
    if (first > last) {
      throw ShapeError("[histogram] max must be larger than min in range parameter (got [" +
                       number(first) + ", " + number(last) + "])");
    }
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw ShapeError("[histogram] supplied range of [" + number(first) + ", " + number(last) +
                       "] is not finite");
    }
  } else if (x.size() > 0) {
    // The data's min and max: the ends of the sorted values (NaN sorts last).
    Array sorted = sort(reshape(a, {-1}).astype(DType::kFloat64), std::nullopt);
    std::tie(first, last) = read_two<double>(sorted, 0, x.size() - 1);
    if (std::isnan(last)) first = std::isnan(first) ? first : last;
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw ShapeError("[histogram] autodetected range of [" + number(first) + ", " +
                       number(last) + "] is not finite");
    }
  }
  if (first == last) {
    first -= 0.5;
    last += 0.5;
  }
  // numpy.linspace(first, last, bins + 1) in float64.
  std::vector<double> e(static_cast<size_t>(bins) + 1);
  const double delta = last - first, step = delta / static_cast<double>(bins);
  for (int64_t i = 0; i <= bins; ++i) {
    const double y = step == 0 ? static_cast<double>(i) / static_cast<double>(bins) * delta
                               : static_cast<double>(i) * step;
    e[static_cast<size_t>(i)] = y + first;
  }
  e.back() = last;
  Array edges =
      Array::from_host(e.data(), {bins + 1}, DType::kFloat64, ctx).astype(edge_t);
  edges.eval();
  return finish(uniform_bin_of(x, edges, bins, first, last), bins, edges, density, weights);
}

std::pair<Array, Array> histogram(const Array& a, const Array& edges, bool density,
                                  const std::optional<Array>& weights) {
  check_histogram_input(a, weights);
  if (edges.ndim() != 1) {
    throw ShapeError("[histogram] `bins` must be 1d, when an array (got shape " +
                     to_string(edges.shape()) + ")");
  }
  const int64_t nbins = edges.size() - 1;
  if (nbins < 1) {
    throw ShapeError("[histogram] `bins` needs at least 2 edges, got " +
                     std::to_string(edges.size()));
  }
  std::vector<double> e = edges.astype(DType::kFloat64).to_vector<double>();
  for (size_t k = 1; k < e.size(); ++k) {
    if (!(e[k - 1] <= e[k])) {
      throw ShapeError("[histogram] `bins` must increase monotonically, when an array");
    }
  }
  const DType t = result_type(a.dtype(), edges.dtype());
  Array x = reshape(a, {-1}).astype(t);
  Array et = edges.astype(t);
  return finish(bin_of(x, et, nbins), nbins, edges, density, weights);
}

}  // namespace vka
