// The samplers of kernels/lib/random_draw.h as GLSL, each from its published algorithm. A loop
// that may reject is bounded by a round count R with (1 - a)^R < 2^-128 for the sampler's least
// acceptance probability a per round (stated with each).
#include "kernels/lib/random_samplers.h"
#include "base/errors.h"

namespace vka::random_draw_internal {
namespace {

// log Γ(x) for x > 0: Stirling's series to the x^-9 term once x >= 15 (truncation error below
// 3e-16), smaller x shifted up by the recurrence with one product.
constexpr const char* kLogGamma = R"(double vka_lgamma(double x) {
  double prod = 1.0LF;
  while (x < 15.0LF) {
    prod *= x;
    x += 1.0LF;
  }
  double z = 1.0LF / (x * x);
  double series = ((((z / 1188.0LF - 1.0LF / 1680.0LF) * z + 1.0LF / 1260.0LF) * z
                   - 1.0LF / 360.0LF) * z + 1.0LF / 12.0LF) / x;
  return (x - 0.5LF) * @log(x) - x + 0.91893853320467274LF + series - @log(prod);
}
)";

// Marsaglia & Tsang, "A simple method for generating gamma variables" (ACM TOMS 2000): a
// normal x, v = (1 + c x)^3, accepted with the squeeze or the log test; a round accepts with
// probability at least 0.95 (a = 1; more for larger a), so R = 64. Shapes below 1 use their
// boost G(a) = G(a + 1) U^(1/a); `want_log` returns log G, which keeps tiny shapes' values
// that G itself underflows to 0 (beta and dirichlet are ratios of gammas).
constexpr const char* kGamma = R"($T vka_gamma$F($T a, bool want_log) {
  if (isnan(a)) return a;
  if (a == 0.0$L) return want_log ? -@inf() : 0.0$L;
  $T boost = 0.0$L;
  if (a < 1.0$L) {
    boost = @log1p(-vka_rs_uniform$F()) / a;
    a += 1.0$L;
  }
  $T d = a - 1.0$L / 3.0$L;
  $T c = 1.0$L / sqrt(9.0$L * d);
  for (int round = 0; round < 64; ++round) {
    $T x = vka_rs_normal$F();
    $T v = 1.0$L + c * x;
    if (v <= 0.0$L) continue;
    v = v * v * v;
    $T u = vka_rs_uniform$F();
    $T x2 = x * x;
    if (u < 1.0$L - 0.0331$L * x2 * x2 || @log(u) < 0.5$L * x2 + d * (1.0$L - v + @log(v))) {
      return want_log ? @log(d) + @log(v) + boost : d * v * @exp(boost);
    }
  }
  return @nan();
}
)";

// Poisson(lam). lam < 10: the number of uniforms whose running product stays above e^-lam
// (lam + 1 uniforms on average; past 400, of probability below 10^-500, the element fails).
// lam >= 10: Hörmann's transformed rejection with squeeze, PTRS ("The transformed rejection
// method for generating Poisson random variables", Insurance: Mathematics and Economics 1993),
// accepting a round with probability above 0.89, so R = 64.
constexpr const char* kPoisson = R"(int64_t vka_poisson(double lam) {
  if (lam == 0.0LF) return 0l;
  if (lam < 10.0LF) {
    double limit = @exp(-lam), prod = 1.0LF;
    for (int k = 0; k < 400; ++k) {
      prod *= vka_rs_uniform_f64();
      if (prod <= limit) return int64_t(k);
    }
    return -1l;
  }
  double loglam = @log(lam);
  double b = 0.931LF + 2.53LF * sqrt(lam);
  double a = -0.059LF + 0.02483LF * b;
  double log_inv_alpha = @log(1.1239LF + 1.1328LF / (b - 3.4LF));
  double v_r = 0.9277LF - 3.6224LF / (b - 2.0LF);
  for (int round = 0; round < 64; ++round) {
    double u = vka_rs_uniform_f64() - 0.5LF;
    double v = vka_rs_uniform_f64();
    double us = 0.5LF - abs(u);
    double k = @floor((2.0LF * a / us + b) * u + lam + 0.43LF);
    if (us >= 0.07LF && v <= v_r) return int64_t(k);
    if (k < 0.0LF || (us < 0.013LF && v > us)) continue;
    if (@log(v) + log_inv_alpha - @log(a / (us * us) + b)
        <= -lam + k * loglam - vka_lgamma(k + 1.0LF)) {
      return int64_t(k);
    }
  }
  return -1l;
}
)";

// Binomial(n, p) for p <= 1/2, two methods. n p <= 30: inversion, a search from 0 through the
// probabilities f(x) = f(x - 1) (a / x - s); a search that passes np + 10 sqrt(npq + 1)
// (probability below 10^-20) restarts, at most 16 times. n p > 30: BTPE (Kachitvichyanukul &
// Schmeiser, "Binomial random variate generation", CACM 1988): a triangle, two parallelograms
// and two exponential tails over f, accepted at once in the triangle, else by the exact ratio
// f(y) / f(m) (|y - m| small or large), a squeeze, or Stirling's bound; the hat's area is
// under twice the distribution's, so a round accepts with probability above 1/2 and R = 128.
constexpr const char* kBinomial = R"(double vka_stirling_tail(double x) {
  double z = 1.0LF / (x * x);
  return (13860.0LF - (462.0LF - (132.0LF - (99.0LF - 140.0LF * z) * z) * z) * z) / x
         / 166320.0LF;
}
int64_t vka_binomial_inversion(double n, double p) {
  double q = 1.0LF - p, s = p / q, a = (n + 1.0LF) * s;
  double f0 = @exp(n * @log1p(-p));
  double np = n * p;
  double bound = min(n, np + 10.0LF * sqrt(np * q + 1.0LF));
  for (int attempt = 0; attempt < 16; ++attempt) {
    double u = vka_rs_uniform_f64(), f = f0, x = 0.0LF;
    while (u > f && x <= bound) {
      u -= f;
      x += 1.0LF;
      f *= a / x - s;
    }
    if (x <= bound) return int64_t(x);
  }
  return -1l;
}
int64_t vka_binomial_btpe(double n, double p) {
  double q = 1.0LF - p, npq = n * p * q;
  double fm = n * p + p;
  double m = @floor(fm);
  double p1 = @floor(2.195LF * sqrt(npq) - 4.6LF * q) + 0.5LF;
  double xm = m + 0.5LF, xl = xm - p1, xr = xm + p1;
  double c = 0.134LF + 20.5LF / (15.3LF + m);
  double al = (fm - xl) / (fm - xl * p);
  double ll = al * (1.0LF + 0.5LF * al);
  double ar = (xr - fm) / (xr * q);
  double lr = ar * (1.0LF + 0.5LF * ar);
  double p2 = p1 * (1.0LF + 2.0LF * c), p3 = p2 + c / ll, p4 = p3 + c / lr;
  for (int round = 0; round < 128; ++round) {
    double u = vka_rs_uniform_f64() * p4, v = vka_rs_uniform_f64(), y;
    if (u <= p1) return int64_t(@floor(xm - p1 * v + u));
    if (u <= p2) {
      double x = xl + (u - p1) / c;
      v = v * c + 1.0LF - abs(m - x + 0.5LF) / p1;
      if (v > 1.0LF) continue;
      y = @floor(x);
    } else if (u <= p3) {
      y = @floor(xl + @log(v) / ll);
      if (y < 0.0LF || v == 0.0LF) continue;
      v *= (u - p2) * ll;
    } else {
      y = @floor(xr - @log(v) / lr);
      if (y > n || v == 0.0LF) continue;
      v *= (u - p3) * lr;
    }
    double k = abs(y - m);
    if (k <= 20.0LF || k >= npq / 2.0LF - 1.0LF) {
      double s = p / q, a = s * (n + 1.0LF), f = 1.0LF;
      for (double i = m + 1.0LF; i <= y; i += 1.0LF) f *= a / i - s;
      for (double i = y + 1.0LF; i <= m; i += 1.0LF) f /= a / i - s;
      if (v <= f) return int64_t(y);
      continue;
    }
    double rho = (k / npq) * ((k * (k / 3.0LF + 0.625LF) + 1.0LF / 6.0LF) / npq + 0.5LF);
    double t = -k * k / (2.0LF * npq);
    double lv = @log(v);
    if (lv < t - rho) return int64_t(y);
    if (lv > t + rho) continue;
    // log f(y) / f(m) from log Γ by Stirling's series: the x + 1 of m, n - m, y, n - y.
    double x1 = y + 1.0LF, f1 = m + 1.0LF, z = n + 1.0LF - m, w = n - y + 1.0LF;
    double bound = xm * @log(f1 / x1) + (n - m + 0.5LF) * @log(z / w)
                   + (y - m) * @log(w * p / (x1 * q)) + vka_stirling_tail(f1)
                   - vka_stirling_tail(x1) + vka_stirling_tail(z) - vka_stirling_tail(w);
    if (lv <= bound) return int64_t(y);
  }
  return -1l;
}
int64_t vka_binomial(int64_t n, double p) {
  if (n == 0l || p == 0.0LF) return 0l;
  if (p == 1.0LF) return n;
  bool flip = p > 0.5LF;
  double r = flip ? 1.0LF - p : p, dn = double(n);
  int64_t y = dn * r <= 30.0LF ? vka_binomial_inversion(dn, r) : vka_binomial_btpe(dn, r);
  return flip && y >= 0l ? n - y : y;
}
)";

// Hypergeometric(ngood, nbad, nsample): the number of good items among nsample drawn without
// replacement. When the smaller of nsample and the items left behind is below 10, those draws
// themselves (each good with probability good left / items left). Otherwise Stadlober's ratio
// of uniforms with a table-mountain hat, HRUA ("The ratio of uniforms approach for generating
// discrete random variates", J. Comput. Appl. Math. 1990), on the smaller color and the
// smaller side: the hat's area is under twice the distribution's (h = 2 sqrt(2/e) sigma +
// 3 - 2 sqrt(3/e) against sqrt(2 pi) sigma / 2), so R = 128.
constexpr const char* kHypergeometric = R"(double vka_logfact(double k) {
  return vka_lgamma(k + 1.0LF);
}
int64_t vka_hypergeometric(int64_t good, int64_t bad, int64_t draws) {
  int64_t total = good + bad;
  int64_t m = min(draws, total - draws);
  int64_t picked;
  if (m < 10l) {
    uint64_t left = uint64_t(total), good_left = uint64_t(good);
    for (int64_t i = 0l; i < m; ++i) {
      if (vka_rs_below(left) < good_left) good_left -= 1ul;
      left -= 1ul;
    }
    picked = good - int64_t(good_left);
  } else {
    double N = double(total), M = double(min(good, bad)), n = double(m);
    double p = M / N, q = 1.0LF - p;
    double a = n * p + 0.5LF;
    double c = sqrt((N - n) * n * p * q / (N - 1.0LF) + 0.5LF);
    double h = 1.7155277699214135LF * c + 0.8989161620588988LF;
    double mode = @floor((n + 1.0LF) * (M + 1.0LF) / (N + 2.0LF));
    double g = vka_logfact(mode) + vka_logfact(M - mode) + vka_logfact(n - mode)
               + vka_logfact(N - M - n + mode);
    double top = min(min(n, M) + 1.0LF, @floor(a + 16.0LF * c));
    double k = -1.0LF;
    for (int round = 0; round < 128; ++round) {
      double u = vka_rs_uniform_f64(), v = vka_rs_uniform_f64();
      double x = a + h * (v - 0.5LF) / u;
      if (!(x >= 0.0LF && x < top)) continue;
      double kk = @floor(x);
      double t = g - (vka_logfact(kk) + vka_logfact(M - kk) + vka_logfact(n - kk)
                      + vka_logfact(N - M - n + kk));
      if (u * (4.0LF - u) - 3.0LF <= t || (u * (u - t) < 1.0LF && 2.0LF * @log(u) <= t)) {
        k = kk;
        break;
      }
    }
    if (k < 0.0LF) return -1l;
    picked = good > bad ? m - int64_t(k) : int64_t(k);
  }
  return m == draws ? picked : good - picked;
}
)";

// Zipf(a), below 2^63 as numpy's: Devroye's rejection from X = floor(U^(-1/(a-1)))
// ("Non-Uniform Random Variate Generation", 1986, X.6), accepted when
// V X (1 - 1/T) <= 1 - 1/b with T = (1 + 1/X)^(a-1), b = 2^(a-1) (the usual test divided
// through, so no power overflows). U is drawn where X < 2^63 only (numpy rejects the rest:
// the same law, without numpy's long runs of rejections when a is near 1). A round accepts
// with probability above ln 2 / 2, so R = 128.
constexpr const char* kZipf = R"(int64_t vka_zipf(double a) {
  double am1 = a - 1.0LF;
  double span = -@expm1(-63.0LF * 0.6931471805599453LF * am1);
  double lb = -@expm1(-0.6931471805599453LF * am1);
  for (int round = 0; round < 128; ++round) {
    double lu = @log1p(-span * vka_rs_uniform_f64());
    double v = vka_rs_uniform_f64();
    double x = @floor(@exp(-lu / am1));
    if (!(x >= 1.0LF && x < 9.223372036854775807e18LF)) continue;
    if (v * x * -@expm1(-am1 * @log1p(1.0LF / x)) <= lb) return int64_t(x);
  }
  return -1l;
}
)";

// von Mises(mu, kappa) on [-pi, pi]: Best & Fisher's wrapped-Cauchy rejection ("Efficient
// simulation of the von Mises distribution", Applied Statistics 1979), acceptance above 0.65
// for every kappa, so R = 256. kappa < 1e-8 is uniform on the circle (the density is within a
// factor 1 +- 2e-8 of it); kappa > 1e6 is mu + N(0, 1/kappa) wrapped (the law differs by
// O(1/kappa) there, while the rejection's W = cos(theta) would lose theta to cancellation).
constexpr const char* kVonmises = R"(double vka_wrap_angle(double t) {
  return t - 6.283185307179586LF * @rint(t / 6.283185307179586LF);
}
double vka_vonmises(double mu, double kappa) {
  if (isnan(mu) || isnan(kappa)) return mu + kappa;
  if (kappa < 1e-8LF) return 3.141592653589793LF * (2.0LF * vka_rs_uniform_f64() - 1.0LF);
  if (kappa > 1e6LF) return vka_wrap_angle(mu + vka_rs_normal_f64() / sqrt(kappa));
  double s;
  if (kappa < 1e-5LF) {
    s = 1.0LF / kappa + kappa;
  } else {
    double r = 1.0LF + sqrt(1.0LF + 4.0LF * kappa * kappa);
    double rho = (r - sqrt(2.0LF * r)) / (2.0LF * kappa);
    s = (1.0LF + rho * rho) / (2.0LF * rho);
  }
  for (int round = 0; round < 256; ++round) {
    double z = @cos(3.141592653589793LF * vka_rs_uniform_f64());
    double w = (1.0LF + s * z) / (s + z);
    double y = kappa * (s - w);
    double v = vka_rs_uniform_f64();
    if (y * (2.0LF - y) - v >= 0.0LF || @log(y / v) + 1.0LF - y >= 0.0LF) {
      double theta = @arccos(w);
      if (vka_rs_uniform_f64() < 0.5LF) theta = -theta;
      return vka_wrap_angle(mu + theta);
    }
  }
  return @nan();
}
)";

// Logarithmic series(p) by Kemp's LK ("Efficient generation of logarithmically distributed
// pseudo-random variables", Applied Statistics 1981): every round returns except when
// log(V) / log(q) is degenerate (V = 0), so R = 64 is never reached.
constexpr const char* kLogseries = R"(int64_t vka_logseries(double p) {
  double r = @log1p(-p);
  for (int round = 0; round < 64; ++round) {
    double v = vka_rs_uniform_f64();
    if (v >= p) return 1l;
    double q = -@expm1(r * vka_rs_uniform_f64());
    if (v <= q * q) {
      double x = @floor(1.0LF + @log(v) / @log(q));
      if (x < 1.0LF || v == 0.0LF) continue;
      return int64_t(min(x, 9223372036854774784.0LF));
    }
    return v >= q ? 1l : 2l;
  }
  return -1l;
}
)";

}  // namespace

std::string add_sampler(KernelKind kind, DType out, HelperSet* h) {
  const DType f64 = DType::kFloat64;
  auto need = [&](const char* name, const char* code, DType t = DType::kFloat64) {
    if (!h->has(name)) h->add(name, instantiate(code, t, h));
  };
  switch (kind) {
    case KernelKind::kRandomGamma: {
      const std::string name = out == DType::kFloat32 ? "vka_gamma_f32" : "vka_gamma_f64";
      need(name.c_str(), kGamma, out);
      return name;
    }
    case KernelKind::kRandomPoisson:
      need("vka_lgamma", kLogGamma);
      need("vka_poisson", kPoisson);
      return "vka_poisson";
    case KernelKind::kRandomBinomial:
      need("vka_binomial", kBinomial);
      return "vka_binomial";
    case KernelKind::kRandomHypergeometric:
      need("vka_lgamma", kLogGamma);
      need("vka_hypergeometric", kHypergeometric);
      return "vka_hypergeometric";
    case KernelKind::kRandomZipf:
      need("vka_zipf", kZipf);
      return "vka_zipf";
    case KernelKind::kRandomVonmises:
      need("vka_vonmises", kVonmises, f64);
      return "vka_vonmises";
    case KernelKind::kRandomLogseries:
      need("vka_logseries", kLogseries);
      return "vka_logseries";
    default:
      break;
  }
  internal_error("add_sampler of a kind that is not a sampler", __FILE__, __LINE__);
}

}  // namespace vka::random_draw_internal
