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
uvec4 vka_random_block(uvec2 key, uvec2 counter, uvec2 b) {
  uint carry;
  uint lo = uaddCarry(counter.x, b.x, carry);
  uvec2 ctr = uvec2(lo, counter.y + b.y + carry);
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
  uvec4 b = vka_random_block(key, counter, uvec2((p.x >> 2) | (p.y << 30), p.y >> 2));
  uint w = p.x & 3u;
  return w == 0u ? b.x : w == 1u ? b.y : w == 2u ? b.z : b.w;
}
)";

constexpr const char* kBits64 = R"(
uvec2 vka_random_u64(uvec2 key, uvec2 counter, uvec2 lay, uvec2 f) {
  uvec2 p = vka_random_pos(f, lay);
  uvec4 b = vka_random_block(key, counter, uvec2((p.x >> 1) | (p.y << 31), p.y >> 1));
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

}  // namespace

void add_philox(HelperSet* h) { h->add("vka_philox4x32_10", kPhilox); }

std::string emit_random(Op op, DType dtype, const std::string& key, const std::string& counter,
                        const std::string& param, const std::string& flat, HelperSet* h) {
  add_philox(h);
  h->add("vka_random_block", kBlock);
  const std::string args = "(" + key + ", " + counter + ", " + param + ", " + flat + ")";
  if (op == Op::kRandomBits && dtype == DType::kUInt32) {
    h->add("vka_random_u32", kBits32);
    return "vka_random_u32" + args;
  }
  if (op == Op::kRandomBits && dtype == DType::kUInt64) {
    h->add("vka_random_u64", kBits64);
    return "pack64(vka_random_u64" + args + ")";
  }
  if (op == Op::kRandomBelow && dtype == DType::kUInt64) {
    h->add("vka_random_below", kBelow);
    return "pack64(vka_random_below" + args + ")";
  }
  internal_error("emit_random: not a random source of uint32/uint64", __FILE__, __LINE__);
}

}  // namespace vka
