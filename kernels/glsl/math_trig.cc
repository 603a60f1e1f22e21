// GLSL math templates: sin, cos, tan with full-range argument reduction, and the inverse
// trigonometric functions.
//
// Reduction x = k*pi/2 + r, r as a double-word hi + lo:
//  - Cody-Waite for moderate |x| (CW_MAX): pi/2 in three parts with few enough bits that
//    k * part is exact, plus a tail, summed with two-sum so no cancellation is lost;
//  - Payne-Hanek beyond: |x| = M * 2^E times the bits of 2/pi that matter (the leading ones
//    only add multiples of 4), in exact 32-bit integer arithmetic (umulExtended, uaddCarry;
//    no int64, which a shader only has with an extension), for every finite float and double.
#include "kernels/glsl/math_templates.h"

namespace vka {
namespace math_internal {

void add_trig_templates(Templates* m) {
  Template twoopi;
  twoopi.deps = "";
  twoopi.shared = true;
  // 2/pi, 32 bits a word, most significant first: 1280 bits, enough for |x| up to 2^1024.
  twoopi.code = R"(const uint VKA_2OPI[40] = uint[40](
  0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u, 0xFE5163ABu,
  0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu, 0xFE1DEB1Cu, 0xB129A73Eu,
  0xE88235F5u, 0x2EBB4484u, 0xE99C7026u, 0xB45F7E41u, 0x3991D639u, 0x835339F4u, 0x9C845F8Bu,
  0xBDF9283Bu, 0x1FF897FFu, 0xDE05980Fu, 0xEF2F118Bu, 0x5A0A6D1Fu, 0x6D367ECFu, 0x27CB09B7u,
  0x4F463F66u, 0x9E5FEA2Du, 0x7527BAC7u, 0xEBE5F17Bu, 0x3D0739F7u, 0x8A5292EAu, 0x6BFB5FB1u,
  0x1F8D5D08u, 0x56033046u, 0xFC7B6BABu, 0xF0CFBC20u, 0x9AF4361Du);
)";
  Template ph;
  ph.deps = "twoopi";
  ph.shared = true;
  // |x| = (mh * 2^32 + ml) * 2^E. Returns q = round(|x| * 2/pi) mod 4 and the remaining
  // fraction |x| * 2/pi - q (in units of pi/2) as 0.f0f1f2f3 * 2^-z, negated when neg.
  ph.code = R"(#extension GL_EXT_control_flow_attributes : enable
uint vka_bits_at(uint p[10], int pos) {
  int w = pos >> 5;
  int b = pos & 31;
  uint lo = (w >= 0 && w < 10) ? p[clamp(w, 0, 9)] : 0u;
  uint hi = (w + 1 >= 0 && w + 1 < 10) ? p[clamp(w + 1, 0, 9)] : 0u;
  return b == 0 ? lo : ((lo >> uint(b)) | (hi << uint(32 - b)));
}
int vka_ph_core(uint mh, uint ml, int E, int n, out uint f0, out uint f1, out uint f2,
                out uint f3, out int z, out bool neg) {
  // Words before i0 contribute multiples of 4 to |x| * 2/pi.
  int i0 = E < 2 ? 0 : (E - 2) >> 5;
  int d = E - 32 * i0;
  uint p[10];
  [[dont_unroll]] for (int j = 0; j < 10; ++j) p[j] = 0u;
  uint carry = 0u;
  [[dont_unroll]] for (int j = 0; j < n; ++j) {
    uint w = VKA_2OPI[clamp(i0 + n - 1 - j, 0, 39)];
    uint hi, lo, c;
    umulExtended(w, ml, hi, lo);
    p[j] = uaddCarry(lo, carry, c);
    carry = hi + c;
  }
  p[n] = carry;
  carry = 0u;
  [[dont_unroll]] for (int j = 0; j < n; ++j) {
    uint w = VKA_2OPI[clamp(i0 + n - 1 - j, 0, 39)];
    uint hi, lo, c1, c2;
    umulExtended(w, mh, hi, lo);
    lo = uaddCarry(lo, carry, c1);
    p[j + 1] = uaddCarry(p[j + 1], lo, c2);
    carry = hi + c1 + c2;
  }
  p[n + 1] = carry;
  int bp = 32 * n - d;
  uint q = vka_bits_at(p, bp) & 3u;
  f0 = vka_bits_at(p, bp - 32);
  f1 = vka_bits_at(p, bp - 64);
  f2 = vka_bits_at(p, bp - 96);
  f3 = vka_bits_at(p, bp - 128);
  neg = (f0 & 0x80000000u) != 0u;
  if (neg) {
    uint c;
    q += 1u;
    f3 = uaddCarry(~f3, 1u, c);
    f2 = uaddCarry(~f2, c, c);
    f1 = uaddCarry(~f1, c, c);
    f0 = ~f0 + c;
  }
  z = 0;
  [[dont_unroll]] for (int k = 0; k < 3 && f0 == 0u; ++k) {
    f0 = f1;
    f1 = f2;
    f2 = f3;
    f3 = 0u;
    z += 32;
  }
  int s = f0 == 0u ? 0 : 31 - findMSB(f0);
  if (s > 0) {
    uint r = uint(32 - s);
    f0 = (f0 << uint(s)) | (f1 >> r);
    f1 = (f1 << uint(s)) | (f2 >> r);
    f2 = (f2 << uint(s)) | (f3 >> r);
    f3 = f3 << uint(s);
  }
  z += s;
  return int(q & 3u);
}
)";
  m->insert({
      {"twoopi", twoopi},
      {"ph_core", ph},
      // x - k*pi/2 = hi + lo, k mod 4 in q.
      {"reduce", {"twosum ph_core rint floor", R"(T vka_reduce_F(T x, out T lo, out int q) {
  T a = abs(x);
  T h;
  T l;
  if (a < @CW_MAX@$) {
    T k = vka_rint_F(a * 0.63661977236758134$);
    T r1 = a - k * @PIO2_1@$;
    T e1;
    T e2;
    T s1 = vka_twosum_F(r1, -(k * @PIO2_2@$), e1);
    T s2 = vka_twosum_F(s1, -(k * @PIO2_3@$), e2);
    T t = (e1 + e2) - k * @PIO2_4@$;
    h = s2 + t;
    l = t - (h - s2);
    q = int(k) & 3;
  } else {
    int e;
    T mf = ldexp(frexp(a, e), @MANT_BITS@);
    uint mh = uint(vka_floor_F(mf * 2.3283064365386963e-10$));
    uint ml = uint(mf - T(mh) * 4294967296.0$);
    uint f0, f1, f2, f3;
    int z;
    bool neg;
    q = vka_ph_core(mh, ml, e - @MANT_BITS@, @PH_WORDS@, f0, f1, f2, f3, z, neg);
    // (f0 f1) * pi/2, pi/2 = 0xC90FDAA2 2168C234 * 2^-63: the top 96 bits of the product.
    uint c0 = 0xC90FDAA2u, c1 = 0x2168C234u;
    uint a1, a0, b1, b0, d1, d0, g1, g0, cy, cy2;
    umulExtended(f1, c1, a1, a0);
    umulExtended(f1, c0, b1, b0);
    umulExtended(f0, c1, d1, d0);
    umulExtended(f0, c0, g1, g0);
    uint w2 = uaddCarry(a1, b0, cy);
    w2 = uaddCarry(w2, d0, cy2);
    uint k1 = cy + cy2;
    uint w1 = uaddCarry(b1, d1, cy);
    uint k0 = cy;
    w1 = uaddCarry(w1, g0, cy);
    k0 += cy;
    w1 = uaddCarry(w1, k1, cy);
    k0 += cy;
    uint w0 = g1 + k0;
    h = ldexp(T(w0 & @RH_M0@), -31 - z) + ldexp(T(w1 & @RH_M1@), -63 - z);
    l = (ldexp(T(w0 & ~@RH_M0@), -31 - z) + ldexp(T(w1 & ~@RH_M1@), -63 - z)) +
        ldexp(T(w2), -95 - z);
    if (neg) {
      h = -h;
      l = -l;
    }
  }
  if (x < T(0)) {
    h = -h;
    l = -l;
    q = (4 - q) & 3;
  }
  lo = l;
  return h;
}
// sin(r + t) and cos(r + t), |r| <= pi/4, |t| <= ulp(r): the leading term plus a small tail
// summed last, so the result has one rounding of a value near 1 (cos) or r (sin).
T vka_sink_F(T r, T t) {
  T z = r * r;
  T inner = @SIN_SERIES@;
  T tail = -(r * z / T(6)) * inner;
  T s = r + (tail + t * (T(1) - 0.5$ * z));
  return s;
}
T vka_cosk_F(T r, T t) {
  T z = r * r;
  T inner = @COS_SERIES@;
  T hz = 0.5$ * z;
  T w = T(1) - hz;
  T c = w + ((((T(1) - w) - hz) + z * z / T(24) * inner) - r * t);
  return c;
}
)"}},
      {"sin", {"reduce", R"(T vka_sin_F(T x) {
  if (isinf(x) || isnan(x)) return NAN;
  if (x == T(0)) return x;
  T lo;
  int q;
  T r = vka_reduce_F(x, lo, q);
  T v = (q & 1) == 0 ? vka_sink_F(r, lo) : vka_cosk_F(r, lo);
  return q >= 2 ? -v : v;
}
)"}},
      {"cos", {"reduce", R"(T vka_cos_F(T x) {
  if (isinf(x) || isnan(x)) return NAN;
  T lo;
  int q;
  T r = vka_reduce_F(x, lo, q);
  T v = (q & 1) == 0 ? vka_cosk_F(r, lo) : vka_sink_F(r, lo);
  return (q == 1 || q == 2) ? -v : v;
}
)"}},
      {"tan", {"reduce", R"(T vka_tan_F(T x) {
  if (isinf(x) || isnan(x)) return NAN;
  if (x == T(0)) return x;
  T lo;
  int q;
  T r = vka_reduce_F(x, lo, q);
  T s = vka_sink_F(r, lo);
  T c = vka_cosk_F(r, lo);
  return (q & 1) == 0 ? s / c : -c / s;
}
)"}},
      // Both from one reduction (the complex functions need the pair).
      {"sincos", {"reduce", R"(void vka_sincos_F(T x, out T s, out T c) {
  if (isinf(x) || isnan(x)) {
    s = NAN;
    c = NAN;
    return;
  }
  T lo;
  int q;
  T r = vka_reduce_F(x, lo, q);
  T sk = vka_sink_F(r, lo);
  T ck = vka_cosk_F(r, lo);
  T sv = (q & 1) == 0 ? sk : ck;
  T cv = (q & 1) == 0 ? ck : sk;
  s = x == T(0) ? x : (q >= 2 ? -sv : sv);
  c = (q == 1 || q == 2) ? -cv : cv;
}
)"}},
      {"arctan", {"", R"(T vka_arctan_F(T x) {
  if (isnan(x)) return x;
  T a = abs(x);
  T t;
  T base = T(0);
  T lo = T(0);
  if (a > 2.4142135623730950$) {
    t = T(-1) / a;
    base = @PIO2_HI@$;
    lo = @PIO2_LO@$;
  } else if (a > 0.41421356237309503$) {
    t = (a - T(1)) / (a + T(1));
    base = @PIO4_HI@$;
    lo = @PIO4_LO@$;
  } else {
    t = a;
  }
  T z = t * t;
  T p = @ATAN_SERIES@;
  T r = base + (t * p + lo);
  return x < T(0) ? -r : (x == T(0) ? x : r);
}
)"}},
      {"arctan2", {"arctan copysign signbit div signed_zero", R"(T vka_arctan2_F(T y, T x) {
  const T PI = @PI_HI@$;
  if (isnan(x) || isnan(y)) return NAN;
  if (y == T(0)) return vka_signbit_F(x) ? vka_copysign_F(PI, y) : y;
  if (x == T(0)) return vka_copysign_F(PI * 0.5$, y);
  if (isinf(x)) {
    if (isinf(y)) return vka_copysign_F(x > T(0) ? PI * 0.25$ : PI * 0.75$, y);
    return x > T(0) ? vka_signed_zero_F(y) : vka_copysign_F(PI, y);
  }
  if (isinf(y)) return vka_copysign_F(PI * 0.5$, y);
  T a = vka_arctan_F(abs(vka_div_F(y, x)));
  T r = x > T(0) ? a : (PI - a) + @PI_LO@$;
  return vka_copysign_F(r, y);
}
)"}},
      {"arcsin", {"arctan", R"(T vka_arcsin_F(T x) {
  T a = abs(x);
  if (isnan(x) || a > T(1)) return NAN;
  if (a < 0.5$) return vka_arctan_F(x / sqrt(T(1) - x * x));
  T z = sqrt((T(1) - a) * 0.5$);
  T r = @PIO2_HI@$ - (T(2) * vka_arctan_F(z / sqrt(T(1) - z * z)) - @PIO2_LO@$);
  return x < T(0) ? -r : r;
}
)"}},
      {"arccos", {"arctan", R"(T vka_arccos_F(T x) {
  if (isnan(x) || abs(x) > T(1)) return NAN;
  return T(2) * vka_arctan_F(sqrt((T(1) - x) / (T(1) + x)));
}
)"}},
  });
}

}  // namespace math_internal
}  // namespace vka
