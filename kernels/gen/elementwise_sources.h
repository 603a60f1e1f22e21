// The values of the elementwise tape's source ops (Op::kFull, kArange, kRandomBits,
// kRandomBelow, kEye, kLinspace) and of integer slots, as GLSL expressions.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/ops.h"

namespace vka {

// An integer source parameter (eye's k and columns, linspace's last index) in index type.
std::string slot_index(const KernelSpec& spec, int slot);

// Source op `e`'s value at the element being computed, in the compute type of its dtype;
// `base` is the first binding of the spec's sources. Helpers it needs go into `h`.
std::string source_value(const KernelSpec& spec, const TapeEntry& e, int base, HelperSet* h);

}  // namespace vka
