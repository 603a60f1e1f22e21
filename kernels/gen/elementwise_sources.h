// The values of the elementwise tape's source ops (Op::kFull, kArange, kRandomBits,
// kRandomBelow, kRandomNormal, kEye, kLinspace) and of integer slots, as GLSL expressions.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/random.h"

namespace vka {

// An integer source parameter (eye's k and columns, linspace's last index) in index type.
std::string slot_index(const KernelSpec& spec, int slot);

// Source op `e`'s value at the element being computed, in the compute type of its dtype;
// `base` is the first binding of the spec's sources. Helpers it needs go into `h`. `lane`: a
// random draw's lane in a vectorized kernel (kernels/glsl/random.h).
std::string source_value(const KernelSpec& spec, const TapeEntry& e, int base, HelperSet* h,
                         const RandomLane* lane = nullptr);

// Whether source `e` is a random draw over the kernel's contiguous elements that a vectorized
// kernel draws a vector at a time (kernels/glsl/random.h: emit_random_quad).
bool has_random_quad(const KernelSpec& spec, const TapeEntry& e);

// The statement that draws such a source's lanes into `words`, the first lane's flat index
// being the kernel's `i`.
std::string random_quad(const KernelSpec& spec, const TapeEntry& e, int base,
                        const std::string& words, HelperSet* h);

}  // namespace vka
