// vka::random: the discrete distributions (array/random/random.h), int64. geometric is a closed
// form (it fuses); the others draw with the looping samplers of kernels/lib/random_draw.h.
#include <cmath>

#include "array/random/params.h"
#include "array/random/random.h"
#include "base/errors.h"

namespace vka::random {
namespace {

using detail::as_float;
using detail::as_int;
using detail::Bad;
using detail::Checks;
using detail::Cmp;
using detail::draw_shape;

constexpr DType kI64 = DType::kInt64;
constexpr DType kF64 = DType::kFloat64;
// numpy's largest Poisson mean: int64's largest minus ten of its square roots, so that draws
// stay below 2^63.
constexpr double kPoissonLamMax = 9223372036854775807.0 - 30370004999.760561;
// numpy's bound on hypergeometric's ngood and nbad.
constexpr double kHypergeometricMax = 1e9;

}  // namespace

Array Generator::poisson(const Param& lam_p, std::optional<Shape> size) {
  const Param lam = as_float(lam_p);
  const Shape shape = draw_shape("poisson", size, {&lam});
  // numpy counts a NaN in an array as too large, a NaN number as invalid.
  const bool arr = lam.is_array();
  Checks("poisson")
      .fail_if(lam, {{Cmp::kLess, 0}, {arr ? Cmp::kLess : Cmp::kNaN, 0}}, "lam < 0 or lam is NaN")
      .fail_if(lam,
               {{Cmp::kGreater, kPoissonLamMax}, {arr ? Cmp::kNaN : Cmp::kGreater, kPoissonLamMax}},
               "lam value too large")
      .run();
  return sample("poisson", KernelKind::kRandomPoisson, kI64, {lam}, shape);
}

Array Generator::binomial_unchecked(const Param& n, const Param& p, const Shape& size) {
  return sample("binomial", KernelKind::kRandomBinomial, kI64, {n, p}, size);
}

Array Generator::binomial(const Param& n_p, const Param& p_p, std::optional<Shape> size) {
  const Param n = as_int("binomial", n_p), p = as_float(p_p);
  const Shape shape = draw_shape("binomial", size, {&n, &p});
  Checks("binomial")
      .fail_if(n, {{Cmp::kLess, 0}}, "n < 0")
      .fail_if(p, {{Cmp::kLess, 0}, {Cmp::kGreater, 1}, {Cmp::kNaN}}, "p < 0, p > 1 or p is NaN")
      .run();
  return binomial_unchecked(n, p, shape);
}

Array Generator::negative_binomial(const Param& n_p, const Param& p_p, std::optional<Shape> size) {
  const Param n = as_float(n_p), p = as_float(p_p);
  const Shape shape = draw_shape("negative_binomial", size, {&n, &p});
  Checks checks("negative_binomial");
  checks.fail_if(n, {{Cmp::kNaN}}, "n must not be NaN")
      .fail_if(n, {{Cmp::kLessEqual, 0}}, "n <= 0")
      .fail_if(p, {{Cmp::kLessEqual, 0}, {Cmp::kGreater, 1}, {Cmp::kNaN}},
               "p <= 0, p > 1 or p contains NaNs");
  // numpy's bound: the Poisson means (gamma draws) stay below kPoissonLamMax but for a tail
  // beyond ten standard deviations.
  const char* too_large = "n too large or p too small, see Generator.negative_binomial Notes";
  if (n.is_array() || p.is_array()) {
    const Array pa = detail::as_array(p, shape, kF64, context_);
    const Array na = detail::as_array(n, shape, kF64, context_);
    checks.fail_if((Arg(1.0) - pa) / pa * (na + Arg(10.0) * sqrt(na)) > Arg(kPoissonLamMax),
                   too_large, {{"n", n}, {"p", p}});
  } else {
    checks.fail_if(
        (1 - p.value()) / p.value() * (n.value() + 10 * std::sqrt(n.value())) > kPoissonLamMax,
        too_large, {{"n", n}, {"p", p}});
  }
  checks.run();
  // A Poisson draw of mean gamma(n) (1 - p) / p.
  Array g = sample("negative_binomial", KernelKind::kRandomGamma, kF64, {n}, shape);
  Array lam = g * ((Arg(1.0) - detail::as_array(p, shape, kF64, context_)) / p.arg());
  return sample("negative_binomial", KernelKind::kRandomPoisson, kI64, {Param(lam)}, shape);
}

Array Generator::geometric(const Param& p_p, std::optional<Shape> size) {
  const Param p = as_float(p_p);
  const Shape shape = draw_shape("geometric", size, {&p});
  Checks("geometric")
      .fail_if(p, {{Cmp::kLessEqual, 0}, {Cmp::kGreater, 1}, {Cmp::kNaN}},
               "p <= 0, p > 1 or p contains NaNs")
      .run();
  // Inversion: ceil(E / -log(1 - p)) for an exponential E > 0, at least 1 (p = 1), at most the
  // largest int64 (numpy's int64 cast of a larger value is undefined).
  return draw("geometric", shape, kI64, (static_cast<uint64_t>(vka::size(shape)) + 1) / 2,
              [&](uint64_t k, uint64_t c) {
                Array e = -log(uniform_at(shape, k, c, 1, 0, true));
                Array x = ceil(e / -log1p(-detail::as_array(p, shape, kF64, context_)));
                return minimum(maximum(x, Arg(1.0)), Arg(9223372036854774784.0)).astype(kI64);
              });
}

Array Generator::hypergeometric_unchecked(const Param& ngood, const Param& nbad,
                                          const Param& nsample, const Shape& size) {
  return sample("hypergeometric", KernelKind::kRandomHypergeometric, kI64, {ngood, nbad, nsample},
                size);
}

Array Generator::hypergeometric(const Param& ngood_p, const Param& nbad_p, const Param& nsample_p,
                                std::optional<Shape> size) {
  const Param good = as_int("hypergeometric", ngood_p), bad = as_int("hypergeometric", nbad_p),
              sample_n = as_int("hypergeometric", nsample_p);
  const Shape shape = draw_shape("hypergeometric", size, {&good, &bad, &sample_n});
  Checks checks("hypergeometric");
  const char* too_many = "both ngood and nbad must be less than 1000000000";
  const char* too_few = "ngood + nbad < nsample";
  if (good.is_array() || bad.is_array() || sample_n.is_array()) {
    const Array g = detail::as_array(good, shape, kI64, context_);
    const Array b = detail::as_array(bad, shape, kI64, context_);
    checks
        .fail_if(logical_or(g >= Arg(kHypergeometricMax), b >= Arg(kHypergeometricMax)), too_many,
                 {{"ngood", good}, {"nbad", bad}})
        .fail_if(g + b < sample_n.arg(), too_few,
                 {{"ngood", good}, {"nbad", bad}, {"nsample", sample_n}});
  } else {
    checks
        .fail_if(good.value() >= kHypergeometricMax || bad.value() >= kHypergeometricMax, too_many,
                 {{"ngood", good}, {"nbad", bad}})
        .fail_if(good.int_value() + bad.int_value() < sample_n.int_value(), too_few,
                 {{"ngood", good}, {"nbad", bad}, {"nsample", sample_n}});
  }
  checks.fail_if(good, {{Cmp::kLess, 0}}, "ngood < 0")
      .fail_if(bad, {{Cmp::kLess, 0}}, "nbad < 0")
      .fail_if(sample_n, {{Cmp::kLess, 0}}, "nsample < 0")
      .run();
  return hypergeometric_unchecked(good, bad, sample_n, shape);
}

Array Generator::zipf(const Param& a_p, std::optional<Shape> size) {
  const Param a = as_float(a_p);
  const Shape shape = draw_shape("zipf", size, {&a});
  Checks("zipf").fail_if(a, {{Cmp::kLessEqual, 1}, {Cmp::kNaN}}, "a <= 1 or a is NaN").run();
  return sample("zipf", KernelKind::kRandomZipf, kI64, {a}, shape);
}

Array Generator::logseries(const Param& p_p, std::optional<Shape> size) {
  const Param p = as_float(p_p);
  const Shape shape = draw_shape("logseries", size, {&p});
  Checks("logseries")
      .fail_if(p, {{Cmp::kLess, 0}, {Cmp::kGreaterEqual, 1}, {Cmp::kNaN}},
               "p < 0, p >= 1 or p is NaN")
      .run();
  return sample("logseries", KernelKind::kRandomLogseries, kI64, {p}, shape);
}

}  // namespace vka::random
