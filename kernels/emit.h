// KernelSpec → GLSL: the one place that picks a kernel's emitter, by the spec's kind.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/gen/elementwise.h"  // EmitOptions

namespace vka {

// The complete GLSL 450 compute shader of `spec`. Generated kinds (elementwise, reductions,
// matrix products) come from kernels/gen/, fixed library kernels (scans, sorts, cumulative
// scans, linear algebra) from kernels/lib/; `options` are the device facts that change the code.
std::string emit(const KernelSpec& spec, const EmitOptions& options = {});

}  // namespace vka
