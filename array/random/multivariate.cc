// vka::random: dirichlet, multinomial, multivariate_hypergeometric and permuted
// (array/random/random.h), from the samplers' draws and array operations.
#include <cmath>

#include "array/random/random.h"

#include "array/gather.h"
#include "array/random/params.h"
#include "array/reduce.h"
#include "array/sort.h"
#include "array/views.h"
#include "base/errors.h"
#include "runtime/device_support.h"

namespace vka::random {
namespace {

using detail::Checks;
using detail::Cmp;

constexpr DType kF64 = DType::kFloat64;
constexpr DType kI64 = DType::kInt64;

Shape with_last(Shape batch, int64_t k) {
  batch.push_back(k);
  return batch;
}

}  // namespace

Array Generator::dirichlet(const Array& alpha, std::optional<Shape> size) {
  if (alpha.ndim() == 0) {
    throw DTypeError("[dirichlet] alpha must be a sequence (a 0-d value has no len())");
  }
  if (alpha.ndim() > 1) throw ShapeError("[dirichlet] object too deep for desired array");
  const Param a(alpha.astype(kF64));
  const Shape shape = with_last(size.value_or(Shape{}), alpha.shape()[0]);
  for (int64_t d : shape) {
    if (d < 0) throw ShapeError("[dirichlet] negative dimensions are not allowed");
  }
  Checks("dirichlet").fail_if(a, {{Cmp::kLessEqual, 0}}, "alpha <= 0").run();
  // Gammas G_i ~ gamma(alpha_i) normalized by their sum, from their logs (a row of tiny alphas
  // underflows every G_i to 0, numpy's NaN rows; its fallback for them is stick-breaking
  // with betas): exp(L_i - max L) / sum exp(L_j - max L).
  Array logs = sample("dirichlet", KernelKind::kRandomGamma, kF64, {a}, shape, 1);
  if (vka::size(shape) == 0) return logs;
  ReduceOptions keep;
  keep.keepdims = true;
  Array e = exp(logs - max(logs, Axes(-1), keep));
  return e / sum(e, Axes(-1), keep);
}

Array Generator::multinomial(const Param& n_p, const Array& pvals, std::optional<Shape> size) {
  if (pvals.ndim() == 0 || pvals.shape().back() == 0) {
    throw ShapeError(
        "[multinomial] pvals must have at least 1 dimension and the last dimension "
        "of pvals must be greater than 0.");
  }
  const Param n = detail::as_int("multinomial", n_p);
  const int64_t k = pvals.shape().back();
  const Array p = pvals.astype(kF64);
  const Param rows(p[{ellipsis, int64_t{0}}]);  // pvals' batch shape
  const Shape batch = detail::draw_shape("multinomial", size, {&n, &rows});
  const Array head_sum =
      k > 1 ? sum(p[{ellipsis, range(0, k - 1)}], Axes(-1)) : zeros(rows.shape(), kF64, context_);
  Checks("multinomial")
      .fail_if(n, {{Cmp::kLess, 0}}, "n < 0")
      .fail_if(Param(p), {{Cmp::kLess, 0}, {Cmp::kGreater, 1}, {Cmp::kNaN}},
               "pvals < 0, pvals > 1 or pvals contains NaNs")
      .fail_if(head_sum > Arg(1.0 + 1e-12), "sum(pvals[:-1]) > 1.0",
               {{"sum(pvals[:-1])", head_sum}})
      .run();
  Array out = zeros(with_last(batch, k), kI64, context_);
  if (vka::size(batch) == 0) return out;
  // Category by category, as numpy: X_j ~ binomial(n left, p_j / the probability left), the
  // last category what remains. The probabilities stay on the device (each launch binds its
  // column, broadcast to the batch). What is left is computed every round, so that the rounds
  // after the first run the same kernels (compiled once however many categories there are).
  Param left = n;
  std::optional<Array> p_left;
  for (int64_t j = 0; j + 1 < k; ++j) {
    Array col = p[{ellipsis, int64_t{j}}];
    Array ratio = p_left ? col / *p_left : col;
    Param pj(where(p_left ? *p_left > Arg(0.0) : col >= Arg(0.0),
                   minimum(maximum(ratio, Arg(0.0)), Arg(1.0)), Arg(1.0)));
    Array x = binomial_unchecked(left, pj, batch);
    out.set({ellipsis, int64_t{j}}, x);
    Array next = left.is_array() ? left.array() - x : Arg(left.int_value()) - x;
    if (j + 2 < k) {
      p_left = p_left ? *p_left - col : Arg(1.0) - col;
      eval(*p_left, next);
    }
    left = Param(next);
  }
  out.set({ellipsis, int64_t{k - 1}},
          left.is_array() ? left.array() : full(batch, Scalar::of_int(left.int_value()), context_));
  return out;
}

Array Generator::multivariate_hypergeometric(const std::vector<int64_t>& colors,
                                             const Param& nsample, std::optional<Shape> size) {
  const Shape batch = size.value_or(Shape{});
  const int64_t k = static_cast<int64_t>(colors.size());
  double total = 0;
  for (int64_t c : colors) {
    if (c < 0) {
      throw ShapeError(
          "[multivariate_hypergeometric] colors must be a one-dimensional sequence "
          "of nonnegative integers not exceeding 9223372036854775807.");
    }
    total += static_cast<double>(c);
  }
  if (total >= 9007199254740992.0) {
    throw ShapeError(
        "[multivariate_hypergeometric] the colors' total must be below 2^53 (the "
        "sampler's float64 arithmetic), got " +
        std::to_string(total));
  }
  Checks("multivariate_hypergeometric")
      .fail_if(nsample, {{Cmp::kLess, 0}}, "nsample must be nonnegative.")
      .fail_if(nsample, {{Cmp::kGreater, total}}, "nsample > sum(colors)")
      .run();
  Array out = zeros(with_last(batch, k), kI64, context_);
  if (vka::size(batch) == 0 || k == 0) return out;
  // The marginal method: color j's count among what is still to draw is hypergeometric against
  // the colors after it. What is left to draw is computed every round, as multinomial's.
  int64_t rest = static_cast<int64_t>(total);
  Param left = detail::as_int("multivariate_hypergeometric", nsample);
  for (int64_t j = 0; j + 1 < k; ++j) {
    rest -= colors[j];
    Array x = hypergeometric_unchecked(Param(colors[j]), Param(rest), left, batch);
    out.set({ellipsis, int64_t{j}}, x);
    Array next = left.is_array() ? left.array() - x : Arg(left.int_value()) - x;
    if (j + 2 < k) next.eval();
    left = Param(next);
  }
  out.set({ellipsis, int64_t{k - 1}},
          left.is_array() ? left.array() : full(batch, Scalar::of_int(left.int_value()), context_));
  return out;
}

Array Generator::permuted(const Array& x, std::optional<int64_t> axis) {
  if (!axis) return reshape(permutation(reshape(x, {x.size()}), 0), x.shape());
  const int ax = normalize_axis("permuted", *axis, x.ndim());
  // Independent orders per slice: a stable argsort of random 64-bit keys along the axis.
  require_dtype(*context_, DType::kUInt64, "permuted");
  const Shape shape = x.shape();
  Array keys =
      draw("permuted", shape, DType::kUInt64, (static_cast<uint64_t>(x.size()) + 1) / 2,
           [&](uint64_t key, uint64_t c) { return bits(shape, DType::kUInt64, 1, 0, key, c); });
  return take_along_axis(x, argsort(keys, ax), ax);
}

}  // namespace vka::random
