// Complex inverse trigonometric and hyperbolic functions as math-library templates: asinh,
// acos and atanh computed directly, asin, acosh and atan from them (asin z = -i asinh(iz),
// acosh by C99's relation to acos, atan z = -i atanh(iz)).
//
// Finite operands of moderate size use Kahan's formulas ("Branch cuts for complex elementary
// functions", 1987): products of sqrt(1 - z) and sqrt(1 + z) whose terms never cancel, so the
// results keep their precision near the branch points and for tiny |z|, and the signed zeros
// of the operand choose the side of each branch cut. Beyond 1/epsilon the functions are their
// asymptotes (log 2|z| and arg z, 1/z), which never overflow. Infinities, NaNs and signed
// zeros follow C99 Annex G and the array API's special cases.
#include "kernels/glsl/math_templates.h"

namespace vka {
namespace math_internal {

void add_complex_inverse_templates(Templates* m) {
  m->insert({
      // asinh on the first quadrant, the signs restored from z (asinh is odd and commutes
      // with conj): Kahan's asin(iz) with a = sqrt(1 - iz), b = sqrt(1 + iz):
      // (asinh(Im(conj(a) b)), atan2(y, Re(a b))).
      {"casinh", {"csqrt clog arcsinh arctan2 copysign", R"(C vka_casinh_F(C z) {
  T x = abs(z.x);
  T y = abs(z.y);
  C w;
  if (isnan(x) || isnan(y)) {
    if (isinf(x) || isinf(y)) {
      w = C(INF, NAN);
    } else if (isnan(x) && y == T(0)) {
      w = C(NAN, T(0));
    } else {
      w = C(NAN, NAN);
    }
  } else if (isinf(x) || isinf(y)) {
    T im = isinf(x) ? (isinf(y) ? @PIO4_HI@$ : T(0)) : @PIO2_HI@$;
    w = C(INF, im);
  } else if (max(x, y) > @RECIP_EPS@$) {
    C l = vka_clog_F(C(x * 0.5$, y * 0.5$));
    w = C(l.x + T(2) * 0.6931471805599453$, vka_arctan2_F(y, x));
  } else {
    C a = vka_csqrt_F(C(T(1) + y, -x));
    C b = vka_csqrt_F(C(T(1) - y, x));
    T re = a.x * b.y - a.y * b.x;
    T den = a.x * b.x - a.y * b.y;
    w = C(vka_arcsinh_F(re), vka_arctan2_F(y, den));
  }
  return C(vka_copysign_F(w.x, z.x), vka_copysign_F(w.y, z.y));
}
)"}},
      {"casin", {"casinh", R"(C vka_casin_F(C z) {
  C w = vka_casinh_F(C(-z.y, z.x));
  return C(w.y, -w.x);
}
)"}},
      // acos by Kahan's formulas, valid in every quadrant: a = sqrt(1 - z), b = sqrt(1 + z),
      // (2 atan2(Re a, Re b), asinh(Im(conj(b) a))). Large |z|: (arg z, -log 2|z|) with the
      // imaginary part's sign opposite to y's.
      {"cacos", {"csqrt clog arcsinh arctan2 copysign signbit", R"(C vka_cacos_F(C z) {
  T x = z.x;
  T y = z.y;
  T ax = abs(x);
  T ay = abs(y);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return C(NAN, vka_signbit_F(y) ? INF : -INF);  // numpy's sign
    if (isinf(y)) return C(NAN, -y);
    if (x == T(0)) return C(@PIO2_HI@$, NAN);
    return C(NAN, NAN);
  }
  if (isinf(x) || isinf(y)) {
    T re = @PIO2_HI@$;
    if (isinf(x)) {
      if (isinf(y)) {
        re = x > T(0) ? @PIO4_HI@$ : 2.356194490192345$;
      } else {
        re = x > T(0) ? T(0) : @PI_HI@$;
      }
    }
    return C(re, vka_copysign_F(INF, -y));
  }
  if (max(ax, ay) > @RECIP_EPS@$) {
    C l = vka_clog_F(C(x * 0.5$, y * 0.5$));
    T im = l.x + T(2) * 0.6931471805599453$;
    return C(vka_arctan2_F(ay, x), vka_copysign_F(im, -y));
  }
  C a = vka_csqrt_F(C(T(1) - x, -y));
  C b = vka_csqrt_F(C(T(1) + x, y));
  T im = b.x * a.y - b.y * a.x;
  C w = C(T(2) * vka_arctan2_F(a.x, b.x), vka_arcsinh_F(im));
  return w;
}
)"}},
      // acosh from acos (C99 G.6.2.1): (|Im acos z|, Re acos z signed as y), with Annex G's
      // NaN cases, and the array API's acosh(+0 + NaN i) = NaN + i pi/2.
      {"cacosh", {"cacos copysign", R"(C vka_cacosh_F(C z) {
  C w = vka_cacos_F(z);
  if (isnan(w.x) && isnan(w.y)) return C(w.y, w.x);
  if (isnan(w.x)) return C(abs(w.y), w.x);
  if (isnan(w.y)) return z.x == T(0) ? C(NAN, w.x) : C(NAN, NAN);
  return C(abs(w.y), vka_copysign_F(w.x, z.y));
}
)"}},
      // atanh on the first quadrant, the signs restored from z (odd, commutes with conj):
      // (log1p(4x / ((1 - x)^2 + y^2)) / 4, atan2(2y, (1 - x)(1 + x) - y^2) / 2); for x = 1
      // and y < 1 the real part as (log 2 - log y) / 2 + log1p(y^2 / 4) / 4, which does not
      // underflow; beyond 1/epsilon, 1/z + i pi/2.
      {"catanh", {"log log1p arctan2 copysign", R"(C vka_catanh_F(C z) {
  T x = abs(z.x);
  T y = abs(z.y);
  C w;
  if (isinf(y)) {
    w = C(T(0), @PIO2_HI@$);
  } else if (isinf(x)) {
    w = C(T(0), isnan(y) ? y : @PIO2_HI@$);
  } else if (isnan(x) || isnan(y)) {
    w = x == T(0) ? C(T(0), NAN) : C(NAN, NAN);
  } else if (max(x, y) > @RECIP_EPS@$) {
    T re;
    if (x >= y) {
      T r = y / x;
      re = T(1) / (x + y * r);
    } else {
      T r = x / y;
      re = r / (y + x * r);
    }
    w = C(re, @PIO2_HI@$);
  } else {
    T re;
    if (x == T(1) && y < T(1)) {
      re = 0.5$ * (0.6931471805599453$ - vka_log_F(y)) + 0.25$ * vka_log1p_F(0.25$ * y * y);
    } else {
      T d = (T(1) - x) * (T(1) - x) + y * y;
      re = 0.25$ * vka_log1p_F(T(4) * x / d);
    }
    T den = (T(1) - x) * (T(1) + x) - y * y;
    w = C(re, 0.5$ * vka_arctan2_F(T(2) * y, den));
  }
  return C(vka_copysign_F(w.x, z.x), vka_copysign_F(w.y, z.y));
}
)"}},
      {"catan", {"catanh", R"(C vka_catan_F(C z) {
  C w = vka_catanh_F(C(-z.y, z.x));
  return C(w.y, -w.x);
}
)"}},
  });
}

}  // namespace math_internal
}  // namespace vka
