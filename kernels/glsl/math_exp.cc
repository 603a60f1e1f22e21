// GLSL math templates: exp, log and power families, and the hyperbolic functions.
// Algorithms: Cody-Waite reduction by a two-part ln2, then Taylor (exp) or atanh series (log),
// with enough terms for the type; power carries log(x) and y*log(x) in double-word
// arithmetic (about 2x the type's bits) so that exp amplifies no rounding error.
#include "kernels/glsl/math_templates.h"

namespace vka {
namespace math_internal {

void add_exp_templates(Templates* m) {
  m->insert({
      // e^r for |r| <= ln2/2: Horner form of the Taylor series, one fused multiply-add per
      // term (coefficients 1/i! as literals).
      {"expcore", {"", R"(T vka_expcore_F(T r) {
  T p = @EXP_HORNER@;
  return p;
}
// 2^k * p for p in [1/2, 2): one multiply by 2^k built from its bits when 2^k is a normal
// number, else two ldexp steps so that no intermediate overflows near the exponent limits.
T vka_scale_F(T p, int k) {
  if (k >= @SCALE_KMIN@ && k <= @SCALE_KMAX@) return p * @POW2I@;
  return ldexp(ldexp(p, k / 2), k - k / 2);
}
)"}},
      {"exp", {"expcore rint", R"(T vka_exp_F(T x) {
  if (isnan(x)) return x;
  if (x > @EXP_MAX@$) return INF;
  if (x < @EXP_MIN@$) return T(0);
  T k = vka_rint_F(x * 1.4426950408889634$);
  T r = (x - k * @LN2_HI@$) - k * @LN2_LO@$;
  return vka_scale_F(vka_expcore_F(r), int(k));
}
)"}},
      {"exp2", {"expcore rint", R"(T vka_exp2_F(T x) {
  if (isnan(x)) return x;
  if (x >= @EXP2_MAX@$) return INF;
  if (x < @EXP2_MIN@$) return T(0);
  T k = vka_rint_F(x);
  T r = (x - k) * 0.6931471805599453$;
  return vka_scale_F(vka_expcore_F(r), int(k));
}
)"}},
      {"expm1", {"exp", R"(T vka_expm1_F(T x) {
  if (abs(x) >= 0.35$ || isnan(x)) return x > T(40) ? vka_exp_F(x) : vka_exp_F(x) - T(1);
  // Series without the leading 1: no cancellation near 0.
  T p = @EXPM1_SERIES@;
  return x * p;
}
)"}},
      // e^(h + l) for a double-word argument (|l| <= ulp(h)): the reduced argument keeps the
      // rounding errors of the reduction as a tail, e^(r + t) = e^r + e^r * t.
      {"expx", {"expcore twosum rint", R"(T vka_expx_F(T h, T l) {
  if (h > @EXP_MAX@$) return INF;
  if (h < @EXP_MIN@$) return T(0);
  T k = vka_rint_F(h * 1.4426950408889634$);
  T r1 = h - k * @LN2_HI@$;
  T e1;
  T e2;
  T r2 = vka_twosum_F(r1, -(k * @LN2_LO@$), e1);
  T r = vka_twosum_F(r2, l, e2);
  T p = vka_expcore_F(r);
  T q = p + p * (e1 + e2);
  return vka_scale_F(q, int(k));
}
)"}},
      // log(m) for x = m * 2^e, m in [sqrt(1/2), sqrt(2)): 2*atanh(s), s = (m-1)/(m+1).
      {"logcore", {"", R"(T vka_mant_F(T x, out int e) {
  int eo = 0;
  if (x < @MIN_NORMAL@$) {
    x *= @SUBNORMAL_SCALE@$;
    eo = -@SUBNORMAL_EXP@;
  }
  int e2;
  T m = frexp(x, e2);
  e = eo + e2;
  if (m < 0.7071067811865476$) {
    m *= T(2);
    e -= 1;
  }
  return m;
}
T vka_logcore_F(T x, out int e) {
  T m = vka_mant_F(x, e);
  T f = m - T(1);
  T s = f / (T(2) + f);
  T z = s * s;
  T q = @LOG_SERIES@;
  return 2.0$ * s * q;
}
)"}},
      {"log", {"logcore", R"(T vka_log_F(T x) {
  if (isnan(x) || x < T(0)) return NAN;
  if (x == T(0)) return -INF;
  if (isinf(x)) return x;
  int e;
  T lm = vka_logcore_F(x, e);
  return T(e) * @LN2_HI@$ + (lm + T(e) * @LN2_LO@$);
}
)"}},
      // log(x) = h + l for finite x > 0, to about twice the type's precision: the atanh series
      // with s = sh + sl and its first two terms, 2s + 2s^3/3, in double-word arithmetic.
      {"logx", {"logcore twosum", R"(T vka_logx_F(T x, out T lo) {
  int e;
  T m = vka_mant_F(x, e);
  T f = m - T(1);
  T dl;
  T dh = vka_twosum_F(T(2), f, dl);
  T sh = f / dh;
  T pl;
  T ph = vka_twoprod_F(sh, dh, pl);
  T sl = (((f - ph) - pl) - sh * dl) / dh;
  T zl;
  T zh = vka_twoprod_F(sh, sh, zl);
  zl += T(2) * sh * sl;
  T cl;
  T ch = vka_twoprod_F(sh, zh, cl);
  cl += sh * zl + sl * zh;
  T bl;
  T bh = vka_twoprod_F(ch, @TT_HI@$, bl);
  bl += ch * @TT_LO@$ + cl * @TT_HI@$;
  T q = @LOGX_SERIES@;
  T rest = ch * zh * q;
  T ah = T(2) * sh;
  T al = T(2) * sl;
  T t1;
  T h1 = vka_twosum_F(ah, bh, t1);
  T t2;
  T ek = T(e);
  T h2 = vka_twosum_F(ek * @LN2_HI@$, h1, t2);
  T l2 = t2 + (t1 + al + bl + rest + ek * @LN2_LO@$);
  T h = h2 + l2;
  T l = l2 - (h - h2);
  lo = l;
  return h;
}
)"}},
      {"log2", {"logcore", R"(T vka_log2_F(T x) {
  if (isnan(x) || x < T(0)) return NAN;
  if (x == T(0)) return -INF;
  if (isinf(x)) return x;
  int e;
  T lm = vka_logcore_F(x, e);
  return T(e) + lm * 1.4426950408889634$;
}
)"}},
      {"log10", {"logcore", R"(T vka_log10_F(T x) {
  if (isnan(x) || x < T(0)) return NAN;
  if (x == T(0)) return -INF;
  if (isinf(x)) return x;
  int e;
  T lm = vka_logcore_F(x, e);
  return T(e) * 0.30102999566398120$ + lm * 0.43429448190325182$;
}
)"}},
      {"log1p", {"log", R"(T vka_log1p_F(T x) {
  if (isnan(x) || x < T(-1)) return NAN;
  if (x == T(-1)) return -INF;
  if (isinf(x)) return x;
  T u = T(1) + x;
  if (u == T(1)) return x;
  // log(u) * x / (u - 1) cancels the rounding error of 1 + x (Goldberg's trick). u - 1 is a
  // precise local: in an expression a driver may fold (1 + x) - 1 into x (NVIDIA does).
  T d = u - T(1);
  // 1 + x rounded to x itself (x >= 2^p): the ratio is 1, and x / d could underflow a
  // reciprocal-based division of a huge d.
  if (d == x) return vka_log_F(u);
  return vka_log_F(u) * (x / d);
}
)"}},
      {"sinh", {"exp expm1", R"(T vka_sinh_F(T x) {
  if (isnan(x) || isinf(x) || x == T(0)) return x;
  T a = abs(x);
  T h = x < T(0) ? -0.5$ : 0.5$;
  if (a < @HYP_BIG@$) {
    T t = vka_expm1_F(a);
    if (a < T(1)) return h * (T(2) * t - t * t / (t + T(1)));
    return h * (t + t / (t + T(1)));
  }
  // (h * w) * w in that order: h * (w * w) overflows; precise locals keep the order.
  T w = vka_exp_F(0.5$ * a);
  T hw = h * w;
  T r = hw * w;
  return r;
}
)"}},
      {"cosh", {"exp", R"(T vka_cosh_F(T x) {
  if (isnan(x)) return x;
  T a = abs(x);
  if (a < @HYP_BIG@$) {
    T t = vka_exp_F(a);
    return 0.5$ * t + 0.5$ / t;
  }
  T w = vka_exp_F(0.5$ * a);
  T hw = 0.5$ * w;
  T r = hw * w;
  return r;
}
)"}},
      {"tanh", {"expm1 copysign", R"(T vka_tanh_F(T x) {
  if (isnan(x)) return x;
  T a = abs(x);
  T r = T(1);
  if (a < @HYP_BIG@$) {
    T t = vka_expm1_F(T(2) * a);
    r = t / (t + T(2));
  }
  return vka_copysign_F(r, x);
}
)"}},
      {"arcsinh", {"log log1p copysign", R"(T vka_arcsinh_F(T x) {
  if (isnan(x) || isinf(x)) return x;
  T a = abs(x);
  T r;
  if (a > @HUGE@$) {
    r = vka_log_F(a) + 0.6931471805599453$;
  } else if (a > T(2)) {
    r = vka_log_F(T(2) * a + T(1) / (sqrt(a * a + T(1)) + a));
  } else {
    T t = a * a;
    r = vka_log1p_F(a + t / (T(1) + sqrt(T(1) + t)));
  }
  return vka_copysign_F(r, x);
}
)"}},
      {"arccosh", {"log log1p", R"(T vka_arccosh_F(T x) {
  if (isnan(x) || x < T(1)) return NAN;
  if (isinf(x)) return x;
  if (x > @HUGE@$) return vka_log_F(x) + 0.6931471805599453$;
  if (x > T(2)) return vka_log_F(T(2) * x - T(1) / (x + sqrt(x * x - T(1))));
  T t = x - T(1);
  return vka_log1p_F(t + sqrt(T(2) * t + t * t));
}
)"}},
      {"arctanh", {"log1p copysign inf", R"(T vka_arctanh_F(T x) {
  T a = abs(x);
  if (isnan(x) || a > T(1)) return NAN;
  if (a == T(1)) return vka_copysign_F(INF, x);
  T r;
  if (a < 0.5$) {
    T t = a + a;
    r = 0.5$ * vka_log1p_F(t + t * a / (T(1) - a));
  } else {
    r = 0.5$ * vka_log1p_F((a + a) / (T(1) - a));
  }
  return vka_copysign_F(r, x);
}
)"}},
      // C99 pow special cases (what numpy's float power follows), then e^(y * log|x|) with
      // log|x| and the product in double-word arithmetic: y * log|x| reaches 700, where one
      // rounding of a plain product is already 60 ulp of the result.
      {"power", {"exp expx logx copysign trunc", R"(T vka_power_F(T x, T y) {
  if (y == T(0) || x == T(1)) return T(1);
  if (isnan(x) || isnan(y)) return NAN;
  bool yint = !isinf(y) && vka_trunc_F(y) == y;
  bool yodd = yint && abs(y) < 9007199254740992.0$ && vka_trunc_F(y * 0.5$) != y * 0.5$;
  if (isinf(y)) {
    T ax = abs(x);
    if (ax == T(1)) return T(1);
    return ((ax > T(1)) == (y > T(0))) ? INF : T(0);
  }
  if (x == T(0)) {
    if (y < T(0)) return yodd ? vka_copysign_F(INF, x) : INF;
    return yodd ? x : T(0);
  }
  if (isinf(x)) {
    if (x > T(0)) return y > T(0) ? INF : T(0);
    if (y > T(0)) return yodd ? -INF : INF;
    return yodd ? -T(0) : T(0);
  }
  if (x < T(0) && !yint) return NAN;
  T ll;
  T lh = vka_logx_F(abs(x), ll);
  T z = y * lh;
  T r;
  if (z > T(2) * @EXP_MAX@$) {
    r = INF;
  } else if (z < T(2) * @EXP_MIN@$) {
    r = T(0);
  } else {
    T ys = y;
    T ls = lh;
    if (abs(y) > @SPLIT_SAFE@$) {
      ys = ldexp(y, -@SPLIT_SHIFT@);
      ls = ldexp(lh, @SPLIT_SHIFT@);
    }
    T zl;
    T zh = vka_twoprod_F(ys, ls, zl);
    zl += y * ll;
    r = vka_expx_F(zh, zl);
  }
  return (x < T(0) && yodd) ? -r : r;
}
)"}},
  });
}

}  // namespace math_internal
}  // namespace vka
