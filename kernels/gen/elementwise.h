// KernelSpec (elementwise) → a complete GLSL 450 compute shader.
#pragma once

#include <cstdint>
#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/emit_options.h"

namespace vka {

// Binding i is argument i of the spec (inputs, then outputs), std430 storage buffers of the
// element's storage type; one push-constant block (indexing.h); the body evaluates the tape
// once per element. All-contiguous specs index with the flat id only (the fast path).
std::string emit_elementwise(const KernelSpec& spec, const EmitOptions& options = {});

}  // namespace vka
