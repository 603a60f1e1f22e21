// unique: sort, flag the first element of each run of equal values (NaNs are one run, as
// numpy 1.24's equal_nan), compact the flags (array/nonzero.h), and gather.
#include "array/sort.h"
#include "array/sort_radix.h"
#include "base/errors.h"

namespace vka {

UniqueResult unique(const Array& a, bool return_index, bool return_inverse, bool return_counts) {
  const std::shared_ptr<Context>& ctx = a.context();
  Array flat = ascontiguousarray(reshape(a, {-1}));
  const int64_t n = flat.size();
  UniqueResult r;
  if (n == 0) {
    r.values = flat;
    if (return_index) r.indices = zeros({0}, DType::kInt64, ctx);
    if (return_inverse) r.inverse = zeros({0}, DType::kInt64, ctx);
    if (return_counts) r.counts = zeros({0}, DType::kInt64, ctx);
    return r;
  }
  Array perm = sort_permutation(flat, n, "unique");
  Array sorted = gather(flat, {perm}, {0}, 0, /*checked=*/true, "unique");
  sorted.eval();
  Array pos = arange(0, static_cast<double>(n), 1, DType::kInt64, ctx);
  Array prev = gather(sorted, {maximum(pos - Arg(1), Arg(0))}, {0}, 0, /*checked=*/true, "unique");
  Array differs = not_equal(sorted, prev);
  if (is_floating(a.dtype()) || is_complex(a.dtype())) {
    differs = logical_and(differs, logical_not(logical_and(isnan(sorted), isnan(prev))));
  }
  Array firsts = flatnonzero(logical_or(equal(pos, Arg(0)), differs));
  const int64_t m = firsts.size();
  r.values = gather(sorted, {firsts}, {0}, 0, /*checked=*/true, "unique");
  if (return_index) {
    r.indices = gather(perm, {firsts}, {0}, 0, /*checked=*/true, "unique").astype(DType::kInt64);
  }
  if (return_counts) {
    Array k = arange(0, static_cast<double>(m), 1, DType::kInt64, ctx);
    Array next = gather(firsts, {minimum(k + Arg(1), Arg(m - 1))}, {0}, 0, true, "unique");
    r.counts = where(less(k + Arg(1), Arg(m)), next, Arg(n)) - firsts;
  }
  if (return_inverse) {
    // The run of sorted position p is the last first-occurrence at or before p.
    Array group = searchsorted(firsts, pos, /*right=*/true) - Arg(1);
    Array inverse = zeros({n}, DType::kInt64, ctx);
    inverse.eval();
    scatter(inverse, {perm}, {0}, 0, group, /*checked=*/true, "unique");
    r.inverse = inverse;
  }
  return r;
}

}  // namespace vka
