// vka::random: the continuous distributions (array/random/random.h). Closed forms are
// elementwise expressions of the stream (they fuse with what follows); the gamma family draws
// its gammas with the looping sampler (kernels/lib/random_draw.h), von Mises too.
#include <cmath>
#include <limits>

#include "array/random/params.h"
#include "array/random/random.h"
#include "base/errors.h"

namespace vka::random {
namespace {

using detail::as_float;
using detail::Bad;
using detail::Checks;
using detail::Cmp;
using detail::draw_shape;

constexpr DType kF64 = DType::kFloat64;
constexpr double kPi = 3.141592653589793;
constexpr Bad kNegative{Cmp::kSignBit};  // numpy's CONS_NON_NEGATIVE
constexpr Bad kNotPositive{Cmp::kLessEqual, 0};

// Blocks of a draw whose elements read `stride` 64-bit units each (two units a block).
uint64_t unit_blocks(const Shape& shape, uint32_t stride) {
  return (static_cast<uint64_t>(size(shape)) * stride + 1) / 2;
}

Param scaled(const Param& p, double k) {
  return p.is_array() ? Param(p.array() * Arg(k)) : Param(p.value() * k);
}

// -log(1 - u): exponential(1) from a uniform in [0, 1).
Array exponential_of(const Array& u) { return -log1p(-u); }

}  // namespace

Array Generator::uniform_at(const Shape& size, uint64_t key, uint64_t counter, uint32_t stride,
                            uint32_t offset, bool open) const {
  Array b = (bits(size, DType::kUInt64, stride, offset, key, counter) >> 11).astype(kF64);
  return (open ? b + Arg(0.5) : b) * Arg(std::ldexp(1.0, -53));
}

Array Generator::normal_at(const Shape& size, uint64_t key, uint64_t counter, uint32_t stride,
                           uint32_t offset) const {
  Array u1 = uniform_at(size, key, counter, stride, offset);
  Array u2 = uniform_at(size, key, counter, stride, offset + 1);
  return sqrt(Arg(-2.0) * log1p(-u1)) * cos(Arg(2 * kPi) * u2);
}

Array Generator::standard_gamma(const Param& shape_p, std::optional<Shape> size, DType dtype) {
  if (dtype != DType::kFloat32 && dtype != kF64) {
    throw DTypeError("[standard_gamma] Unsupported dtype " + std::string(name(dtype)) +
                     " for standard_gamma (float32 or float64)");
  }
  // float32 draws take float32 shapes (numpy's float32 sampler's), float64 ones float64.
  const Param a = dtype == DType::kFloat32 && shape_p.is_array()
                      ? Param(shape_p.array().astype(DType::kFloat32))
                      : as_float(shape_p);
  const Shape shape = draw_shape("standard_gamma", size, {&a});
  Checks("standard_gamma").fail_if(a, {kNegative}, "shape < 0").run();
  return sample("standard_gamma", KernelKind::kRandomGamma, dtype, {a}, shape);
}

Array Generator::gamma(const Param& shape_p, const Param& scale, std::optional<Shape> size) {
  const Param a = as_float(shape_p), s = as_float(scale);
  const Shape shape = draw_shape("gamma", size, {&a, &s});
  Checks("gamma").fail_if(a, {kNegative}, "shape < 0").fail_if(s, {kNegative}, "scale < 0").run();
  return s.arg() * sample("gamma", KernelKind::kRandomGamma, kF64, {a}, shape);
}

Array Generator::beta(const Param& a_p, const Param& b_p, std::optional<Shape> size) {
  const Param a = as_float(a_p), b = as_float(b_p);
  const Shape shape = draw_shape("beta", size, {&a, &b});
  Checks("beta").fail_if(a, {kNotPositive}, "a <= 0").fail_if(b, {kNotPositive}, "b <= 0").run();
  // X / (X + Y) for gammas X, Y, from their logs: tiny shapes underflow X and Y themselves.
  Array lx = sample("beta", KernelKind::kRandomGamma, kF64, {a}, shape, 1);
  Array ly = sample("beta", KernelKind::kRandomGamma, kF64, {b}, shape, 1);
  return Arg(1.0) / (Arg(1.0) + exp(ly - lx));
}

Array Generator::chisquare(const Param& df_p, std::optional<Shape> size) {
  const Param df = as_float(df_p);
  const Shape shape = draw_shape("chisquare", size, {&df});
  Checks("chisquare").fail_if(df, {kNotPositive}, "df <= 0").run();
  return Arg(2.0) * sample("chisquare", KernelKind::kRandomGamma, kF64, {scaled(df, 0.5)}, shape);
}

Array Generator::noncentral_chisquare(const Param& df_p, const Param& nonc_p,
                                      std::optional<Shape> size) {
  const Param df = as_float(df_p), nonc = as_float(nonc_p);
  const Shape shape = draw_shape("noncentral_chisquare", size, {&df, &nonc});
  Checks("noncentral_chisquare")
      .fail_if(df, {kNotPositive}, "df <= 0")
      .fail_if(nonc, {kNegative}, "nonc < 0")
      .run();
  // chi2(df, nonc) = chi2(df + 2 I), I ~ Poisson(nonc / 2): for every df > 0 (numpy takes
  // chi2(df - 1) + (Z + sqrt(nonc))^2 for df > 1 instead: the same law). NaN and inf
  // noncentralities give NaN and inf.
  Param lam = scaled(nonc, 0.5);
  if (nonc.is_array()) {
    lam = Param(where(isfinite(nonc.array()), lam.array(), Arg(0.0)));
  } else if (!std::isfinite(nonc.value())) {
    return full(shape, Scalar::of_double(nonc.value()), context_);
  }
  Array i = sample("noncentral_chisquare", KernelKind::kRandomPoisson, DType::kInt64, {lam}, shape);
  Array half = scaled(df, 0.5).arg() + i.astype(kF64);
  Array chi2 = Arg(2.0) *
               sample("noncentral_chisquare", KernelKind::kRandomGamma, kF64, {Param(half)}, shape);
  if (!nonc.is_array()) return chi2;
  return where(isfinite(nonc.array()), chi2, nonc.array());
}

Array Generator::f(const Param& dfnum_p, const Param& dfden_p, std::optional<Shape> size) {
  const Param dn = as_float(dfnum_p), dd = as_float(dfden_p);
  const Shape shape = draw_shape("f", size, {&dn, &dd});
  Checks("f")
      .fail_if(dn, {kNotPositive}, "dfnum <= 0")
      .fail_if(dd, {kNotPositive}, "dfden <= 0")
      .run();
  const Param hn = scaled(dn, 0.5), hd = scaled(dd, 0.5);
  Array gn = sample("f", KernelKind::kRandomGamma, kF64, {hn}, shape);
  Array gd = sample("f", KernelKind::kRandomGamma, kF64, {hd}, shape);
  return (gn / hn.arg()) / (gd / hd.arg());
}

Array Generator::noncentral_f(const Param& dfnum_p, const Param& dfden_p, const Param& nonc_p,
                              std::optional<Shape> size) {
  const Param dn = as_float(dfnum_p), dd = as_float(dfden_p), nonc = as_float(nonc_p);
  const Shape shape = draw_shape("noncentral_f", size, {&dn, &dd, &nonc});
  Checks("noncentral_f")
      .fail_if(dn, {kNotPositive}, "dfnum <= 0")
      .fail_if(dd, {kNotPositive}, "dfden <= 0")
      .fail_if(nonc, {kNegative}, "nonc < 0")
      .run();
  Array t = noncentral_chisquare(dn, nonc, shape) * dd.arg();
  return t / (chisquare(dd, shape) * dn.arg());
}

Array Generator::standard_t(const Param& df_p, std::optional<Shape> size) {
  const Param df = as_float(df_p);
  const Shape shape = draw_shape("standard_t", size, {&df});
  Checks("standard_t").fail_if(df, {kNotPositive}, "df <= 0").run();
  const Param half = scaled(df, 0.5);
  Array g = sample("standard_t", KernelKind::kRandomGamma, kF64, {half}, shape);
  return draw("standard_t", shape, kF64, unit_blocks(shape, 2), [&](uint64_t k, uint64_t c) {
    return normal_at(shape, k, c, 2, 0) * sqrt(half.arg() / g);
  });
}

Array Generator::standard_cauchy(const Shape& size) {
  // tan(pi (u - 1/2)) for u in (0, 1): the Cauchy quantile function.
  return draw("standard_cauchy", size, kF64, unit_blocks(size, 1), [&](uint64_t k, uint64_t c) {
    return tan(Arg(kPi) * (uniform_at(size, k, c, 1, 0, true) - Arg(0.5)));
  });
}

Array Generator::laplace(const Param& loc_p, const Param& scale_p, std::optional<Shape> size) {
  const Param loc = as_float(loc_p), s = as_float(scale_p);
  const Shape shape = draw_shape("laplace", size, {&loc, &s});
  Checks("laplace").fail_if(s, {kNegative}, "scale < 0").run();
  // An exponential from the unit's top 53 bits, its sign from the lowest bit.
  return draw("laplace", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    Array b = bits(shape, DType::kUInt64, 1, 0, k, c);
    Array e = exponential_of((b >> 11).astype(kF64) * Arg(std::ldexp(1.0, -53)));
    return loc.arg() + s.arg() * where((b & Arg(1)) == Arg(0), e, -e);
  });
}

Array Generator::logistic(const Param& loc_p, const Param& scale_p, std::optional<Shape> size) {
  const Param loc = as_float(loc_p), s = as_float(scale_p);
  const Shape shape = draw_shape("logistic", size, {&loc, &s});
  Checks("logistic").fail_if(s, {kNegative}, "scale < 0").run();
  return draw("logistic", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    Array u = uniform_at(shape, k, c, 1, 0, true);
    return loc.arg() + s.arg() * log(u / (Arg(1.0) - u));
  });
}

Array Generator::gumbel(const Param& loc_p, const Param& scale_p, std::optional<Shape> size) {
  const Param loc = as_float(loc_p), s = as_float(scale_p);
  const Shape shape = draw_shape("gumbel", size, {&loc, &s});
  Checks("gumbel").fail_if(s, {kNegative}, "scale < 0").run();
  return draw("gumbel", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    return loc.arg() - s.arg() * log(-log(uniform_at(shape, k, c, 1, 0, true)));
  });
}

Array Generator::lognormal(const Param& mean_p, const Param& sigma_p, std::optional<Shape> size) {
  const Param mean = as_float(mean_p), sigma = as_float(sigma_p);
  const Shape shape = draw_shape("lognormal", size, {&mean, &sigma});
  Checks("lognormal").fail_if(sigma, {kNegative}, "sigma < 0").run();
  return draw("lognormal", shape, kF64, unit_blocks(shape, 2), [&](uint64_t k, uint64_t c) {
    return exp(mean.arg() + sigma.arg() * normal_at(shape, k, c, 2, 0));
  });
}

Array Generator::pareto(const Param& a_p, std::optional<Shape> size) {
  const Param a = as_float(a_p);
  const Shape shape = draw_shape("pareto", size, {&a});
  Checks("pareto").fail_if(a, {kNotPositive}, "a <= 0").run();
  return draw("pareto", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    return expm1(exponential_of(uniform_at(shape, k, c, 1, 0)) / a.arg());
  });
}

Array Generator::power(const Param& a_p, std::optional<Shape> size) {
  const Param a = as_float(a_p);
  const Shape shape = draw_shape("power", size, {&a});
  Checks("power").fail_if(a, {kNotPositive}, "a <= 0").run();
  // U^(1/a): the inverse of the CDF x^a (numpy's (1 - exp(-E))^(1/a) with E = -log(1 - U)).
  const Array inv = Arg(1.0) / detail::as_array(a, shape, kF64, context_);
  return draw("power", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    return vka::power(uniform_at(shape, k, c, 1, 0), inv);
  });
}

Array Generator::rayleigh(const Param& scale_p, std::optional<Shape> size) {
  const Param s = as_float(scale_p);
  const Shape shape = draw_shape("rayleigh", size, {&s});
  Checks("rayleigh").fail_if(s, {kNegative}, "scale < 0").run();
  return draw("rayleigh", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    return s.arg() * sqrt(Arg(2.0) * exponential_of(uniform_at(shape, k, c, 1, 0)));
  });
}

Array Generator::weibull(const Param& a_p, std::optional<Shape> size) {
  const Param a = as_float(a_p);
  const Shape shape = draw_shape("weibull", size, {&a});
  Checks("weibull").fail_if(a, {kNegative}, "a < 0").run();
  // numpy's weibull(0) is 0.
  const Array inv = Arg(1.0) / detail::as_array(a, shape, kF64, context_);
  return draw("weibull", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    Array w = vka::power(exponential_of(uniform_at(shape, k, c, 1, 0)), inv);
    if (!a.is_array()) return a.value() == 0 ? zeros(shape, kF64, context_) : w;
    return where(a.array() == Arg(0.0), Arg(0.0), w);
  });
}

Array Generator::wald(const Param& mean_p, const Param& scale_p, std::optional<Shape> size) {
  const Param mean = as_float(mean_p), s = as_float(scale_p);
  const Shape shape = draw_shape("wald", size, {&mean, &s});
  Checks("wald")
      .fail_if(mean, {kNotPositive}, "mean <= 0")
      .fail_if(s, {kNotPositive}, "scale <= 0")
      .run();
  // Michael, Schucany & Haas (1976): the smaller root X of the quadratic in Y = mean z^2,
  // written 4 mean scale / (sqrt(Y) + sqrt(Y + 4 scale))^2 (no cancellation), or mean^2 / X.
  const Array mu = detail::as_array(mean, shape, kF64, context_);
  const Array sc = detail::as_array(s, shape, kF64, context_);
  return draw("wald", shape, kF64, unit_blocks(shape, 3), [&](uint64_t k, uint64_t c) {
    Array z = normal_at(shape, k, c, 3, 0);
    Array y = mu * z * z;
    Array root = sqrt(y) + sqrt(y + Arg(4.0) * sc);
    Array x = Arg(4.0) * mu * sc / (root * root);
    Array u = uniform_at(shape, k, c, 3, 2);
    return where(u <= mu / (mu + x), x, mu * mu / x);
  });
}

Array Generator::triangular(const Param& left_p, const Param& mode_p, const Param& right_p,
                            std::optional<Shape> size) {
  const Param l = as_float(left_p), m = as_float(mode_p), r = as_float(right_p);
  const Shape shape = draw_shape("triangular", size, {&l, &m, &r});
  Checks checks("triangular");
  if (l.is_array() || m.is_array() || r.is_array()) {
    const Array left = detail::as_array(l, shape, kF64, context_);
    const Array right = detail::as_array(r, shape, kF64, context_);
    checks.fail_if(left > m.arg(), "left > mode", {{"left", left}, {"mode", m}})
        .fail_if(right < m.arg(), "mode > right", {{"mode", m}, {"right", right}})
        .fail_if(left == right, "left == right", {{"left", left}, {"right", right}});
  } else {
    checks.fail_if(l.value() > m.value(), "left > mode", {{"left", l}, {"mode", m}})
        .fail_if(m.value() > r.value(), "mode > right", {{"mode", m}, {"right", r}})
        .fail_if(l.value() == r.value(), "left == right", {{"left", l}, {"right", r}});
  }
  checks.run();
  // The inverse CDF: left of the mode below the ratio (mode - left) / (right - left).
  const Array lo = detail::as_array(l, shape, kF64, context_);
  const Array hi = detail::as_array(r, shape, kF64, context_);
  return draw("triangular", shape, kF64, unit_blocks(shape, 1), [&](uint64_t k, uint64_t c) {
    Array u = uniform_at(shape, k, c, 1, 0);
    Array base = hi - lo;
    Array below = lo + sqrt(u * (m.arg() - lo) * base);
    Array above = hi - sqrt((Arg(1.0) - u) * (hi - m.arg()) * base);
    return where(u <= (m.arg() - lo) / base, below, above);
  });
}

Array Generator::vonmises(const Param& mu_p, const Param& kappa_p, std::optional<Shape> size) {
  const Param mu = as_float(mu_p), kappa = as_float(kappa_p);
  const Shape shape = draw_shape("vonmises", size, {&mu, &kappa});
  Checks("vonmises").fail_if(kappa, {kNegative}, "kappa < 0").run();
  return sample("vonmises", KernelKind::kRandomVonmises, kF64, {mu, kappa}, shape);
}

}  // namespace vka::random
