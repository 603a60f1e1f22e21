// EmitOptions: the device facts that change a kernel's GLSL (filled from Caps by the cache).
#pragma once

#include <cstdint>

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
  // Subgroups (the radix sort's 8-bit ranking: kernels/lib/sort_pass.h): their size, ballot
  // support in compute shaders, and the shared memory a workgroup may use.
  uint32_t subgroup_size = 0;
  bool subgroup_ballot = false;
  // GL_KHR_shader_subgroup_arithmetic (the LU panel's pivot search: kernels/lib/linalg.h).
  bool subgroup_arithmetic = false;
  uint32_t max_shared_bytes = 0;
};

}  // namespace vka
