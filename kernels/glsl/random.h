// Philox-4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3",
// SC'11; the Random123 library) as GLSL helpers for the random source ops of ir/ops.def.
//
// The stream of a (key, counter) pair is the sequence of 128-bit blocks
// philox(key, (counter + b) mod 2^64, 0, 0) for b = 0, 1, 2, ...; block b holds the 32-bit
// words 4b .. 4b+3 (words x, y, z, w), or the 64-bit units 2b (x | y << 32) and 2b+1
// (z | w << 32). A value depends only on the key, the counter and its position, never on
// how a launch is split, which device computes it, or how many replicas there are.
#pragma once

#include <string>

#include "ir/ops.h"
#include "kernels/glsl/math.h"

namespace vka {

// In a vectorized kernel, lane `lane` of a draw whose 4 lanes emit_random_quad put in `words`.
struct RandomLane {
  std::string words;
  int lane = 0;
};

// Adds the helpers of random source `op` (kRandomBits of uint32 or uint64, kRandomBelow,
// kRandomNormal of float32) to `h` and returns a GLSL expression of the value, in the compute
// type of `dtype`:
//   kRandomBits:   the unit (32-bit word for uint32, 64-bit unit for uint64) at position
//                  f * stride + offset of the stream (`layout` = uvec2(stride, offset));
//   kRandomBelow:  floor(x * bound / 2^128), x the 128-bit block counter + f read as
//                  (w << 96 | z << 64 | y << 32 | x); bound 0 stands for 2^64;
//   kRandomNormal: (float32) Box-Muller's pair r cos, r sin of the 64-bit unit at
//                  (f / 2) * stride + offset, the cosine's for even f (its words' uniforms
//                  u1, u2; random.cc says how it is computed, and how exactly).
// `key`, `counter`, `param` are uvec2 expressions (push-constant slots); `flat` is the
// element's position as a uvec2 (low, high). With `lane` (kRandomBits, kRandomNormal), the
// lane's value from emit_random_quad's words.
std::string emit_random(Op op, DType dtype, const std::string& key, const std::string& counter,
                        const std::string& param, const std::string& flat, HelperSet* h,
                        const RandomLane* lane = nullptr);

// A vectorized kernel's random_bits or random_normal over `lanes` (4; 2: uint64 bits only)
// consecutive elements, whose first is at `flat`: a statement that stores the lanes' units
// (normals: their values' bits) in `words` (a declared `uvec4 words[2]`). Where the draw's
// stride is 1 and the lanes' units start a block (uint32 words, normals' pairs) or a half block
// (64-bit units), one or two Philox blocks serve the lanes; elsewhere a loop draws them one by
// one.
std::string emit_random_quad(Op op, DType dtype, int lanes, const std::string& key,
                             const std::string& counter, const std::string& param,
                             const std::string& flat, const std::string& words, HelperSet* h);

// Adds `uvec4 vka_philox4x32_10(uvec4 counter, uvec2 key)` to `h`: the block function itself,
// for kernels that walk their own streams (kernels/lib/random_draw.h).
void add_philox(HelperSet* h);

}  // namespace vka
