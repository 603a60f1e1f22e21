// The GLSL math library's arithmetic: two-sum/two-product (double-word arithmetic), hypot,
// and numpy's fmod/floor_divide/remainder, exact or correctly rounded as numpy's are.
#include "kernels/glsl/math_templates.h"

namespace vka {
namespace math_internal {

void add_arith_templates(Templates* m) {
  m->insert({
      // Error-free transformations: a + b = s + err and a * b = p + err exactly (Knuth,
      // Dekker; no fma needed, so no reliance on the driver fusing it). twoprod needs
      // |a|, |b| < SPLIT_SAFE.
      {"twosum", {"", R"(T vka_twosum_F(T a, T b, out T err) {
  T s = a + b;
  T bb = s - a;
  T e = (a - (s - bb)) + (b - bb);
  err = e;
  return s;
}
T vka_split_F(T a, out T lo) {
  T c = @SPLIT@$ * a;
  T hi = c - (c - a);
  T l = a - hi;
  lo = l;
  return hi;
}
T vka_twoprod_F(T a, T b, out T err) {
  T p = a * b;
  T al;
  T bl;
  T ah = vka_split_F(a, al);
  T bh = vka_split_F(b, bl);
  T e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  err = e;
  return p;
}
)"}},
      // sqrt(x^2 + y^2). float32: from the exact double-word sum of squares plus one correction
      // step, correctly rounded but for near-ties, like glibc's hypotf (which rounds the square
      // root of the sum in double). float64: glibc's own algorithm (2.35 on, without fma:
      // Borges' correction of sqrt(ax^2 + ay^2), within 0.8 ulp), bit for bit: numpy's hypot and
      // complex abs are glibc's, and no more accurate algorithm gives the same bits. Its
      // scalings and thresholds are powers of two: 2^511, 2^-54, 2^-600, 2^-459.
      {"hypot", {"twosum", R"(T vka_hypot_F(T x, T y) {
  if (isinf(x) || isinf(y)) return INF;
  if (isnan(x) || isnan(y)) return NAN;
  T a = max(abs(x), abs(y));
  T b = min(abs(x), abs(y));
  if (b == T(0)) return a;
  int e;
  T m = frexp(a, e);
  T as = ldexp(a, -e);
  T bs = ldexp(b, -e);
  T pl;
  T ql;
  T sl;
  T ph = vka_twoprod_F(as, as, pl);
  T qh = vka_twoprod_F(bs, bs, ql);
  T sh = vka_twosum_F(ph, qh, sl);
  T slo = sl + (pl + ql);
  T r = sqrt(sh);
  T rl;
  T rh = vka_twoprod_F(r, r, rl);
  T d = ((sh - rh) - rl) + slo;
  T res = r + d / (T(2) * r);
  return ldexp(res, e);
}
)",
                 false, R"(T vka_hypotk_F(T ax, T ay) {
  T h = sqrt(ax * ax + ay * ay);
  T t1;
  T t2;
  if (h <= T(2) * ay) {
    T delta = h - ay;
    t1 = ax * (T(2) * delta - ax);
    t2 = (delta - T(2) * (ax - ay)) * delta;
  } else {
    T delta = h - ax;
    t1 = T(2) * delta * (ax - T(2) * ay);
    t2 = (T(4) * delta - ay) * ay + delta * delta;
  }
  T r = h - (t1 + t2) / (T(2) * h);
  return r;
}
T vka_hypot_F(T x, T y) {
  if (isinf(x) || isinf(y)) return INF;
  if (isnan(x) || isnan(y)) return NAN;
  T ax = max(abs(x), abs(y));
  T ay = min(abs(x), abs(y));
  T scale = 2.40991986510288412e-181$;
  T eps = 5.55111512312578270e-17$;
  if (ax > 6.70390396497129855e+153$) {
    if (ay <= ax * eps) return ax + ay;
    T big = vka_hypotk_F(ax * scale, ay * scale) / scale;
    return big;
  }
  if (ay < 6.71787610756708875e-139$) {
    if (ax >= ay / eps) return ax + ay;
    T tiny = vka_hypotk_F(ax / scale, ay / scale) * scale;
    return tiny;
  }
  if (ay <= ax * eps) return ax + ay;
  return vka_hypotk_F(ax, ay);
}
)"}},
      // C's fmod, exact: long division, each step subtracting y * 2^j with y * 2^j <= x <
      // 2 * y * 2^j, an exact subtraction (Sterbenz). A quotient a / b rounded to T is not
      // exact (fmod(1, 0.1) needs the remainder of 1 by the double nearest 0.1).
      {"fmod", {"copysign", R"(T vka_fmod_F(T a, T b) {
  if (isinf(a) || isnan(a) || isnan(b) || b == T(0)) return NAN;
  T x = abs(a);
  T y = abs(b);
  if (isinf(b) || x < y) return a;
  int ey;
  T my = frexp(y, ey);
  for (int i = 0; i < @FMOD_STEPS@ && x >= y; ++i) {
    int ex;
    T mx = frexp(x, ex);
    T ys = ldexp(y, ex - ey);
    if (ys > x) ys = ldexp(y, ex - ey - 1);
    x = x - ys;
  }
  return vka_copysign_F(x, a);
}
)"}},
      // a / b. Some drivers divide through 1/b, which is flushed to zero when |b| > 2^126 for
      // float32 (NVIDIA): there, dividing a/4 by b/4 is exact and keeps the reciprocal normal.
      {"div", {"", R"(T vka_div_F(T a, T b) {
  return abs(b) > @DIV_BIG@$ ? (a * 0.25$) / (b * 0.25$) : a / b;
}
)"}},
      // numpy's npy_divmod (npymath): the quotient is rounded from (a - fmod(a, b)) / b.
      {"floordiv", {"fmod copysign div floor signed_zero", R"(T vka_floordiv_F(T a, T b) {
  if (b == T(0)) return a / b;
  T mod = vka_fmod_F(a, b);
  T div = vka_div_F(a - mod, b);
  if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
  if (div == T(0)) return vka_signed_zero_F(a / b);
  T fl = vka_floor_F(div);
  if (div - fl > 0.5$) fl += T(1);
  return fl;
}
)"}},
      {"remainder", {"fmod copysign signed_zero", R"(T vka_remainder_F(T a, T b) {
  T mod = vka_fmod_F(a, b);
  if (b == T(0)) return mod;
  if (mod != T(0)) {
    if ((b < T(0)) != (mod < T(0))) mod += b;
  } else {
    mod = vka_signed_zero_F(b);
  }
  return mod;
}
)"}},
  });
}

}  // namespace math_internal
}  // namespace vka
