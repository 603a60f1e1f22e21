// vka::random: permutations, shuffle and choice (array/random/random.h), on the device's sort,
// prefix sums and searchsorted.
#include <cmath>
#include <limits>

#include "array/random/random.h"
#include "array/reduce.h"
#include "array/sort.h"
#include "base/errors.h"
#include "runtime/device_support.h"

namespace vka::random {
namespace {

// numpy's tolerance on sum(p) - 1: sqrt(eps) of float64, or of p's coarser float dtype.
double sum_tolerance(DType t) {
  double eps = std::numeric_limits<double>::epsilon();
  if (t == DType::kFloat32) eps = std::numeric_limits<float>::epsilon();
  if (t == DType::kFloat16) eps = std::ldexp(1.0, -10);
  return std::sqrt(eps);
}

double host_double(const Array& a) { return a.astype(DType::kFloat64).to_vector<double>()[0]; }

}  // namespace

Array Generator::sort_keys(int64_t n) {
  require_dtype(*context_, DType::kUInt64, "permutation");
  const Shape size = {n};
  return draw("permutation", size, DType::kUInt64, (static_cast<uint64_t>(n) * 2 + 3) / 4,
              [&](uint64_t k, uint64_t c) { return bits(size, DType::kUInt64, 1, 0, k, c); });
}

Array Generator::permutation(int64_t n) {
  if (n < 0) throw ShapeError("[permutation] negative dimensions are not allowed");
  return argsort(sort_keys(n));
}

Array Generator::permutation(const Array& x, int64_t axis) {
  const int ax = normalize_axis("permutation", axis, x.ndim());
  return take(x, permutation(x.shape()[ax]), ax);
}

void Generator::shuffle(const Array& x, int64_t axis) {
  const int ax = normalize_axis("shuffle", axis, x.ndim());
  if (!x.is_writeable()) throw ShapeError("[shuffle] assignment destination is read-only");
  x.set({ellipsis}, take(x, permutation(x.shape()[ax]), ax));
}

Array Generator::choice(int64_t n, const Shape& size, bool replace, const std::optional<Array>& p) {
  const int64_t k = vka::size(size);
  if (n <= 0 && k != 0) {
    throw ShapeError("[choice] a must be a positive integer unless no samples are taken");
  }
  std::optional<Array> p64;
  if (p) {
    if (p->ndim() != 1) throw ShapeError("[choice] p must be 1-dimensional");
    if (p->shape()[0] != std::max<int64_t>(n, 0)) {
      throw ShapeError("[choice] a and p must have same size");
    }
    if (!is_floating(p->dtype()) && !is_integer(p->dtype()) && !is_bool(p->dtype())) {
      throw DTypeError("[choice] p must be real, got " + std::string(name(p->dtype())));
    }
    p64 = p->astype(DType::kFloat64);
    const double total = n > 0 ? host_double(sum(*p64)) : 0.0;
    if (std::isnan(total)) throw ShapeError("[choice] probabilities contain NaN");
    if (n > 0 && host_double(min(*p64)) < 0) {
      throw ShapeError("[choice] probabilities are not non-negative");
    }
    if (std::abs(total - 1.0) > sum_tolerance(p->dtype())) {
      throw ShapeError("[choice] probabilities do not sum to 1");
    }
  }
  if (k == 0) return zeros(size, DType::kInt64, context_);
  if (replace) {
    if (!p64) return integers(0, n, size, DType::kInt64);
    Array cdf = cumsum(*p64);
    cdf = cdf / cdf[{int64_t{n - 1}}];
    return searchsorted(cdf, random(size, DType::kFloat64), true);
  }
  if (k > n) {
    throw ShapeError("[choice] Cannot take a larger sample than population when replace is False");
  }
  Array order;
  if (p64) {
    const int64_t positive = count_nonzero(*p64 > Arg(0.0)).to_vector<int64_t>()[0];
    if (positive < k) throw ShapeError("[choice] Fewer non-zero entries in p than size");
    // Efraimidis-Spirakis: the k smallest E_i / p_i (E_i ~ exponential(1)); p_i = 0 gives inf.
    order = argsort(standard_exponential({n}, DType::kFloat64) / *p64);
  } else {
    order = permutation(n);
  }
  return reshape(order[{range(0, k)}], size);
}

Array Generator::choice(const Array& x, const Shape& size, bool replace,
                        const std::optional<Array>& p, int64_t axis, bool /*shuffle*/) {
  if (x.ndim() == 0) {
    throw ShapeError("[choice] a must be a sequence or an integer, not a 0-d array");
  }
  const int ax = normalize_axis("choice", axis, x.ndim());
  const int64_t n = x.shape()[ax];
  if (n == 0 && vka::size(size) != 0) {
    throw ShapeError("[choice] a cannot be empty unless no samples are taken");
  }
  return take(x, choice(n, size, replace, p), ax);
}

}  // namespace vka::random
