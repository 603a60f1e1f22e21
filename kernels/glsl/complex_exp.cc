// Complex exp, expm1, sinh, cosh, tanh (and sin, cos) as math-library templates: numpy's and
// glibc's formulas for finite operands; infinities, NaNs and signed zeros as C99 Annex G
// (and the array API, which follows it) prescribe, where the formulas alone would produce
// inf * 0 or inf - inf.
#include "kernels/glsl/math_templates.h"

namespace vka {
namespace math_internal {

void add_complex_exp_templates(Templates* m) {
  m->insert({
      // e^x (cos y, sin y); e^x split in two halves where it alone would overflow.
      // exp(+-inf + i(inf or NaN)) is (0, +-0) for -inf and (inf, NaN) for +inf.
      {"cexp", {"exp sincos copysign signed_zero", R"(C vka_cexp_F(C z) {
  if (z.y == T(0)) return C(vka_exp_F(z.x), z.y);
  if (isinf(z.x) && (isinf(z.y) || isnan(z.y))) {
    return z.x < T(0) ? C(T(0), vka_signed_zero_F(z.y)) : C(INF, NAN);
  }
  T s;
  T c;
  vka_sincos_F(z.y, s, c);
  if (z.x > @EXP_MAX@$) {
    T h = vka_exp_F(0.5$ * z.x);
    C big = C((h * c) * h, (h * s) * h);
    return big;
  }
  T r = vka_exp_F(z.x);
  C w = C(r * c, r * s);
  return w;
}
)"}},
      // numpy's nc_expm1: (expm1(x) cos y - 2 sin^2(y/2), e^x sin y), no cancellation near 0.
      // Imaginary zero: (expm1(x), y), +0 for a zero x (the array API); an infinite x with an
      // infinite or NaN y: (-1, 0) for -inf, (inf, NaN) for +inf.
      {"cexpm1", {"exp expm1 sin sincos", R"(C vka_cexpm1_F(C z) {
  if (z.y == T(0)) return C(z.x == T(0) ? T(0) : vka_expm1_F(z.x), z.y);
  if (isinf(z.x) && (isinf(z.y) || isnan(z.y))) return z.x < T(0) ? C(-1, 0) : C(INF, NAN);
  T a = vka_sin_F(0.5$ * z.y);
  T s;
  T c;
  vka_sincos_F(z.y, s, c);
  C w = C(vka_expm1_F(z.x) * c - T(2) * a * a, vka_exp_F(z.x) * s);
  return w;
}
)"}},
      // glibc's ctanh: (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y); for large |x|
      // the real part is +-1 and the imaginary part 4 sin y cos y e^(-2|x|), without the
      // overflowing sinh * cosh. tanh(+-inf + iy) = +-1 + 0i, the zero signed as y (the
      // array API; C99 and numpy sign it as sin 2y for a finite y), Annex G otherwise:
      // tanh(+-0 + i(inf or NaN)) = +-0 + NaN i, tanh(NaN + 0i) = NaN + 0i, any other
      // finite or NaN x with an infinite or NaN y: NaN + NaN i.
      {"ctanh", {"exp sinh cosh sincos copysign signed_zero", R"(C vka_ctanh_F(C z) {
  if (isinf(z.x)) return C(vka_copysign_F(T(1), z.x), vka_signed_zero_F(z.y));
  if (z.x == T(0) && (isinf(z.y) || isnan(z.y))) return C(z.x, NAN);
  if (isnan(z.x) && z.y == T(0)) return z;
  if (isinf(z.y) || isnan(z.y)) return C(NAN, NAN);  // before the large-|x| branch
  T s;
  T c;
  vka_sincos_F(z.y, s, c);
  if (abs(z.x) > @TANH_BIG@$) {
    T e = vka_exp_F(-abs(z.x));
    C big = C(vka_copysign_F(T(1), z.x), T(4) * s * c * e * e);
    return big;
  }
  T sh = vka_sinh_F(z.x);
  T ch = vka_cosh_F(z.x);
  T den = sh * sh + c * c;
  C w = C(sh * ch / den, s * c / den);
  return w;
}
)"}},
      // sinh and cosh by their definitions, with Annex G's cases where a factor is infinite
      // and the other zero or NaN: an imaginary zero stays a zero (cosh: signed as x * y),
      // sinh(+-0 + i(inf or NaN)) = +-0 + NaN i, cosh(+-0 + i(inf or NaN)) = NaN + 0i, and an
      // infinite x with an infinite or NaN y gives (inf, NaN) (the sign numpy gives).
      {"ctrig", {"sincos sinh cosh copysign signed_zero", R"(C vka_csinh_F(C z) {
  if (z.y == T(0)) return C(vka_sinh_F(z.x), z.y);
  if (isinf(z.y) || isnan(z.y)) {
    if (z.x == T(0)) return C(z.x, NAN);
    if (isinf(z.x)) return C(INF, NAN);
    return C(NAN, NAN);
  }
  T s;
  T c;
  vka_sincos_F(z.y, s, c);
  C w = C(vka_sinh_F(z.x) * c, vka_cosh_F(z.x) * s);
  return w;
}
C vka_ccosh_F(C z) {
  if (z.y == T(0)) return C(vka_cosh_F(z.x), vka_signed_zero_F(z.x) * z.y);
  if (isinf(z.y) || isnan(z.y)) {
    if (z.x == T(0)) return C(NAN, T(0));
    if (isinf(z.x)) return C(INF, NAN);
    return C(NAN, NAN);
  }
  T s;
  T c;
  vka_sincos_F(z.y, s, c);
  C w = C(vka_cosh_F(z.x) * c, vka_sinh_F(z.x) * s);
  return w;
}
// sin z = -i sinh(iz), cos z = cosh(iz): the same products as (sin x cosh y, cos x sinh y)
// (sinh is odd and cosh even exactly), and Annex G's cases with them.
C vka_csin_F(C z) {
  C w = vka_csinh_F(C(-z.y, z.x));
  return C(w.y, -w.x);
}
C vka_ccos_F(C z) {
  return vka_ccosh_F(C(-z.y, z.x));
}
)"}},
  });
}

}  // namespace math_internal
}  // namespace vka
