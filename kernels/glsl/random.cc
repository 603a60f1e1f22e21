// Philox-4x32-10 and the random source ops' GLSL (see random.h).
#include "kernels/glsl/random.h"

#include "base/errors.h"

namespace vka {
namespace {

// Random123's philox4x32_R(10, ctr, key): a round, then the key bumped by the Weyl constants
// before each of rounds 2..10.
constexpr const char* kPhilox = R"(uvec4 vka_philox4x32_10(uvec4 c, uvec2 k) {
  for (int r = 0; r < 10; ++r) {
    if (r > 0) k += uvec2(0x9E3779B9u, 0xBB67AE85u);
    uint hi0, lo0, hi1, lo1;
    umulExtended(0xD2511F53u, c.x, hi0, lo0);
    umulExtended(0xCD9E8D57u, c.z, hi1, lo1);
    c = uvec4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
  }
  return c;
}
)";

// The block (key, counter + b). An invocation remembers its last block: the lanes of a
// vectorized kernel, and the several words one element reads (a normal's two uniforms), share
// one Philox evaluation instead of computing the same block again.
constexpr const char* kBlock = R"(bool vka_rb_valid = false;
uvec2 vka_rb_key = uvec2(0u);
uvec2 vka_rb_ctr = uvec2(0u);
uvec4 vka_rb_out = uvec4(0u);
// a + b in 64 bits.
uvec2 vka_add64(uvec2 a, uvec2 b) {
  uint carry;
  uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}
// a >> s in 64 bits, 0 < s < 32: a position's block (s = 2 for words, 1 for 64-bit units).
uvec2 vka_shr64(uvec2 a, uint s) { return uvec2((a.x >> s) | (a.y << (32u - s)), a.y >> s); }
// The block (key, counter + b), computed: the vector loops use these, without the cache below,
// so the cache's state is not kept live across their iterations.
uvec4 vka_computed_block(uvec2 key, uvec2 counter, uvec2 b) {
  return vka_philox4x32_10(uvec4(vka_add64(counter, b), 0u, 0u), key);
}
// Word or 64-bit unit p of the stream.
uint vka_random_word_at(uvec2 key, uvec2 counter, uvec2 p) {
  uvec4 b = vka_computed_block(key, counter, vka_shr64(p, 2u));
  uint w = p.x & 3u;
  return w == 0u ? b.x : w == 1u ? b.y : w == 2u ? b.z : b.w;
}
uvec2 vka_random_unit_at(uvec2 key, uvec2 counter, uvec2 p) {
  uvec4 b = vka_computed_block(key, counter, vka_shr64(p, 1u));
  return (p.x & 1u) == 0u ? b.xy : b.zw;
}
uvec4 vka_random_block(uvec2 key, uvec2 counter, uvec2 b) {
  uvec2 ctr = vka_add64(counter, b);
  if (!vka_rb_valid || vka_rb_key != key || vka_rb_ctr != ctr) {
    vka_rb_out = vka_philox4x32_10(uvec4(ctr, 0u, 0u), key);
    vka_rb_key = key;
    vka_rb_ctr = ctr;
    vka_rb_valid = true;
  }
  return vka_rb_out;
}
// f * lay.x + lay.y in 64 bits.
uvec2 vka_random_pos(uvec2 f, uvec2 lay) {
  uint hi, lo, carry;
  umulExtended(f.x, lay.x, hi, lo);
  hi += f.y * lay.x;
  lo = uaddCarry(lo, lay.y, carry);
  return uvec2(lo, hi + carry);
}
)";

constexpr const char* kBits32 = R"(
uint vka_random_u32(uvec2 key, uvec2 counter, uvec2 lay, uvec2 f) {
  uvec2 p = vka_random_pos(f, lay);
  uvec4 b = vka_random_block(key, counter, vka_shr64(p, 2u));
  uint w = p.x & 3u;
  return w == 0u ? b.x : w == 1u ? b.y : w == 2u ? b.z : b.w;
}
)";

// A vector's lanes (4, or 2 for 8-byte outputs): elements f .. f + 3 of a draw read units
// p .. p + 3. When its stride is 1 those are the four words of one block (p a multiple of 4) or
// the 64-bit units of two consecutive blocks (p even): one or two Philox evaluations, no
// per-lane position, look-up or selection. Otherwise a loop draws lane by lane (the slice of a
// draw that starts mid-block). One copy of each path: with the lane-by-lane code unrolled into
// every lane, 2^28 uniform float32 took 0.488 ms on an H100, 0.366 ms without it.
// vka_set_word and vka_set_unit set word l (of 4) or unit l (of 4) of w by selects: an index
// known only at run time would put w in memory.
constexpr const char* kSetLane = R"(#extension GL_EXT_control_flow_attributes : enable
void vka_set_word(inout uvec4 w[2], uint l, uint u) {
  w[0] = uvec4(l == 0u ? u : w[0].x, l == 1u ? u : w[0].y, l == 2u ? u : w[0].z,
               l == 3u ? u : w[0].w);
}
void vka_set_unit(inout uvec4 w[2], uint l, uvec2 u) {
  w[0] = uvec4(l == 0u ? u : w[0].xy, l == 1u ? u : w[0].zw);
  w[1] = uvec4(l == 2u ? u : w[1].xy, l == 3u ? u : w[1].zw);
}
)";

// The GLSL of `name`, drawing a vector of `lanes` words (uint32) or 64-bit units into w.
std::string bits_vector(const std::string& name, bool words, int lanes) {
  // A vector's first unit starts a block (words) or a half block (64-bit units).
  const std::string aligned = words ? "(p.x & 3u) == 0u" : "(p.x & 1u) == 0u";
  const std::string block = words ? "vka_shr64(p, 2u)" : "vka_shr64(p, 1u)";
  const std::string second =
      !words && lanes == 4
          ? "    w[1] = vka_computed_block(key, counter, vka_add64(b, uvec2(1u, 0u)));\n"
          : "";
  const std::string set = words ? "vka_set_word(w, l, vka_random_word_at(key, counter, q));"
                                : "vka_set_unit(w, l, vka_random_unit_at(key, counter, q));";
  return "void " + name + "(uvec2 key, uvec2 counter, uvec2 lay, uvec2 f, out uvec4 w[2]) {\n" +
         "  uvec2 p = vka_random_pos(f, lay);\n"
         "  w[0] = uvec4(0u);\n"
         "  w[1] = uvec4(0u);\n"
         "  if (lay.x == 1u && " +
         aligned + ") {\n" + "    uvec2 b = " + block + ";\n" +
         "    w[0] = vka_computed_block(key, counter, b);\n" + second +
         "  } else {\n"
         "    [[dont_unroll]] for (uint l = 0u; l < " +
         std::to_string(lanes) + "u; ++l) {\n" +
         "      uvec2 q = vka_random_pos(vka_add64(f, uvec2(l, 0u)), lay);\n" + "      " + set +
         "\n" +
         "    }\n"
         "  }\n"
         "}\n";
}

constexpr const char* kBits64 = R"(
uvec2 vka_random_u64(uvec2 key, uvec2 counter, uvec2 lay, uvec2 f) {
  uvec2 p = vka_random_pos(f, lay);
  uvec4 b = vka_random_block(key, counter, vka_shr64(p, 1u));
  return (p.x & 1u) == 0u ? b.xy : b.zw;
}
)";

// floor(x * r / 2^128) for the 128-bit x = a * 2^64 + c: hi64(a*r) plus the carry out of
// lo64(a*r) + hi64(c*r), exactly (r < 2^64, so the result is below r).
constexpr const char* kBelow = R"(uvec4 vka_mul64x64(uvec2 a, uvec2 b) {
  uint h00, l00, h01, l01, h10, l10, h11, l11, c, c1 = 0u, c2 = 0u;
  umulExtended(a.x, b.x, h00, l00);
  umulExtended(a.x, b.y, h01, l01);
  umulExtended(a.y, b.x, h10, l10);
  umulExtended(a.y, b.y, h11, l11);
  uint w1 = uaddCarry(h00, l01, c); c1 += c;
  w1 = uaddCarry(w1, l10, c); c1 += c;
  uint w2 = uaddCarry(h01, h10, c); c2 += c;
  w2 = uaddCarry(w2, l11, c); c2 += c;
  w2 = uaddCarry(w2, c1, c); c2 += c;
  return uvec4(l00, w1, w2, h11 + c2);
}
uvec2 vka_random_below(uvec2 key, uvec2 counter, uvec2 bound, uvec2 f) {
  uvec4 b = vka_random_block(key, counter, f);
  if (bound == uvec2(0u)) return b.zw;
  uvec4 p = vka_mul64x64(b.zw, bound), q = vka_mul64x64(b.xy, bound);
  uint c0, c1, c2;
  uint s0 = uaddCarry(p.x, q.z, c0);
  uint s1 = uaddCarry(p.y, q.w, c1);
  s1 = uaddCarry(s1, c0, c2);
  uint r0 = uaddCarry(p.z, c1 + c2, c0);
  return uvec2(r0, p.w + c0);
}
)";

// Box-Muller's pair of standard normals from a 64-bit unit (float32): u1 and u2 the uniforms
// (w >> 8) * 2^-24 of its low and high words, r = sqrt(-2 ln(1 - u1)), (r cos(2 pi u2),
// r sin(2 pi u2)). Routines for these arguments only, of additions, multiplications (correctly
// rounded in Vulkan; `precise` keeps them apart) and fused multiply-adds in the polynomials
// (fma(), which lavapipe and NVIDIA both round once), so every device computes the same bits:
//  - ln x, x = 1 - u1 in [2^-24, 1] exactly: x = m 2^e with m in [sqrt(1/2), sqrt(2)),
//    ln m = f + f^2 R(f) for f = m - 1 (exact), R fitted on Chebyshev nodes, e ln 2 in two parts
//    (e * the high part is exact): within 2 ulps over every x the uniforms take;
//  - cos and sin of 2 pi u2 from b in [0, 1/8] by exact reflections (u2 - 1, 1/2 - a,
//    1/4 - a), polynomials in b^2 fitted as R: within 8.5e-8 over every u2, below the error of
//    rounding 2 pi u2 to float32.
// On 10^6 pairs the normals are within 5.3e-7 of the exact transform of the same uniforms,
// and within 2.3e-7 times max(1, |z|); the transform by float32 library functions is within
// 1.4e-6. The fused form takes 15 fewer operations a pair than separate products and sums.
constexpr const char* kNormal32 = R"(vec2 vka_normal2_f32(uvec2 w) {
  precise float u1 = float(w.x >> 8u) * 5.9604644775390625e-8;
  precise float u2 = float(w.y >> 8u) * 5.9604644775390625e-8;
  precise float x = 1.0 - u1;
  uint bits = floatBitsToUint(x);
  int e = int(bits >> 23u) - 126;
  precise float m = uintBitsToFloat((bits & 0x7FFFFFu) | 0x3F000000u);
  bool low = m < 0.707106769;
  m = low ? m * 2.0 : m;
  e = low ? e - 1 : e;
  precise float f = m - 1.0;
  precise float q = 0.0900420174;
  q = fma(q, f, -0.142577946);
  q = fma(q, f, 0.148064598);
  q = fma(q, f, -0.165750474);
  q = fma(q, f, 0.199731052);
  q = fma(q, f, -0.250016093);
  q = fma(q, f, 0.333336592);
  q = fma(q, f, -0.49999994);
  precise float ln = fma(float(e), 0.693145752, fma(float(e), 1.42860677e-06, fma(f * f, q, f)));
  precise float r = sqrt(0.0 - 2.0 * ln);
  precise float t = u2 <= 0.5 ? u2 : u2 - 1.0;
  precise float a = abs(t);
  bool cneg = a > 0.25;
  a = cneg ? 0.5 - a : a;
  bool swap = a > 0.125;
  precise float b = swap ? 0.25 - a : a;
  precise float s = b * b;
  precise float c = 59.2202911;
  c = fma(c, s, -85.4428482);
  c = fma(c, s, 64.9393158);
  c = fma(c, s, -19.7392082);
  c = fma(c, s, 1.0);
  precise float sn = -75.4018402;
  sn = fma(sn, s, 81.5925446);
  sn = fma(sn, s, -41.3416634);
  sn = fma(sn, s, 6.28318548);
  sn = b * sn;
  precise float cs = swap ? sn : c;
  precise float si = swap ? c : sn;
  return vec2(r * (cneg ? -cs : cs), r * (t < 0.0 ? -si : si));
}
// Element f: r cos of unit f / 2 when f is even, its r sin when odd.
float vka_normal_f32(uvec2 key, uvec2 counter, uvec2 lay, uvec2 f) {
  vec2 z = vka_normal2_f32(vka_random_u64(key, counter, lay, vka_shr64(f, 1u)));
  return (f.x & 1u) == 0u ? z.x : z.y;
}
)";

// A vector of 4 float32 normals: both normals of both units of a block when f is even, the
// stride 1 and unit f / 2 even; otherwise lane by lane. The values' bits go in w[0].
constexpr const char* kNormalVector =
    R"(void vka_random_quad_normal32(uvec2 key, uvec2 counter, uvec2 lay, uvec2 f, out uvec4 w[2]) {
  uvec2 p = vka_random_pos(vka_shr64(f, 1u), lay);
  w[0] = uvec4(0u);
  w[1] = uvec4(0u);
  if ((f.x & 1u) == 0u && lay.x == 1u && (p.x & 1u) == 0u) {
    uvec4 b = vka_computed_block(key, counter, vka_shr64(p, 1u));
    w[0] = floatBitsToUint(vec4(vka_normal2_f32(b.xy), vka_normal2_f32(b.zw)));
  } else {
    [[dont_unroll]] for (uint l = 0u; l < 4u; ++l) {
      uvec2 e = vka_add64(f, uvec2(l, 0u));
      vec2 z = vka_normal2_f32(
          vka_random_unit_at(key, counter, vka_random_pos(vka_shr64(e, 1u), lay)));
      vka_set_word(w, l, floatBitsToUint((e.x & 1u) == 0u ? z.x : z.y));
    }
  }
}
)";

}  // namespace

std::string emit_random_quad(Op op, DType dtype, int lanes, const std::string& key,
                             const std::string& counter, const std::string& param,
                             const std::string& flat, const std::string& words, HelperSet* h) {
  VKA_ASSERT(lanes == 4 || (lanes == 2 && op == Op::kRandomBits && dtype == DType::kUInt64));
  add_philox(h);
  h->add("vka_random_block", kBlock);
  h->add("vka_set_lane", kSetLane);
  std::string fn;
  if (op == Op::kRandomNormal) {
    VKA_ASSERT(dtype == DType::kFloat32);
    h->add("vka_random_u64", kBits64);
    h->add("vka_normal_f32", kNormal32);
    fn = "vka_random_quad_normal32";
    h->add(fn, kNormalVector);
  } else {
    VKA_ASSERT(op == Op::kRandomBits && (dtype == DType::kUInt32 || dtype == DType::kUInt64));
    const bool words = dtype == DType::kUInt32;
    fn = words ? "vka_random_quad32" : lanes == 2 ? "vka_random_pair64" : "vka_random_quad64";
    if (!h->has(fn)) h->add(fn, bits_vector(fn, words, lanes));
  }
  return fn + "(" + key + ", " + counter + ", " + param + ", " + flat + ", " + words + ");";
}

void add_philox(HelperSet* h) { h->add("vka_philox4x32_10", kPhilox); }

std::string emit_random(Op op, DType dtype, const std::string& key, const std::string& counter,
                        const std::string& param, const std::string& flat, HelperSet* h,
                        const RandomLane* lane) {
  add_philox(h);
  h->add("vka_random_block", kBlock);
  const std::string args = "(" + key + ", " + counter + ", " + param + ", " + flat + ")";
  if (op == Op::kRandomBelow && dtype == DType::kUInt64) {
    VKA_ASSERT(lane == nullptr);
    h->add("vka_random_below", kBelow);
    return "pack64(vka_random_below" + args + ")";
  }
  const char* xyzw[] = {"x", "y", "z", "w"};
  if (lane) {  // the unit or value emit_random_quad drew for this lane
    VKA_ASSERT(op != Op::kRandomBelow && lane->lane >= 0 && lane->lane < 4);
    const std::string& w = lane->words;
    if (op == Op::kRandomNormal) return "uintBitsToFloat(" + w + "[0]." + xyzw[lane->lane] + ")";
    if (dtype == DType::kUInt32) return w + "[0]." + xyzw[lane->lane];
    return "pack64(" + w + "[" + std::to_string(lane->lane / 2) + "]." +
           (lane->lane % 2 ? "zw" : "xy") + ")";
  }
  if (op == Op::kRandomNormal && dtype == DType::kFloat32) {
    h->add("vka_random_u64", kBits64);
    h->add("vka_normal_f32", kNormal32);
    return "vka_normal_f32" + args;
  }
  if (op == Op::kRandomBits && dtype == DType::kUInt32) {
    h->add("vka_random_u32", kBits32);
    return "vka_random_u32" + args;
  }
  if (op == Op::kRandomBits && dtype == DType::kUInt64) {
    h->add("vka_random_u64", kBits64);
    return "pack64(vka_random_u64" + args + ")";
  }
  internal_error("emit_random: not a random source of its dtypes", __FILE__, __LINE__);
}

}  // namespace vka
