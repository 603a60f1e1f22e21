// KernelSpec (elementwise) → a complete GLSL 450 compute shader.
#pragma once

#include <cstdint>
#include <string>

#include "ir/kernel_spec.h"

namespace vka {

struct EmitOptions {
  uint32_t workgroup_size = 256;  // local_size_x; the dispatch uses ceil(n / this) groups
  // Ask the driver to keep subnormal results of these float widths (numpy keeps them); only
  // where the device allows it (Caps::denorm_preserve_*).
  bool denorm_preserve_16 = false;
  bool denorm_preserve_32 = false;
  bool denorm_preserve_64 = false;
  // The device has shaderFloat64 (HelperSet::float64).
  bool float64 = false;
};

// Binding i is argument i of the spec (inputs, then outputs), std430 storage buffers of the
// element's storage type; one push-constant block (indexing.h); the body evaluates the tape
// once per element. All-contiguous specs index with the flat id only (the fast path).
std::string emit_elementwise(const KernelSpec& spec, const EmitOptions& options = {});

}  // namespace vka
