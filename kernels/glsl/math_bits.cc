// GLSL math templates: numpy's floating-point routines that work on the representation:
// ldexp, nextafter and frexp's exponent. Exact by construction (powers of two built from
// their bits, neighbours by integer steps of the bits); ldexp rounds once, and only where
// its result is subnormal. Subnormal inputs are scaled to normal numbers first, never passed
// to GLSL's frexp/ldexp, whose results are undefined for them.
#include "kernels/glsl/math_templates.h"

namespace vka {
namespace math_internal {

void add_bits_templates(Templates* m) {
  m->insert({
      // y * 2^k in three exact steps of normal powers of two: exact while every
      // intermediate exponent stays in the normal range, which holds when the exponents of y
      // and of the result both do (the steps move monotonically from one to the other).
      {"pow2mul",
       {"", R"(T vka_pow2mul_F(T y, int k) {
  int k1 = k / 3;
  int k2 = (k - k1) / 2;
  int k3 = k - k1 - k2;
  T a = y * uintBitsToFloat(uint(k1 + 127) << 23);
  T b = a * uintBitsToFloat(uint(k2 + 127) << 23);
  T c = b * uintBitsToFloat(uint(k3 + 127) << 23);
  return c;
}
)",
        false, R"(T vka_pow2mul_F(T y, int k) {
  int k1 = k / 3;
  int k2 = (k - k1) / 2;
  int k3 = k - k1 - k2;
  T a = y * packDouble2x32(uvec2(0u, uint(k1 + 1023) << 20));
  T b = a * packDouble2x32(uvec2(0u, uint(k2 + 1023) << 20));
  T c = b * packDouble2x32(uvec2(0u, uint(k3 + 1023) << 20));
  return c;
}
)"}},
      // x * 2^e, e an integer value (clamped: beyond the clamp every result is 0 or inf).
      // A normal result is exact; a subnormal one is x * 2^(k + P), exact and normal, times
      // 2^-P: one rounding, as C's ldexp (P = 64 or 128 keeps both factors normal).
      {"ldexp",
       {"pow2mul copysign signed_zero", R"(T vka_ldexp_F(T x, T e) {
  // Zeros, infinities, NaN and the subnormal scaling on the bits: a device that flushes
  // float32 subnormals (NVIDIA's) compares them equal to 0, and would flush x * 2^24.
  uint bits = floatBitsToUint(x);
  uint mag = bits & 0x7fffffffu;
  if (mag == 0u || mag >= 0x7f800000u) return x;
  int k = int(clamp(e, -400.0, 400.0));
  T y = x;
  if (mag < 0x00800000u) {
    int shift = 23 - findMSB(mag);
    y = uintBitsToFloat((bits & 0x80000000u) | (uint(25 - shift) << 23) |
                        ((mag << uint(shift)) & 0x007fffffu));
    k -= 24;
  }
  int r = int((floatBitsToUint(y) >> 23) & 0xffu) - 127 + k;
  if (r > 127) return vka_copysign_F(INF, x);
  if (r >= -126) return vka_pow2mul_F(y, k);
  if (r < -150) return vka_signed_zero_F(x);
  T a = vka_pow2mul_F(y, k + 64);
  T b = a * 5.421010862427522e-20;
  return b;
}
)",
        false, R"(T vka_ldexp_F(T x, T e) {
  if (isnan(x) || isinf(x) || x == T(0)) return x;
  int k = int(clamp(e, -2200.0LF, 2200.0LF));
  T y = x;
  if (abs(y) < 2.2250738585072014e-308LF) {
    y = y * 18014398509481984.0LF;
    k -= 54;
  }
  int r = int((unpackDouble2x32(y).y >> 20) & 0x7ffu) - 1023 + k;
  if (r > 1023) return vka_copysign_F(INF, x);
  if (r >= -1022) return vka_pow2mul_F(y, k);
  if (r < -1075) return vka_signed_zero_F(x);
  T a = vka_pow2mul_F(y, k + 128);
  T b = a * 2.938735877055719e-39LF;
  return b;
}
)"}},
      // The e of x = m * 2^e with 0.5 <= |m| < 1 (C's frexp); 0 for 0, inf and NaN.
      {"frexp_exponent",
       {"", R"(T vka_frexp_exponent_F(T x) {
  // On the bits, subnormals included (see ldexp).
  uint mag = floatBitsToUint(x) & 0x7fffffffu;
  if (mag == 0u || mag >= 0x7f800000u) return T(0);
  if (mag < 0x00800000u) return T(findMSB(mag) - 148);
  return T(int(mag >> 23) - 126);
}
)",
        false, R"(T vka_frexp_exponent_F(T x) {
  if (isnan(x) || isinf(x) || x == T(0)) return T(0);
  T y = abs(x);
  int adj = 0;
  if (y < 2.2250738585072014e-308LF) {
    y = y * 18014398509481984.0LF;
    adj = 54;
  }
  return T(int((unpackDouble2x32(y).y >> 20) & 0x7ffu) - 1022 - adj);
}
)"}},
      // The neighbour of x toward y (C's nextafter): one step of the bits, away from zero or
      // toward it; from zero the smallest subnormal with y's sign; y itself when x == y.
      {"nextafter",
       {"", R"(T vka_nextafter_F(T x, T y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x == y) return y;
  if (x == T(0)) return uintBitsToFloat(y > T(0) ? 1u : 0x80000001u);
  uint b = floatBitsToUint(x);
  return uintBitsToFloat((y > x) == (x > T(0)) ? b + 1u : b - 1u);
}
)",
        false, R"(T vka_nextafter_F(T x, T y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x == y) return y;
  if (x == T(0)) return packDouble2x32(uvec2(1u, y > T(0) ? 0u : 0x80000000u));
  uvec2 w = unpackDouble2x32(x);
  if ((y > x) == (x > T(0))) {
    w.x += 1u;
    if (w.x == 0u) w.y += 1u;
  } else {
    if (w.x == 0u) w.y -= 1u;
    w.x -= 1u;
  }
  return packDouble2x32(w);
}
)"}},
      // float16 values computed in float: the step is a float16 one, taken on the float16
      // bits (converted exactly both ways, with no conversion instruction that a device may
      // flush or round). numpy's float16 loop returns x, not y, when they are equal.
      {"nextafter_f16",
       {"", R"(uint vka_f16_bits(float x) {
  uint b = floatBitsToUint(x);
  uint s = (b >> 16) & 0x8000u;
  uint a = b & 0x7fffffffu;
  if (a >= 0x7f800000u) return s | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0u);
  if (a < 0x38800000u) return s | uint(uintBitsToFloat(a) * 16777216.0);
  return s | (((a >> 23) - 112u) << 10) | ((a >> 13) & 0x3ffu);
}
float vka_f16_value(uint h) {
  uint s = (h & 0x8000u) << 16;
  uint e = (h >> 10) & 0x1fu;
  uint m = h & 0x3ffu;
  if (e == 0u) return uintBitsToFloat(s | floatBitsToUint(float(m) * 5.9604644775390625e-08));
  if (e == 31u) return uintBitsToFloat(s | 0x7f800000u | (m << 13));
  return uintBitsToFloat(s | ((e + 112u) << 23) | (m << 13));
}
float vka_nextafter_f16(float x, float y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x == y) return x;
  if (x == 0.0) return vka_f16_value(y > 0.0 ? 1u : 0x8001u);
  uint h = vka_f16_bits(x);
  return vka_f16_value((y > x) == (x > 0.0) ? h + 1u : h - 1u);
}
)",
        true}},
  });
}

}  // namespace math_internal
}  // namespace vka
